// encore::profiler on the OpenCL backend (PoCL here): what the runtime times from events' profiling
// timestamps on backends that do not time their own nodes. A queue made while a trace records gets timestamps
// without asking; eager commands appear under their names on the queue's track, each launch of a graph as one
// slice per device partition, host tasks on their threads, in dependency order on the one clock of the trace.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "encore/backends/opencl/opencl_program.hpp"
#include "encore/encore.hpp"
#include "encore/runtime/profiler.hpp"

using namespace encore;

namespace {
constexpr const char* source = R"(
kernel void add(global int* p, int v) { p[get_global_id(0)] += v; }
)";
} // namespace

TEST_CASE("opencl: eager commands and graph partitions are timed from their events") {
    const device d = device::default_device();
    REQUIRE(d.backend_name() == "opencl");
    const auto program =
        opencl::program::load(opencl::build_program(d, opencl::program_source::opencl_c(source)));
    const auto add = opencl::get_kernel(program, "add");

    profiler::start();
    queue q(d, {.in_order = true}); // no enable_profiling: the trace asks the backend for timestamps itself
    int* data = malloc_device<int>(256, q);
    q.memset(data, 0, 256 * sizeof(int));
    q.submit(kernel_command{
        add, {kernel_argument::from_pointer(data), kernel_argument::from_scalar(1)}, range(256)});
    q.wait_and_throw();

    graph g; // device partition, host task, device partition
    auto k0 = g.add(kernel_command{
        add, {kernel_argument::from_pointer(data), kernel_argument::from_scalar(2)}, range(256)});
    auto h = g.add(host_task_command{[] {}}, {k0});
    g.add(kernel_command{add,
                         {kernel_argument::from_pointer(data), kernel_argument::from_scalar(3)},
                         range(256)},
          {h});
    executable_graph exec(g, d);
    for (int i = 0; i < 3; ++i)
        q.launch(exec);
    q.wait_and_throw();
    const trace t = profiler::stop();
    free(data, q);

    std::multiset<std::string> eager;
    std::map<std::pair<std::uint64_t, std::int64_t>, const trace_slice*> partitions; // (launch, partition)
    std::map<std::uint64_t, const trace_slice*> host_tasks;
    for (const auto& s : t.slices) {
        CHECK(s.end_ns >= s.start_ns);
        CHECK(s.start_ns >= 0);
        if (s.launch == 0)
            eager.insert(s.name);
        else if (s.category == "partition")
            partitions[{s.launch, s.partition}] = &s;
        else if (s.category == "host_task")
            host_tasks[s.launch] = &s;
    }
    CHECK(eager == std::multiset<std::string>{"memset", "add"});
    REQUIRE(partitions.size() == 3 * 2);
    REQUIRE(host_tasks.size() == 3);
    for (std::uint64_t launch = 1; launch <= 3; ++launch) {
        const auto* first = partitions.at({launch, 0});
        const auto* second = partitions.at({launch, 2});
        CHECK(host_tasks.at(launch)->start_ns >= first->end_ns);
        CHECK(second->start_ns >= host_tasks.at(launch)->end_ns);
        CHECK(t.processes[first->process - 1].backend == "opencl");
    }
    const auto j = to_chrome_trace(t);
    CHECK(j["otherData"]["graphs"][0]["backend"] == "opencl");
}

// encore::profiler on a backend the runtime times from its events (ENCORE_BACKENDS picks it: OpenCL on PoCL,
// Level Zero over the test driver), with memory commands only, which every backend runs without a kernel:
// eager commands appear under their names on the queue's track, each launch of a graph as one slice per
// device partition around its host task, in dependency order on the trace's one clock.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "encore/encore.hpp"

using namespace encore;

TEST_CASE("a backend timed from its events: eager commands and graph partitions") {
    const device d = device::default_device();
    REQUIRE(d.backend_name() != "native");
    profiler::start();
    queue q(d, {.in_order = true}); // no enable_profiling: the trace asks the backend for timestamps itself
    int* a = malloc_device<int>(1024, q);
    int* b = malloc_device<int>(1024, q);
    q.memset(a, 0, 1024 * sizeof(int));
    q.fill(b, 7, 1024);
    q.memcpy(a, b, 1024 * sizeof(int));
    q.wait_and_throw();

    graph g; // device partition, host task, device partition
    auto set = g.add(memset_command{a, 1, 1024 * sizeof(int)});
    auto h = g.add(host_task_command{[] {}}, {set});
    g.add(memcpy_command{b, a, 1024 * sizeof(int)}, {h});
    executable_graph exec(g, d);
    for (int i = 0; i < 3; ++i)
        q.launch(exec);
    q.wait_and_throw();
    const trace t = profiler::stop();
    free(a, q);
    free(b, q);

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
    CHECK(eager == std::multiset<std::string>{"memset", "fill", "memcpy"});
    REQUIRE(partitions.size() == 3 * 2);
    REQUIRE(host_tasks.size() == 3);
    for (std::uint64_t launch = 1; launch <= 3; ++launch) {
        const auto* first = partitions.at({launch, 0});
        const auto* second = partitions.at({launch, 2});
        CHECK(host_tasks.at(launch)->start_ns >= first->end_ns);
        CHECK(second->start_ns >= host_tasks.at(launch)->end_ns);
        CHECK(t.processes[first->process - 1].backend == d.backend_name());
        if (launch > 1) CHECK(first->start_ns >= partitions.at({launch - 1, 2})->end_ns);
    }
    const auto j = to_chrome_trace(t);
    CHECK(j["otherData"]["graphs"][0]["backend"] == std::string(d.backend_name()));
}

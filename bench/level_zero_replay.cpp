// level_zero_replay — Encore's Level Zero backend, per node: graph replay against eager submission, on chains
// of 10, 100 and 1,000 small kernels and a fan-out/fan-in of 1,000 (root, 1,000 independent kernels, join),
// with the Level Zero calls each launch makes.
//
//   replay: the DAG as an encore::graph finalized for the Level Zero device (one command-list chain per
//   partition),
//           q.launch back to back on an in-order queue, then one wait
//   eager:  q.submit per node on an out-of-order Encore queue (an immediate command list), each node with its
//           predecessors' events
//   ze_calls_per_launch, lists_per_launch, appends_per_launch: counted by the test driver
//           (tests/level_zero/driver), averaged over the replays of a round; null on another driver
//
// Every node runs the kernel `add_one` (64 items) of a native binary: the test driver's kernels
// (tests/level_zero/kernels), given with --kernels PATH or ENCORE_ZE_TEST_KERNELS. Each round runs both
// methods in turn; the median of the rounds is reported. There is no Intel GPU here: the figures are the test
// driver's (work on host threads behind the real loader), which measures Encore's and the loader's overhead,
// not a GPU's.
//
//   ZE_ENABLE_ALT_DRIVERS=build/tests/level_zero/libze_test_driver.so ENCORE_BACKENDS=level_zero
//       ENCORE_CACHE_PERSISTENT=0 build/bench/level_zero_replay
//       --kernels build/tests/level_zero/libencore_ze_test_kernels.so [--json] [--rounds N]
//   (one command line; the build tree's plugins are found without ENCORE_BACKEND_PATH)
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "dag_shape.hpp"
#include "encore/backends/level_zero/level_zero_module.hpp"
#include "encore/runtime/runtime.hpp"
#include "timing.hpp"

namespace {

using bench::median;

using bench::chain;
using bench::fan_out_in;
using bench::now_ns;
using bench::shape;

constexpr std::size_t items = 64;

// The test driver's counters (tests/level_zero/driver/driver_counters.h, declared here again to keep bench/
// free of test headers): api_calls, lists executed and appends are the fields used.
struct driver_counters {
    std::uint64_t api_calls, command_lists, immediate_lists, list_resets, list_closes, appends, executes,
        lists_executed, event_pools, events, host_signals, kernel_launches_run;
};
using counters_function = void (*)(driver_counters*);

counters_function find_counters() {
    const char* path = std::getenv("ZE_ENABLE_ALT_DRIVERS");
    if (!path) return nullptr;
    void* driver = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (!driver) return nullptr;
    auto f = reinterpret_cast<counters_function>(dlsym(driver, "encore_ze_test_driver_counters"));
    dlclose(driver);
    return f;
}

struct result {
    std::string device, shape;
    int nodes = 0;
    double replay = 0, eager = 0;
    std::optional<double> ze_calls, lists, appends;
};

} // namespace

int main(int argc, char** argv) {
    bool json = false;
    int rounds = 5;
    std::string kernels = std::getenv("ENCORE_ZE_TEST_KERNELS") ? std::getenv("ENCORE_ZE_TEST_KERNELS") : "";
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0)
            json = true;
        else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--kernels") == 0 && i + 1 < argc)
            kernels = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--json] [--rounds N] [--kernels PATH]\n", argv[0]);
            return 2;
        }
    }
    std::optional<encore::device> device;
    for (const auto& d : encore::device::all())
        if (d.backend_name() == "level_zero") device = d;
    if (!device) {
        std::fprintf(stderr, "level_zero_replay: no Level Zero device (ENCORE_TRACE=1 says why)\n");
        return 1;
    }
    if (kernels.empty()) {
        std::fprintf(stderr, "level_zero_replay: give the kernels' native binary with --kernels PATH\n");
        return 2;
    }
    std::ifstream in(kernels, std::ios::binary);
    const std::vector<unsigned char> binary{std::istreambuf_iterator<char>(in),
                                            std::istreambuf_iterator<char>()};
    auto module = encore::level_zero::module::load(
        encore::level_zero::build_module(*device, encore::level_zero::module_source::native(binary)));
    auto kernel = encore::level_zero::get_kernel(module, "add_one");
    const counters_function counters = find_counters();

    int* data = static_cast<int*>(encore::malloc(items * sizeof(int), *device, encore::memory_kind::device));
    const std::vector<encore::kernel_argument> arguments{encore::kernel_argument::from_pointer(data)};
    std::vector<result> results;
    for (const shape& s : {chain(10), chain(100), chain(1000), fan_out_in(1000)}) {
        const int nodes = static_cast<int>(s.predecessors.size());
        encore::graph g;
        std::vector<encore::node> made;
        for (const auto& preds : s.predecessors) {
            std::vector<encore::node> deps;
            for (int p : preds)
                deps.push_back(made[p]);
            made.push_back(g.add(encore::kernel_command{kernel, arguments, encore::range(items)}, deps));
        }
        encore::executable_graph exec(g, *device);
        encore::queue replay_q(*device, {.in_order = true});
        encore::queue eager_q(*device);
        replay_q.launch(exec).wait(); // warm: pools, lists
        const int launches = std::max(2, 2000 / nodes);
        std::vector<double> replay, eager, calls, lists, appends;
        for (int round = 0; round < rounds; ++round) {
            driver_counters before{}, after{};
            if (counters) counters(&before);
            double t0 = now_ns();
            for (int i = 0; i < launches; ++i)
                replay_q.launch(exec);
            replay_q.wait_and_throw();
            replay.push_back((now_ns() - t0) / (double(launches) * nodes));
            if (counters) {
                counters(&after);
                calls.push_back(double(after.api_calls - before.api_calls) / launches);
                lists.push_back(double(after.lists_executed - before.lists_executed) / launches);
                appends.push_back(double(after.appends - before.appends) / launches);
            }
            t0 = now_ns();
            std::vector<encore::event> events(nodes), deps;
            for (int n = 0; n < nodes; ++n) {
                deps.clear();
                for (int p : s.predecessors[n])
                    deps.push_back(events[p]);
                events[n] =
                    eager_q.submit(encore::kernel_command{kernel, arguments, encore::range(items)}, deps);
            }
            eager_q.wait_and_throw();
            eager.push_back((now_ns() - t0) / nodes);
        }
        result r{device->properties().name, s.name, nodes, median(replay), median(eager), {}, {}, {}};
        if (counters) {
            r.ze_calls = median(calls);
            r.lists = median(lists);
            r.appends = median(appends);
        }
        results.push_back(r);
    }
    encore::free(data, *device);

    auto number = [](const std::optional<double>& v) {
        if (!v) return std::string("null");
        char text[32];
        std::snprintf(text, sizeof text, "%.1f", *v);
        return std::string(text);
    };
    if (json) {
        std::printf("{\"results\": [");
        for (std::size_t i = 0; i < results.size(); ++i) {
            const auto& r = results[i];
            std::printf(
                "%s{\"device\": \"%s\", \"shape\": \"%s\", \"nodes\": %d, \"replay_ns_per_node\": %.1f, "
                "\"eager_ns_per_node\": %.1f, \"ze_calls_per_launch\": %s, \"lists_per_launch\": %s, "
                "\"appends_per_launch\": %s}",
                i ? ", " : "", r.device.c_str(), r.shape.c_str(), r.nodes, r.replay, r.eager,
                number(r.ze_calls).c_str(), number(r.lists).c_str(), number(r.appends).c_str());
        }
        std::printf("]}\n");
        return 0;
    }
    std::printf("%-44s %-11s %6s %14s %14s %8s %10s %6s %8s\n", "device", "shape", "nodes", "replay ns/node",
                "eager ns/node", "eager/replay", "ze calls", "lists", "appends");
    for (const auto& r : results)
        std::printf("%-44.44s %-11s %6d %14.0f %14.0f %8.2f %10s %6s %8s\n", r.device.c_str(),
                    r.shape.c_str(), r.nodes, r.replay, r.eager, r.eager / r.replay,
                    number(r.ze_calls).c_str(), number(r.lists).c_str(), number(r.appends).c_str());
    std::printf("(ze calls, lists, appends: per launch, counted by the test driver; no GPU was measured)\n");
    return 0;
}

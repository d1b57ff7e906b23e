// What the profiler costs on the native backend, per node of a replayed graph: a 1,000-kernel chain, a
// 1,000-kernel fan-out/fan-in and a 10,000-node random DAG of tiny kernels (one increment each), replayed with no
// trace, then with profiler::start() on; each figure is the best of `rounds` rounds of launches and one wait, a
// round being 200,000 node runs (200 launches of the 1,000-node graphs, 20 of the random DAG). The difference is
// the cost per node of timing it (two steady_clock reads) and recording its slice.
//
//   build/bench/profile_overhead [--node-runs N] [--rounds R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "encore/encore.hpp"
#include "encore/graph/shapes.hpp"
#include "encore/runtime/profiler.hpp"

namespace {

double best_ns_per_node(encore::queue& q, encore::executable_graph& exec, std::size_t nodes, int replays,
                        int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < replays; ++i)
            q.launch(exec);
        q.wait();
        const double ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
        best = std::min(best, ns / (double(replays) * double(nodes)));
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    int node_runs = 200'000, rounds = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--node-runs" && i + 1 < argc)
            node_runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--rounds" && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: %s [--node-runs N] [--rounds R]\n", argv[0]);
            return 2;
        }
    }
    static std::vector<long> cells(1 << 16);
    auto add =
        encore::make_kernel("add", [](const encore::work_item& it) { ++cells[it.global_id[0] & 0xffff]; });
    struct shape {
        const char* name;
        encore::graph g;
    };
    std::vector<shape> shapes;
    encore::shapes::options kernels;
    kernels.make_command = [&add](std::uint32_t) {
        return encore::kernel_command{add, {}, encore::range(1)};
    };
    shapes.push_back({"chain 1000", encore::shapes::chain(1000, kernels)});
    shapes.push_back({"fan-out/in 1000", encore::shapes::fan_out_in(1000, kernels)});
    shapes.push_back({"random DAG 10000", encore::shapes::random_dag(10000, kernels)});
    encore::queue q;
    std::printf("%-18s %10s %10s %12s\n", "graph", "off ns/node", "on ns/node", "cost ns/node");
    for (auto& s : shapes) {
        encore::executable_graph exec(s.g, q.get_device());
        const int replays = std::max<int>(1, node_runs / static_cast<int>(s.g.size()));
        q.launch(exec).wait(); // warm: the schedule is measured in the first launches
        const double off = best_ns_per_node(q, exec, s.g.size(), replays, rounds);
        encore::profiler::start();
        const double on = best_ns_per_node(q, exec, s.g.size(), replays, rounds);
        const auto t = encore::profiler::stop();
        std::printf("%-18s %10.1f %10.1f %12.1f   (%zu slices)\n", s.name, off, on, on - off,
                    t.slices.size());
    }
}

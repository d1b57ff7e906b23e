// What the profiler costs per node of a replayed graph: a 1,000-kernel chain, a 1,000-kernel fan-out/fan-in and a
// 10,000-node random DAG, replayed with no trace, then with profiler::start() on; each figure is the best of
// `rounds` rounds of launches and one wait, a round being 200,000 node runs (200 launches of the 1,000-node graphs,
// 20 of the random DAG).
// - Native (profile_overhead): tiny kernels (one increment each); the difference is the cost of timing each node
//   on its worker (two steady_clock reads) and recording its slice.
// - CUDA (profile_overhead_cuda): empty kernels (NVRTC), on an in-order queue made with enable_profiling, off and
//   on alike; the difference is the timed form of the GPU graph (an event-record node before and after each
//   node, gpu_graph_lowering.hpp) and reading and recording its times. A line more gives the same replays from a
//   queue made without profiling, which is what an untraced program uses.
//
//   build/bench/profile_overhead [--node-runs N] [--rounds R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "encore/encore.hpp"
#include "encore/graph/shapes.hpp"
#include "encore/runtime/profiler.hpp"
#ifdef ENCORE_PROFILE_OVERHEAD_CUDA
#include "encore/backends/cuda/cuda_module.hpp"
#endif

namespace {

struct timing {
    double total = 1e300;  // ns per node: the launches and the wait, best round
    double submit = 1e300; // the launch loop alone
};

timing best_ns_per_node(encore::queue& q, encore::executable_graph& exec, std::size_t nodes, int replays,
                        int rounds) {
    timing best;
    const double per = double(replays) * double(nodes);
    for (int r = 0; r < rounds; ++r) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < replays; ++i)
            q.launch(exec);
        const auto submitted = std::chrono::steady_clock::now();
        q.wait();
        const auto end = std::chrono::steady_clock::now();
        best.total = std::min(best.total, std::chrono::duration<double, std::nano>(end - start).count() / per);
        best.submit = std::min(best.submit, std::chrono::duration<double, std::nano>(submitted - start).count() / per);
    }
    return best;
}

#ifdef ENCORE_PROFILE_OVERHEAD_CUDA
// The mean length of the partitions' slices per node: the time the GPU spent on the traced graph.
double partition_ns_per_node(const encore::trace& t, std::size_t nodes) {
    double sum = 0;
    std::size_t count = 0;
    for (const auto& s : t.slices)
        if (s.category == "partition") {
            sum += double(s.end_ns - s.start_ns);
            ++count;
        }
    return count ? sum / double(count) / double(nodes) : 0;
}
#endif

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
#ifdef ENCORE_PROFILE_OVERHEAD_CUDA
    std::optional<encore::device> d;
    for (const auto& candidate : encore::device::all())
        if (!d && candidate.backend_name() == "cuda") d = candidate;
    if (!d) {
        std::fprintf(stderr, "profile_overhead_cuda: no CUDA device\n");
        return 1;
    }
    const auto module = encore::cuda::module::load(
        encore::cuda::build_program("extern \"C\" __global__ void add() {}", {}, "profile_overhead.cu"));
    const auto add = encore::cuda::get_kernel(module, "add");
    encore::queue q(*d, {.in_order = true, .enable_profiling = true});
    encore::queue plain(*d, {.in_order = true});
#else
    static std::vector<long> cells(1 << 16);
    auto add =
        encore::make_kernel("add", [](const encore::work_item& it) { ++cells[it.global_id[0] & 0xffff]; });
    encore::queue q;
#endif
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
    std::printf("%-18s %10s %10s %12s\n", "graph", "off ns/node", "on ns/node", "cost ns/node");
    for (auto& s : shapes) {
        encore::executable_graph exec(s.g, q.get_device());
        const int replays = std::max<int>(1, node_runs / static_cast<int>(s.g.size()));
        q.launch(exec).wait(); // warm: the schedule is measured in the first launches
        const timing off = best_ns_per_node(q, exec, s.g.size(), replays, rounds);
        encore::profiler::start();
        const timing on = best_ns_per_node(q, exec, s.g.size(), replays, rounds);
        const auto t = encore::profiler::stop();
        std::printf("%-18s %10.1f %10.1f %12.1f   (%zu slices)\n", s.name, off.total, on.total, on.total - off.total,
                    t.slices.size());
#ifdef ENCORE_PROFILE_OVERHEAD_CUDA
        std::printf("%-18s submit loop alone: off %.1f, on %.1f ns/node; GPU time in the traced partitions %.1f "
                    "ns/node\n",
                    "", off.submit, on.submit, partition_ns_per_node(t, s.g.size()));
        plain.launch(exec).wait();
        std::printf("%-18s %10.1f   (no trace, queue without profiling)\n", "",
                    best_ns_per_node(plain, exec, s.g.size(), replays, rounds).total);
#endif
    }
}

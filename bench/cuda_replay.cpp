// cuda_replay — Encore's CUDA backend against hand-written driver-API code, per node, on chains of 10, 100,
// 1,000 and 10,000 empty kernels and a fan-out/fan-in of 1,000 (root, 1,000 independent kernels, join).
//
//   (a) raw_graph:   the DAG as a CUDA graph built by hand (cuGraphAddKernelNode), instantiated once, launched
//                    back to back on one stream
//   (b) replay:      the same DAG as an encore::graph, finalized for the CUDA device, q.launch back to back
//   (c) raw_eager:   cuLaunchKernel per node on one stream
//   (d) eager:       q.parallel_for per node on an in-order Encore queue
//   capture_instantiate: stream capture of the launches on one stream, with the capture dependency set put to
//                    each node's predecessors (cuStreamUpdateCaptureDependencies), so that it captures the very
//                    DAG (checked: node and edge counts), + cuGraphInstantiate;
//   record_finalize: building the encore::graph + finalize;  build_instantiate: the DAG built by hand with
//                    cuGraphAddKernelNode + cuGraphInstantiate.
// Every method uses the same PTX kernel (NVRTC-compiled `extern "C" __global__ void empty() {}`); each round
// runs all methods in turn and the median of 5 rounds is reported; ratios are medians of the per-round ratios.
// Eager launches are bound by the host's CPU, which drifts (±20-40 % between runs on the H100 machine): (c) and
// (d) take 8 short turns each per round (about 2,000 launches, or one pass of a larger shape), alternating
// c d d c ..., and d/c is the median of the 40 pairs' ratios, shown with their quartiles.
// --json prints the results for machines.
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "dag_shape.hpp"
#include "cuda_check.hpp"
#include "encore/backends/cuda/cuda_module.hpp"
#include "encore/runtime/runtime.hpp"

namespace {

using bench::check;

using bench::chain;
using bench::fan_out_in;
using bench::now_ns;
using bench::shape;

// The q-quantile (0 ≤ q ≤ 1) of v, nearest rank.
double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

double median(std::vector<double> v) {
    return quantile(std::move(v), 0.5);
}

struct result {
    std::string shape;
    int nodes;
    double raw_graph, replay, raw_eager, eager, capture_instantiate, record_finalize, build_instantiate;
    double raw_eager_submit, eager_submit; // the submission loop alone, before the wait
    double replay_ratio, eager_ratio, finalize_ratio; // medians of paired ratios: b/a, d/c, rec+fin/(capt+inst)
    double eager_ratio_q1, eager_ratio_q3;            // quartiles of the d/c pairs
};

} // namespace

int main(int argc, char** argv) {
    const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
    encore::device gpu = [] {
        for (const auto& d : encore::device::all())
            if (d.backend_name() == "cuda") return d;
        std::fprintf(stderr, "cuda_replay: no CUDA device (ENCORE_TRACE=1 says why)\n");
        std::exit(77);
    }();

    auto binary = encore::cuda::build_program(R"(extern "C" __global__ void empty() {})");
    auto module = encore::cuda::module::load(binary);
    auto empty = encore::cuda::get_kernel(module, "empty");

    // The raw side: the same PTX in the primary context (which the Encore backend uses too).
    check(cuInit(0), "cuInit");
    CUdevice dev;
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    CUcontext ctx;
    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    CUmodule raw_module;
    check(cuModuleLoadData(&raw_module, binary.bytes.data()), "cuModuleLoadData");
    CUfunction raw_empty;
    check(cuModuleGetFunction(&raw_empty, raw_module, "empty"), "cuModuleGetFunction");
    CUstream stream;
    check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");

    encore::queue q(gpu, {.in_order = true});

    std::vector<shape> shapes{chain(10), chain(100), chain(1000), chain(10000), fan_out_in(1000)};
    std::vector<result> results;
    for (const auto& s : shapes) {
        const int n = static_cast<int>(s.predecessors.size());
        const int launches = std::max(5, 100000 / n);
        const int eager_rounds = std::max(1, 2000 / n); // passes of the shape per eager turn
        constexpr int eager_pairs_per_round = 8;

        // (a) hand-written CUDA graph.
        auto build_raw = [&](CUgraph& graph) {
            check(cuGraphCreate(&graph, 0), "cuGraphCreate");
            std::vector<CUgraphNode> nodes(static_cast<std::size_t>(n));
            CUDA_KERNEL_NODE_PARAMS p{};
            p.func = raw_empty;
            p.gridDimX = p.gridDimY = p.gridDimZ = 1;
            p.blockDimX = p.blockDimY = p.blockDimZ = 1;
            std::vector<CUgraphNode> deps;
            for (int i = 0; i < n; ++i) {
                deps.clear();
                for (int u : s.predecessors[static_cast<std::size_t>(i)])
                    deps.push_back(nodes[static_cast<std::size_t>(u)]);
                check(cuGraphAddKernelNode(&nodes[static_cast<std::size_t>(i)], graph, deps.data(), deps.size(), &p),
                      "cuGraphAddKernelNode");
            }
        };
        CUgraph raw_graph;
        build_raw(raw_graph);
        CUgraphExec raw_exec;
        check(cuGraphInstantiate(&raw_exec, raw_graph, 0), "cuGraphInstantiate");

        // (b) Encore graph.
        auto record = [&] {
            encore::graph g;
            g.reserve(static_cast<std::size_t>(n));
            std::vector<encore::node> nodes;
            std::vector<encore::node> deps;
            for (int i = 0; i < n; ++i) {
                deps.clear();
                for (int u : s.predecessors[static_cast<std::size_t>(i)])
                    deps.push_back(nodes[static_cast<std::size_t>(u)]);
                nodes.push_back(g.add(encore::kernel_command{empty, {}, encore::range(1)}, deps));
            }
            return g;
        };
        encore::graph g = record();
        encore::executable_graph exec(g, gpu);

        // Stream capture of the same DAG on one stream: before each launch the stream's capture dependency set
        // is set to the node's predecessors (cuStreamUpdateCaptureDependencies), and the node a launch adds is
        // read back (cuStreamGetCaptureInfo), so the captured graph has exactly the shape's nodes and edges. A
        // chain needs neither call: each launch depends on the one before.
        std::vector<CUgraphNode> captured_nodes(static_cast<std::size_t>(n));
        std::vector<CUgraphNode> capture_deps;
        const bool is_chain = s.name == "chain";
        auto capture = [&] {
            CUgraph graph;
            check(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL), "cuStreamBeginCapture");
            for (int i = 0; i < n; ++i) {
                const auto& preds = s.predecessors[static_cast<std::size_t>(i)];
                const bool follows_previous = preds.size() == 1 && preds[0] == i - 1;
                if (!is_chain && i > 0 && !follows_previous) {
                    capture_deps.clear();
                    for (int u : preds)
                        capture_deps.push_back(captured_nodes[static_cast<std::size_t>(u)]);
                    check(cuStreamUpdateCaptureDependencies(stream, capture_deps.data(), nullptr, capture_deps.size(),
                                                            CU_STREAM_SET_CAPTURE_DEPENDENCIES),
                          "cuStreamUpdateCaptureDependencies");
                }
                check(cuLaunchKernel(raw_empty, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr), "cuLaunchKernel");
                if (!is_chain) {
                    CUstreamCaptureStatus status;
                    const CUgraphNode* added = nullptr;
                    std::size_t count = 0;
                    check(cuStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &added, nullptr, &count),
                          "cuStreamGetCaptureInfo");
                    if (count != 1) {
                        std::fprintf(stderr, "cuda_replay: capture: %zu nodes in the dependency set after a launch\n", count);
                        std::exit(1);
                    }
                    captured_nodes[static_cast<std::size_t>(i)] = added[0];
                }
            }
            check(cuStreamEndCapture(stream, &graph), "cuStreamEndCapture");
            return graph;
        };
        // The captured graph must be the shape: same node and edge counts as the hand-built one and Encore's.
        std::size_t expected_edges = 0;
        for (const auto& p : s.predecessors)
            expected_edges += p.size();
        {
            CUgraph captured = capture();
            std::size_t nodes = 0, edges = 0;
            check(cuGraphGetNodes(captured, nullptr, &nodes), "cuGraphGetNodes");
            check(cuGraphGetEdges(captured, nullptr, nullptr, nullptr, &edges), "cuGraphGetEdges");
            std::fprintf(json ? stderr : stdout, "%-11s %6d | captured graph: %zu nodes, %zu edges (expected %d, %zu)\n",
                         s.name.c_str(), n, nodes, edges, n, expected_edges);
            if (nodes != static_cast<std::size_t>(n) || edges != expected_edges) {
                std::fprintf(stderr, "cuda_replay: the captured graph is not the %s DAG\n", s.name.c_str());
                return 1;
            }
            cuGraphDestroy(captured);
        }

        // Warm-up: every path once.
        check(cuGraphLaunch(raw_exec, stream), "cuGraphLaunch");
        check(cuStreamSynchronize(stream), "cuStreamSynchronize");
        q.launch(exec).wait();
        q.parallel_for(encore::range(1), empty);
        q.wait();

        std::vector<double> a, b, c, d, ci, rf, bi, cs, ds; // cs, ds: host time of the submission loops
        std::vector<double> ba, dc, rc; // per-round (eager: per-pair) ratios
        for (int round = 0; round < 5; ++round) {
            double t0 = now_ns();
            for (int i = 0; i < launches; ++i)
                check(cuGraphLaunch(raw_exec, stream), "cuGraphLaunch");
            check(cuStreamSynchronize(stream), "cuStreamSynchronize");
            a.push_back((now_ns() - t0) / (static_cast<double>(launches) * n));

            t0 = now_ns();
            encore::event last;
            for (int i = 0; i < launches; ++i)
                last = q.launch(exec);
            last.wait();
            b.push_back((now_ns() - t0) / (static_cast<double>(launches) * n));
            ba.push_back(b.back() / a.back());

            // Eager launches are bound by the host and drift with the machine: (c) and (d) take short turns,
            // c d d c c d d c, and the ratio is the median of the ratios of each pair.
            auto raw_eager = [&] {
                const double start = now_ns();
                for (int r = 0; r < eager_rounds; ++r)
                    for (int i = 0; i < n; ++i)
                        check(cuLaunchKernel(raw_empty, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr), "cuLaunchKernel");
                cs.push_back((now_ns() - start) / (static_cast<double>(eager_rounds) * n));
                check(cuStreamSynchronize(stream), "cuStreamSynchronize");
                c.push_back((now_ns() - start) / (static_cast<double>(eager_rounds) * n));
            };
            auto encore_eager = [&] {
                const double start = now_ns();
                for (int r = 0; r < eager_rounds; ++r)
                    for (int i = 0; i < n; ++i)
                        q.parallel_for(encore::range(1), empty);
                ds.push_back((now_ns() - start) / (static_cast<double>(eager_rounds) * n));
                q.wait();
                d.push_back((now_ns() - start) / (static_cast<double>(eager_rounds) * n));
            };
            for (int pair = 0; pair < eager_pairs_per_round; ++pair) {
                if (pair % 2 == 0) {
                    raw_eager();
                    encore_eager();
                } else {
                    encore_eager();
                    raw_eager();
                }
                dc.push_back(d.back() / c.back());
            }

            t0 = now_ns();
            CUgraph captured = capture();
            CUgraphExec captured_exec;
            check(cuGraphInstantiate(&captured_exec, captured, 0), "cuGraphInstantiate");
            ci.push_back((now_ns() - t0) / n);
            cuGraphExecDestroy(captured_exec);
            cuGraphDestroy(captured);

            t0 = now_ns();
            {
                CUgraph built;
                build_raw(built);
                CUgraphExec built_exec;
                check(cuGraphInstantiate(&built_exec, built, 0), "cuGraphInstantiate");
                bi.push_back((now_ns() - t0) / n);
                cuGraphExecDestroy(built_exec);
                cuGraphDestroy(built);
            }

            t0 = now_ns();
            {
                encore::graph recorded = record();
                encore::executable_graph finalized(recorded, gpu);
                rf.push_back((now_ns() - t0) / n);
                rc.push_back(rf.back() / ci.back());
            }
        }
        cuGraphExecDestroy(raw_exec);
        cuGraphDestroy(raw_graph);
        results.push_back({s.name, n, median(a), median(b), median(c), median(d), median(ci), median(rf), median(bi),
                           median(cs), median(ds), median(ba), median(dc), median(rc), quantile(dc, 0.25),
                           quantile(dc, 0.75)});
    }

    // Where the eager path's time goes: Encore's submission of a command that enqueues nothing (the whole path
    // but the launch), and the driver calls it makes besides cuLaunchKernel.
    auto per_call = [](int count, auto&& body) {
        std::vector<double> rounds;
        for (int round = 0; round < 5; ++round) {
            const double t0 = now_ns();
            for (int i = 0; i < count; ++i)
                body();
            rounds.push_back((now_ns() - t0) / count);
        }
        return median(rounds);
    };
    const double empty_submit = per_call(20000, [&] { q.submit(encore::empty_command{}); });
    q.wait();
    CUcontext current = nullptr;
    const double get_current = per_call(20000, [&] { check(cuCtxGetCurrent(&current), "cuCtxGetCurrent"); });

    if (json) {
        std::printf("{\"empty_command_submit_ns\": %.1f, \"cuCtxGetCurrent_ns\": %.1f, \"results\": [", empty_submit,
                    get_current);
        for (std::size_t i = 0; i < results.size(); ++i) {
            const auto& r = results[i];
            std::printf("%s{\"shape\": \"%s\", \"nodes\": %d, \"raw_graph_ns_per_node\": %.1f, \"replay_ns_per_node\": %.1f, "
                        "\"raw_eager_ns_per_node\": %.1f, \"eager_ns_per_node\": %.1f, "
                        "\"capture_instantiate_ns_per_node\": %.1f, \"record_finalize_ns_per_node\": %.1f, "
                        "\"build_instantiate_ns_per_node\": %.1f, \"raw_eager_submit_ns_per_node\": %.1f, "
                        "\"eager_submit_ns_per_node\": %.1f, \"replay_over_raw_graph\": %.3f, "
                        "\"eager_over_raw_eager\": %.3f, \"eager_over_raw_eager_q1\": %.3f, "
                        "\"eager_over_raw_eager_q3\": %.3f, \"record_finalize_over_capture_instantiate\": %.3f}",
                        i ? ", " : "", r.shape.c_str(), r.nodes, r.raw_graph, r.replay, r.raw_eager, r.eager,
                        r.capture_instantiate, r.record_finalize, r.build_instantiate, r.raw_eager_submit, r.eager_submit,
                        r.replay_ratio, r.eager_ratio, r.eager_ratio_q1, r.eager_ratio_q3, r.finalize_ratio);
        }
        std::printf("]}\n");
        return 0;
    }
    std::printf("%s\n", gpu.properties().name.c_str());
    std::printf("%-11s %6s | %9s %9s %6s | %9s %9s %6s %11s | %9s %9s %6s | %9s | %9s %9s\n", "shape", "nodes",
                "raw_graph", "replay", "b/a", "raw_eager", "eager", "d/c", "d/c q1-q3", "capt+inst", "rec+fin", "ratio",
                "bld+inst", "raw_subm", "eager_sub");
    for (const auto& r : results)
        std::printf("%-11s %6d | %9.1f %9.1f %6.2f | %9.1f %9.1f %6.2f   %4.2f-%4.2f | %9.1f %9.1f %6.2f | %9.1f | "
                    "%9.1f %9.1f\n",
                    r.shape.c_str(), r.nodes, r.raw_graph, r.replay, r.replay_ratio, r.raw_eager, r.eager, r.eager_ratio,
                    r.eager_ratio_q1, r.eager_ratio_q3, r.capture_instantiate, r.record_finalize, r.finalize_ratio,
                    r.build_instantiate, r.raw_eager_submit, r.eager_submit);
    std::printf("Encore eager submission of a command that enqueues nothing: %.1f ns; cuCtxGetCurrent: %.1f ns\n",
                empty_submit, get_current);
    std::printf("ns per node, median of 5 rounds (eager: of 40 turns); ratios: median of the ratios of each "
                "round's (eager: each pair of turns') pair, d/c with its quartiles; capt+inst: the same DAG captured "
                "on one stream; "
                "bld+inst: built by hand (cuGraphAddKernelNode) and instantiated; raw_subm/eager_sub: host time of the "
                "eager submission loops before the final wait\n");
    return 0;
}

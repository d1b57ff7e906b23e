// bench/graph_scaling: the cost of building and finalizing graphs (topological sort + partitioning) per node, for
// 1k to 1M nodes in four shapes. Cost must grow linearly: ns/node at 1M within 2x of ns/node at 1k.
//
//   graph_scaling            a table
//   graph_scaling --json     {"results": [{"shape": str, "nodes": int, "ns_per_node": float, ...}, ...]}
//   graph_scaling --max N    stop at N nodes (default 1,000,000)
//   graph_scaling --shape S  only the shape S (repeatable)
//
// Every size gets the same budget of about 3M nodes (at least 5 repetitions) and reports the median repetition;
// the sizes of a shape are measured in turns (see measure).
// glibc is told to keep freed memory (M_TRIM_THRESHOLD, M_MMAP_THRESHOLD) so that every size runs in the same
// steady state: without it, small graphs reuse warm free lists while each 1M-node graph page-faults its memory
// in afresh, which measures the kernel rather than Encore. `--cold` leaves glibc's defaults.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <malloc.h>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "encore/graph/compact_adjacency.hpp"
#include "encore/graph/shapes.hpp"
#include "encore/graph/topological_order.hpp"
#include "encore/partitioner/partition.hpp"
#include "timing.hpp"

namespace {

using bench::median;

using clock_type = std::chrono::steady_clock;

struct shape {
    const char* name;
    std::function<encore::graph(std::uint32_t)> build;
};

struct result {
    std::string shape;
    std::uint32_t nodes;
    double build_ns, compact_ns, order_ns, partition_ns;
    std::size_t edges, partitions;
    double finalize() const { return compact_ns + order_ns + partition_ns; }
    double total() const { return build_ns + finalize(); }
};

struct samples {
    std::vector<double> build, compact, order, partition;
    std::size_t edges = 0, partitions = 0;
};

void run_once(const shape& s, std::uint32_t nodes, samples& out) {
    auto t0 = clock_type::now();
    encore::graph g = s.build(nodes);
    auto t1 = clock_type::now();
    encore::compact_adjacency adjacency(g);
    auto t2 = clock_type::now();
    auto topological = encore::topological_order(g, adjacency);
    auto t3 = clock_type::now();
    auto parts = encore::partition_graph(adjacency, topological);
    auto t4 = clock_type::now();
    auto ns = [&](auto a, auto b) { return std::chrono::duration<double, std::nano>(b - a).count() / nodes; };
    out.build.push_back(ns(t0, t1));
    out.compact.push_back(ns(t1, t2));
    out.order.push_back(ns(t2, t3));
    out.partition.push_back(ns(t3, t4));
    out.edges = g.edge_count();
    out.partitions = parts.partitions.size();
}

// The sizes take turns, round after round, so that a machine that speeds up or slows down during the run
// (clock frequency, neighbours on a shared host) moves every size alike instead of skewing the ratio to 1k.
std::vector<result> measure(const shape& s, const std::vector<std::uint32_t>& sizes) {
    constexpr int rounds = 5;
    std::vector<samples> per_size(sizes.size());
    for (int round = 0; round < rounds; ++round)
        for (std::size_t i = 0; i < sizes.size(); ++i)
            for (std::uint32_t k = 0; k < std::max<std::uint32_t>(1, 600'000 / sizes[i]); ++k)
                run_once(s, sizes[i], per_size[i]);
    std::vector<result> out;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const samples& m = per_size[i];
        out.push_back({s.name, sizes[i], median(m.build), median(m.compact), median(m.order), median(m.partition),
                       m.edges, m.partitions});
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    bool json = false, cold = false;
    std::uint32_t max_nodes = 1'000'000;
    std::vector<std::string> only;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (std::strcmp(argv[i], "--cold") == 0) {
            cold = true;
        } else if (std::strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
            max_nodes = static_cast<std::uint32_t>(std::stoul(argv[++i]));
        } else if (std::strcmp(argv[i], "--shape") == 0 && i + 1 < argc) {
            only.emplace_back(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--json] [--cold] [--max NODES] [--shape NAME]...\n", argv[0]);
            return 2;
        }
    }
    if (!cold) {
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
        mallopt(M_MMAP_THRESHOLD, 1 << 30);
    }

    const std::vector<shape> shapes = {
        {"chain", [](std::uint32_t n) { return encore::shapes::chain(n); }},
        {"fan_out_in", [](std::uint32_t n) { return encore::shapes::fan_out_in(n); }},
        {"random_dag", [](std::uint32_t n) { return encore::shapes::random_dag(n, {.edges_per_node = 4}); }},
        {"host_task_every_100",
         [](std::uint32_t n) { return encore::shapes::random_dag(n, {.host_task_every = 100, .edges_per_node = 4}); }},
    };

    std::vector<result> results;
    for (const auto& name : only)
        if (std::none_of(shapes.begin(), shapes.end(), [&](const shape& s) { return name == s.name; })) {
            std::fprintf(stderr, "unknown shape '%s' (chain, fan_out_in, random_dag, host_task_every_100)\n",
                         name.c_str());
            return 2;
        }
    for (const auto& s : shapes) {
        if (!only.empty() && std::find(only.begin(), only.end(), s.name) == only.end()) continue;
        std::vector<std::uint32_t> sizes;
        for (std::uint32_t n = 1000; n <= max_nodes; n *= 10) sizes.push_back(n);
        for (auto& r : measure(s, sizes)) results.push_back(std::move(r));
    }

    if (json) {
        nlohmann::json out = {{"results", nlohmann::json::array()}};
        for (const auto& r : results)
            out["results"].push_back({{"shape", r.shape},
                                      {"nodes", r.nodes},
                                      {"ns_per_node", r.total()},
                                      {"finalize_ns_per_node", r.finalize()},
                                      {"compact_ns_per_node", r.compact_ns},
                                      {"build_ns_per_node", r.build_ns},
                                      {"order_ns_per_node", r.order_ns},
                                      {"partition_ns_per_node", r.partition_ns},
                                      {"edges", r.edges},
                                      {"partitions", r.partitions}});
        std::printf("%s\n", out.dump().c_str());
        return 0;
    }

    std::printf("Build + finalize (topological sort + partitioning), ns per node (median repetition, %s)\n\n",
                cold ? "glibc's default memory trimming" : "freed memory kept for reuse");
    std::printf("%-20s %9s %9s %10s %8s %8s %8s %9s %9s %8s %8s\n", "shape", "nodes", "edges", "partitions",
                "build", "compact", "order", "partition", "finalize", "total", "vs 1k");
    for (const auto& r : results) {
        auto first = std::find_if(results.begin(), results.end(), [&](const result& x) { return x.shape == r.shape; });
        std::printf("%-20s %9u %9zu %10zu %8.1f %8.1f %8.1f %9.1f %9.1f %8.1f %7.2fx\n", r.shape.c_str(), r.nodes,
                    r.edges, r.partitions, r.build_ns, r.compact_ns, r.order_ns, r.partition_ns, r.finalize(),
                    r.total(), r.total() / first->total());
    }
    std::printf("\n'vs 1k' is total ns/node relative to the same shape at 1,000 nodes (linear growth: about 1x).\n");
    std::printf("finalize = compact (edges copied to flat arrays) + order + partition; build = adding nodes and edges.\n");
    return 0;
}

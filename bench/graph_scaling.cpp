// bench/graph_scaling: the cost of building and finalizing graphs (topological sort + partitioning) per node, for
// 1k to 1M nodes in four shapes. Cost must grow linearly: ns/node at 1M within 2x of ns/node at 1k.
//
//   graph_scaling            a table
//   graph_scaling --json     {"results": [{"shape": str, "nodes": int, "ns_per_node": float, ...}, ...]}
//   graph_scaling --max N    stop at N nodes (default 1,000,000)
//
// Each measurement repeats until it has run for at least 0.3 s and reports the fastest repetition.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/shapes.hpp"
#include "graph/topological_order.hpp"
#include "partitioner/partition.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

struct shape {
    const char* name;
    std::function<encore::graph(std::uint32_t)> build;
};

struct result {
    std::string shape;
    std::uint32_t nodes;
    double build_ns, order_ns, partition_ns;
    std::size_t edges, partitions;
    double total() const { return build_ns + order_ns + partition_ns; }
};

double seconds_since(clock_type::time_point start) {
    return std::chrono::duration<double>(clock_type::now() - start).count();
}

result measure(const shape& s, std::uint32_t nodes) {
    result best{s.name, nodes, 1e300, 1e300, 1e300, 0, 0};
    auto started = clock_type::now();
    int repetitions = 0;
    while (repetitions < 3 || (seconds_since(started) < 0.3 && repetitions < 1000)) {
        auto t0 = clock_type::now();
        encore::graph g = s.build(nodes);
        auto t1 = clock_type::now();
        auto order = encore::topological_order(g);
        auto t2 = clock_type::now();
        auto parts = encore::partition_graph(g, order);
        auto t3 = clock_type::now();
        auto ns = [&](auto a, auto b) { return std::chrono::duration<double, std::nano>(b - a).count() / nodes; };
        best.build_ns = std::min(best.build_ns, ns(t0, t1));
        best.order_ns = std::min(best.order_ns, ns(t1, t2));
        best.partition_ns = std::min(best.partition_ns, ns(t2, t3));
        best.edges = g.edge_count();
        best.partitions = parts.partitions.size();
        ++repetitions;
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    bool json = false;
    std::uint32_t max_nodes = 1'000'000;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (std::strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
            max_nodes = static_cast<std::uint32_t>(std::stoul(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: %s [--json] [--max NODES]\n", argv[0]);
            return 2;
        }
    }

    const std::vector<shape> shapes = {
        {"chain", [](std::uint32_t n) { return encore::shapes::chain(n); }},
        {"fan_out_in", [](std::uint32_t n) { return encore::shapes::fan_out_in(n); }},
        {"random_dag", [](std::uint32_t n) { return encore::shapes::random_dag(n, {.edges_per_node = 4}); }},
        {"host_task_every_100",
         [](std::uint32_t n) { return encore::shapes::random_dag(n, {.host_task_every = 100, .edges_per_node = 4}); }},
    };

    std::vector<result> results;
    for (const auto& s : shapes)
        for (std::uint32_t n = 1000; n <= max_nodes; n *= 10) results.push_back(measure(s, n));

    if (json) {
        nlohmann::json out = {{"results", nlohmann::json::array()}};
        for (const auto& r : results)
            out["results"].push_back({{"shape", r.shape},
                                      {"nodes", r.nodes},
                                      {"ns_per_node", r.total()},
                                      {"build_ns_per_node", r.build_ns},
                                      {"order_ns_per_node", r.order_ns},
                                      {"partition_ns_per_node", r.partition_ns},
                                      {"edges", r.edges},
                                      {"partitions", r.partitions}});
        std::printf("%s\n", out.dump().c_str());
        return 0;
    }

    std::printf("Build + finalize (topological sort + partitioning), ns per node (fastest repetition)\n\n");
    std::printf("%-20s %9s %9s %10s %8s %8s %10s %9s %10s\n", "shape", "nodes", "edges", "partitions", "build",
                "order", "partition", "total", "vs 1k");
    for (const auto& r : results) {
        auto first = std::find_if(results.begin(), results.end(), [&](const result& x) { return x.shape == r.shape; });
        std::printf("%-20s %9u %9zu %10zu %8.1f %8.1f %10.1f %9.1f %9.2fx\n", r.shape.c_str(), r.nodes, r.edges,
                    r.partitions, r.build_ns, r.order_ns, r.partition_ns, r.total(), r.total() / first->total());
    }
    std::printf("\n'vs 1k' is total ns/node relative to the same shape at 1,000 nodes (linear growth: about 1x).\n");
    return 0;
}

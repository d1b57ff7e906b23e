// The partitioner on random graphs: both strategies obey every rule; Encore's never adds a false wait and uses
// exactly as many device partitions as there are distinct host-task ancestor sets (the fewest possible without
// false waits), checked against a brute-force computation.
#include <doctest/doctest.h>

#include <random>
#include <set>

#include "graph/error.hpp"
#include "graph/shapes.hpp"
#include "graph/topological_order.hpp"
#include "partitioner/partition.hpp"
#include "partitioner/partition_quality.hpp"
#include "support/test_graphs.hpp"

using namespace encore;

namespace {
// Host tasks at random positions, with probability 1/every.
graph random_graph(std::uint32_t nodes, std::uint32_t window, std::uint32_t every, std::uint64_t seed,
                   bool check_cycles = false) {
    std::mt19937_64 random(seed * 7919);
    std::vector<bool> host(nodes);
    for (auto&& h : host) h = random() % every == 0;
    return shapes::random_dag(nodes, {.make_command = [&](std::uint32_t i) -> command {
                                          if (host[i]) return testing::make_host_task();
                                          return empty_command{};
                                      },
                                      .edges_per_node = static_cast<std::uint32_t>(1 + seed % 4),
                                      .window = window,
                                      .seed = seed,
                                      .check_cycles = check_cycles});
}

// The set of host tasks each node depends on, by brute force.
std::size_t distinct_device_ancestor_sets(const graph& g) {
    const auto& s = g.boost_graph();
    auto order = topological_order(g);
    std::vector<std::set<std::uint32_t>> ancestors(g.size());
    std::set<std::set<std::uint32_t>> distinct;
    for (auto v : order) {
        for (auto u : boost::make_iterator_range(boost::inv_adjacent_vertices(v, s))) {
            ancestors[v].insert(ancestors[u].begin(), ancestors[u].end());
            if (g.kind(g.node_at(u)) == command_kind::host_task) ancestors[v].insert(u);
        }
        if (g.kind(g.node_at(v)) != command_kind::host_task) distinct.insert(ancestors[v]);
    }
    return distinct.size();
}
} // namespace

TEST_CASE("random graphs: rules hold, no false waits, fewest partitions without false waits") {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        CAPTURE(seed);
        auto g = random_graph(300, 5 + seed % 40, 3 + seed % 12, seed);
        auto order = topological_order(g, seed % 2 ? order_strategy::breadth_first : order_strategy::reverse_depth_first);
        auto encore_parts = partition_graph(g, order);
        auto walk_parts = partition_graph(g, order, partition_strategy::design_walk);
        check_partition_rules(g, encore_parts);
        check_partition_rules(g, walk_parts);
        CHECK(count_false_waits(g, encore_parts) == 0);

        std::size_t host_tasks = 0;
        for (auto& p : encore_parts.partitions) host_tasks += p.host_task;
        CHECK(encore_parts.partitions.size() - host_tasks == distinct_device_ancestor_sets(g));
    }
}

TEST_CASE("random graphs with random extra edges added by make_edge") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        auto g = random_graph(200, 30, 5, seed, /*check_cycles=*/true);
        std::mt19937_64 random(seed);
        for (int i = 0; i < 100; ++i) {
            auto a = g.node_at(random() % g.size()), b = g.node_at(random() % g.size());
            try {
                g.make_edge(a, b);
            } catch (const error&) {
            } // self, duplicate and cycle edges are refused; the graph is unchanged
        }
        auto order = topological_order(g);
        for (auto strategy : {partition_strategy::host_task_ancestry, partition_strategy::design_walk})
            check_partition_rules(g, partition_graph(g, order, strategy));
        CHECK(count_false_waits(g, partition_graph(g, order)) == 0);
    }
}

TEST_CASE("many host tasks (past the exact-ancestry limit) still give valid partitions") {
    // 40,000 nodes, every second one a host task: 20,000 host tasks > 16,384, so keys stay unpruned.
    auto g = shapes::random_dag(40'000, {.host_task_every = 2, .edges_per_node = 3, .window = 20, .seed = 3});
    auto order = topological_order(g);
    auto parts = partition_graph(g, order);
    check_partition_rules(g, parts);
}

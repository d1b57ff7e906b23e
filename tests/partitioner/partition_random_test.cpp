// The partitioner on random graphs: both strategies obey every rule; Encore's groups are exactly the
// (layer, latest host task of the layer below) classes, checked against a brute-force computation, and it adds no false
// wait where host tasks form a chain or sit in independent branches.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "encore/graph/error.hpp"
#include "encore/graph/shapes.hpp"
#include "encore/graph/topological_order.hpp"
#include "encore/partitioner/partition.hpp"
#include "encore/partitioner/partition_quality.hpp"
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

bool is_host(const graph& g, std::uint32_t v) { return g.kind(g.node_at(v)) == command_kind::host_task; }

// Brute force: each node's layer (most host tasks on a path to it) and its host-task ancestors.
struct ancestry {
    std::vector<std::uint32_t> layer;
    std::vector<std::set<std::uint32_t>> host_ancestors;
};
ancestry brute_force(const graph& g) {
    const auto& s = g.boost_graph();
    ancestry a{std::vector<std::uint32_t>(g.size(), 0), std::vector<std::set<std::uint32_t>>(g.size())};
    for (auto v : topological_order(g))
        for (auto u : boost::make_iterator_range(boost::inv_adjacent_vertices(v, s))) {
            a.layer[v] = std::max(a.layer[v], a.layer[u] + (is_host(g, u) ? 1 : 0));
            a.host_ancestors[v].insert(a.host_ancestors[u].begin(), a.host_ancestors[u].end());
            if (is_host(g, u)) a.host_ancestors[v].insert(u);
        }
    return a;
}

// The (layer, latest host task of layer - 1 it depends on, by position in `order`) class of each device node.
std::map<std::uint32_t, std::pair<std::uint32_t, std::int64_t>> classes(const graph& g,
                                                                        const std::vector<std::uint32_t>& order) {
    auto a = brute_force(g);
    std::vector<std::int64_t> position(g.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    std::map<std::uint32_t, std::pair<std::uint32_t, std::int64_t>> out;
    for (std::uint32_t v = 0; v < g.size(); ++v) {
        if (is_host(g, v)) continue;
        std::int64_t latest = -1;
        for (auto h : a.host_ancestors[v])
            if (a.layer[h] + 1 == a.layer[v]) latest = std::max(latest, position[h]);
        out[v] = {a.layer[v], latest};
    }
    return out;
}
// Two device nodes share a partition exactly when they share a class (`classes`: device node -> its class).
template <typename Class>
void check_groups_are_classes(const std::map<std::uint32_t, Class>& classes, const partitioning& parts) {
    std::map<Class, std::uint32_t> partition_of_class;
    std::set<std::uint32_t> device_partitions;
    for (const auto& [v, c] : classes) {
        auto [it, inserted] = partition_of_class.try_emplace(c, parts.partition_of[v]);
        CHECK(it->second == parts.partition_of[v]);
        device_partitions.insert(parts.partition_of[v]);
    }
    CHECK(device_partitions.size() == partition_of_class.size());
}
} // namespace

TEST_CASE("random graphs: rules hold and Encore's groups are exactly the layer classes") {
    int index_ordered = 0, reordered = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        CAPTURE(seed);
        auto g = random_graph(300, 5 + seed % 40, 3 + seed % 12, seed, /*check_cycles=*/true);
        if (seed % 3 == 0) {
            // Edges from later to earlier nodes: index order is no longer topological, so the partitioner walks
            // `order` instead of index order. Both walks must give the same classes.
            std::mt19937_64 random(seed);
            for (int i = 0; i < 60; ++i) {
                auto a = g.node_at(random() % g.size()), b = g.node_at(random() % g.size());
                if (a.index > b.index && !g.has_edge(a, b)) try {
                        g.make_edge(a, b);
                    } catch (const error&) { // would close a cycle; the graph is unchanged
                    }
            }
        }
        (compact_adjacency(g).index_order_is_topological() ? index_ordered : reordered)++;
        auto order = topological_order(g, seed % 2 ? order_strategy::breadth_first : order_strategy::reverse_depth_first);
        auto parts = partition_graph(g, order);
        check_partition_rules(g, parts);
        check_partition_rules(g, partition_graph(g, order, partition_strategy::design_walk));

        check_groups_are_classes(classes(g, order), parts);
    }
    CHECK(index_ordered > 0);
    CHECK(reordered > 0);
}

TEST_CASE("no false waits when host tasks form a chain") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        auto g = random_graph(400, 40, 8, seed, /*check_cycles=*/true);
        // Chain the host tasks in index order: each later one now depends on every earlier one.
        std::vector<node> hosts;
        for (auto n : g.nodes())
            if (g.kind(n) == command_kind::host_task) hosts.push_back(n);
        for (std::size_t i = 1; i < hosts.size(); ++i)
            if (!g.has_edge(hosts[i - 1], hosts[i])) g.make_edge(hosts[i - 1], hosts[i]);
        auto parts = partition_graph(g, topological_order(g));
        check_partition_rules(g, parts);
        CHECK(count_false_waits(g, parts) == 0);
    }
}

TEST_CASE("no false waits between independent branches, each with its own host tasks") {
    graph g;
    for (std::uint64_t branch = 0; branch < 6; ++branch) {
        auto sub = random_graph(120, 20, 6, branch + 1);
        std::uint32_t base = static_cast<std::uint32_t>(g.size());
        for (std::uint32_t v = 0; v < sub.size(); ++v) {
            std::vector<node> deps;
            for (auto p : sub.predecessors(sub.node_at(v))) deps.push_back(g.node_at(base + p.index));
            g.add(sub.command_at(sub.node_at(v)), deps);
        }
        // Chain this branch's host tasks so that, within the branch, no wait is false either.
        std::vector<node> hosts;
        for (std::uint32_t v = base; v < g.size(); ++v)
            if (is_host(g, v)) hosts.push_back(g.node_at(v));
        for (std::size_t i = 1; i < hosts.size(); ++i)
            if (!g.has_edge(hosts[i - 1], hosts[i])) g.make_edge(hosts[i - 1], hosts[i]);
    }
    auto order = topological_order(g);
    auto parts = partition_graph(g, order);
    check_partition_rules(g, parts);
    CHECK(count_false_waits(g, parts) == 0);
    CHECK(count_false_waits(g, partition_graph(g, order, partition_strategy::design_walk)) > 0);
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
        for (auto strategy : {partition_strategy::host_task_layers, partition_strategy::design_walk})
            check_partition_rules(g, partition_graph(g, order, strategy));
    }
}

TEST_CASE("many host tasks still give valid partitions") {
    auto g = shapes::random_dag(40'000, {.host_task_every = 2, .edges_per_node = 3, .window = 20, .seed = 3});
    check_partition_rules(g, partition_graph(g, topological_order(g)));
}

namespace {
// Brute force for multi-device graphs: an edge u -> v is a cut ("crossing") when u is a host task or u and v
// are device nodes of two devices. A device node's class is (layer, the latest crossing edge's tail of the layer
// below that reaches it, its device).
std::map<std::uint32_t, std::tuple<std::uint32_t, std::int64_t, std::uint32_t>>
multi_device_classes(const graph& g, const std::vector<std::uint32_t>& order) {
    const auto& s = g.boost_graph();
    std::vector<std::uint32_t> layer(g.size(), 0);
    std::vector<std::set<std::uint32_t>> tails(g.size());
    auto crossing = [&](std::uint32_t u, std::uint32_t v) {
        return is_host(g, u) || (!is_host(g, v) && s[u].device_slot != s[v].device_slot);
    };
    for (auto v : topological_order(g))
        for (auto u : boost::make_iterator_range(boost::inv_adjacent_vertices(v, s))) {
            const auto from = static_cast<std::uint32_t>(u);
            layer[v] = std::max(layer[v], layer[from] + (crossing(from, v) ? 1 : 0));
            tails[v].insert(tails[from].begin(), tails[from].end());
            if (crossing(from, v)) tails[v].insert(from);
        }
    std::vector<std::int64_t> position(g.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    std::map<std::uint32_t, std::tuple<std::uint32_t, std::int64_t, std::uint32_t>> out;
    for (std::uint32_t v = 0; v < g.size(); ++v) {
        if (is_host(g, v)) continue;
        std::int64_t latest = -1;
        for (auto t : tails[v])
            if (layer[t] + 1 == layer[v]) latest = std::max(latest, position[t]);
        out[v] = {layer[v], latest, s[v].device_slot};
    }
    return out;
}
} // namespace

TEST_CASE("random multi-device graphs: rules hold, and groups are exactly the (layer, latest cut, device) classes") {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        CAPTURE(seed);
        auto g = random_graph(300, 5 + seed % 40, 5 + seed % 12, seed);
        std::mt19937_64 random(seed * 31);
        const std::uint32_t devices = 2 + seed % 3;
        // Long runs on one device (as real programs place their work), with switches now and then.
        std::uint32_t slot = 0;
        for (std::uint32_t v = 0; v < g.size(); ++v) {
            if (random() % (1 + seed % 20) == 0) slot = static_cast<std::uint32_t>(random() % devices);
            g.set_device_slot(g.node_at(v), slot);
        }
        auto order = topological_order(g, seed % 2 ? order_strategy::breadth_first : order_strategy::reverse_depth_first);
        auto parts = partition_graph(g, order);
        check_partition_rules(g, parts); // includes: one device per partition, no false waits, a DAG

        check_groups_are_classes(multi_device_classes(g, order), parts);
    }
}

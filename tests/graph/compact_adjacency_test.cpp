// compact_adjacency: the flat copy of a graph's edges agrees with the graph, in Boost's edge order.
#include <doctest/doctest.h>

#include "encore/graph/compact_adjacency.hpp"
#include "encore/graph/shapes.hpp"
#include "support/test_graphs.hpp"

using namespace encore;

TEST_CASE("successors and predecessors match the graph on random graphs") {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        auto g = shapes::random_dag(500, {.host_task_every = 7, .window = 40, .seed = seed});
        compact_adjacency a(g);
        REQUIRE(a.size() == g.size());
        std::size_t edges = 0;
        for (std::uint32_t v = 0; v < g.size(); ++v) {
            std::vector<std::uint32_t> succ, pred;
            for (auto n : g.successors(g.node_at(v))) succ.push_back(n.index);
            for (auto n : g.predecessors(g.node_at(v))) pred.push_back(n.index);
            CHECK(std::vector<std::uint32_t>(a.successors(v).begin(), a.successors(v).end()) == succ);
            CHECK(std::vector<std::uint32_t>(a.predecessors(v).begin(), a.predecessors(v).end()) == pred);
            CHECK(a.is_host_task(v) == (g.kind(g.node_at(v)) == command_kind::host_task));
            edges += succ.size();
        }
        CHECK(edges == g.edge_count());
    }
}

TEST_CASE("an empty graph") {
    compact_adjacency a{graph{}};
    CHECK(a.size() == 0);
}

TEST_CASE("reserve does not change the graph") {
    graph g;
    auto a = g.add(empty_command{});
    g.reserve(1000);
    auto b = g.add(empty_command{}, {a});
    CHECK(g.size() == 2);
    CHECK(g.has_edge(a, b));
}

TEST_CASE("index order is topological until an edge goes back to an earlier node") {
    CHECK(compact_adjacency{graph{}}.index_order_is_topological());
    graph g;
    auto a = g.add(empty_command{});
    auto b = g.add(empty_command{}, {a});
    auto c = g.add(empty_command{});
    CHECK(compact_adjacency(g).index_order_is_topological());
    g.make_edge(b, c); // forward: still index-ordered
    CHECK(compact_adjacency(g).index_order_is_topological());
    auto d = g.add(empty_command{});
    g.make_edge(d, a); // 3 -> 0
    CHECK_FALSE(compact_adjacency(g).index_order_is_topological());
}

// topological_order: validity, determinism, the two strategies, and cycles in unchecked graphs.
#include <doctest/doctest.h>

#include "encore/graph/error.hpp"
#include "encore/graph/shapes.hpp"
#include "encore/graph/topological_order.hpp"

using namespace encore;

namespace {
void check_is_topological(const graph& g, const std::vector<std::uint32_t>& order) {
    REQUIRE(order.size() == g.size());
    std::vector<std::uint32_t> position(g.size(), UINT32_MAX);
    for (std::uint32_t i = 0; i < order.size(); ++i) {
        REQUIRE(order[i] < g.size());
        REQUIRE(position[order[i]] == UINT32_MAX);
        position[order[i]] = i;
    }
    const auto& s = g.boost_graph();
    for (auto e : boost::make_iterator_range(boost::edges(s)))
        REQUIRE(position[boost::source(e, s)] < position[boost::target(e, s)]);
}
} // namespace

TEST_CASE("both strategies give valid orders on every shape") {
    for (auto strategy : {order_strategy::reverse_depth_first, order_strategy::breadth_first}) {
        check_is_topological(shapes::chain(500), topological_order(shapes::chain(500), strategy));
        auto fan = shapes::fan_out_in(300);
        check_is_topological(fan, topological_order(fan, strategy));
        auto wave = shapes::wavefront(20, 15);
        check_is_topological(wave, topological_order(wave, strategy));
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            auto g = shapes::random_dag(400, {.window = 50, .seed = seed});
            check_is_topological(g, topological_order(g, strategy));
        }
    }
}

TEST_CASE("reverse depth-first keeps a chain's branches together; breadth-first goes level by level") {
    // 0 -> 1 -> 2 and 0 -> 3 -> 4
    graph g;
    auto n0 = g.add(empty_command{});
    auto n1 = g.add(empty_command{}, {n0});
    g.add(empty_command{}, {n1});
    auto n3 = g.add(empty_command{}, {n0});
    g.add(empty_command{}, {n3});
    CHECK(topological_order(g) == std::vector<std::uint32_t>{0, 3, 4, 1, 2});
    CHECK(topological_order(g, order_strategy::breadth_first) == std::vector<std::uint32_t>{0, 1, 3, 2, 4});
}

TEST_CASE("the order is deterministic") {
    auto a = shapes::random_dag(2000, {.seed = 9});
    auto b = shapes::random_dag(2000, {.seed = 9});
    CHECK(topological_order(a) == topological_order(b));
    CHECK(topological_order(a, order_strategy::breadth_first) == topological_order(b, order_strategy::breadth_first));
}

TEST_CASE("a million-node chain does not exhaust the stack") {
    auto g = shapes::chain(1'000'000);
    auto order = topological_order(g);
    CHECK(order.front() == 0);
    CHECK(order.back() == 999'999);
}

TEST_CASE("a cycle in a graph built without cycle checks is reported by name") {
    graph g(graph_options{.check_cycles = false});
    auto a = g.add(empty_command{});
    auto b = g.add(empty_command{}, {a});
    auto c = g.add(empty_command{}, {b});
    g.make_edge(c, b);
    for (auto strategy : {order_strategy::reverse_depth_first, order_strategy::breadth_first}) {
        try {
            (void)topological_order(g, strategy);
            FAIL("cycle not reported");
        } catch (const error& e) {
            CHECK(e.code() == errc::cycle);
            CHECK(std::string(e.what()).find("node 1 (empty) -> node 2 (empty) -> node 1") != std::string::npos);
        }
    }
}

TEST_CASE("an empty graph has an empty order") { CHECK(topological_order(graph{}).empty()); }

// encore::graph: adding nodes and edges, the queries, and every misuse error leaving the graph unchanged.
#include <doctest/doctest.h>

#include <algorithm>

#include "encore/graph/error.hpp"
#include "encore/graph/graph.hpp"
#include "support/error_code.hpp"
#include "support/test_graphs.hpp"

using namespace encore;
using encore::testing::code_of;
using encore::testing::make_host_task;
using encore::testing::make_kernel;

namespace {
std::vector<std::uint32_t> indices(const std::vector<node>& nodes) {
    std::vector<std::uint32_t> out;
    for (auto n : nodes) out.push_back(n.index);
    return out;
}
} // namespace

TEST_CASE("nodes are numbered in the order they are added and keep their commands") {
    graph g;
    auto a = g.add(make_kernel("a"));
    auto b = g.add(memset_command{testing::fake_pointer(0x10), 0, 4}, {a});
    auto c = g.add(make_host_task(), {a, b});
    CHECK(a.index == 0);
    CHECK(b.index == 1);
    CHECK(c.index == 2);
    CHECK(g.size() == 3);
    CHECK(g.edge_count() == 3);
    CHECK(g.kind(a) == command_kind::kernel);
    CHECK(g.kind(b) == command_kind::memset);
    CHECK(g.kind(c) == command_kind::host_task);
    CHECK(std::get<kernel_command>(g.command_at(a)).kernel->name() == "a");
}

TEST_CASE("roots, leaves, successors and predecessors") {
    graph g;
    auto a = g.add(empty_command{});
    auto b = g.add(empty_command{});
    auto c = g.add(empty_command{}, {a, b});
    auto d = g.add(empty_command{}, {c});
    auto e = g.add(empty_command{}, {c});
    CHECK(indices(g.roots()) == std::vector<std::uint32_t>{0, 1});
    CHECK(indices(g.leaves()) == std::vector<std::uint32_t>{3, 4});
    CHECK(indices(g.successors(c)) == std::vector<std::uint32_t>{d.index, e.index});
    CHECK(indices(g.predecessors(c)) == std::vector<std::uint32_t>{a.index, b.index});
    CHECK(g.has_edge(a, c));
    CHECK_FALSE(g.has_edge(c, a));
}

TEST_CASE("duplicate dependencies in add count once") {
    graph g;
    auto a = g.add(empty_command{});
    g.add(empty_command{}, {a, a, a});
    CHECK(g.edge_count() == 1);
}

TEST_CASE("make_edge rejects misuse and leaves the graph unchanged") {
    graph g;
    auto a = g.add(empty_command{});
    auto b = g.add(empty_command{}, {a});
    auto c = g.add(empty_command{}, {b});
    graph other;
    auto foreign = other.add(empty_command{});
    const auto edges_before = g.edge_count();

    SUBCASE("self edge") { CHECK(code_of([&] { g.make_edge(a, a); }) == errc::self_edge); }
    SUBCASE("duplicate edge") { CHECK(code_of([&] { g.make_edge(a, b); }) == errc::duplicate_edge); }
    SUBCASE("node of another graph") {
        CHECK(code_of([&] { g.make_edge(a, foreign); }) == errc::foreign_node);
        CHECK(code_of([&] { g.make_edge(foreign, a); }) == errc::foreign_node);
    }
    SUBCASE("default-constructed handle") { CHECK(code_of([&] { g.make_edge(node{}, a); }) == errc::foreign_node); }
    SUBCASE("unknown node") {
        CHECK(code_of([&] { g.make_edge(a, node{g.id(), 17}); }) == errc::unknown_node);
    }
    SUBCASE("cycle") { CHECK(code_of([&] { g.make_edge(c, a); }) == errc::cycle); }
    SUBCASE("dependency of another graph in add") {
        CHECK(code_of([&] { g.add(empty_command{}, {foreign}); }) == errc::foreign_node);
        CHECK(g.size() == 3);
    }
    CHECK(g.edge_count() == edges_before);
    CHECK(g.size() == 3);
}

TEST_CASE("a rejected cycle names every node on it") {
    graph g;
    auto a = g.add(make_kernel("first"));
    auto b = g.add(empty_command{}, {a});
    auto c = g.add(make_host_task(), {b});
    try {
        g.make_edge(c, a);
        FAIL("cycle accepted");
    } catch (const error& e) {
        std::string what = e.what();
        CHECK(e.code() == errc::cycle);
        CHECK(what.find("node 0 (kernel 'first') -> node 1 (empty) -> node 2 (host_task) -> node 0") !=
              std::string::npos);
    }
}

TEST_CASE("make_edge accepts edges that keep the graph acyclic") {
    graph g;
    auto a = g.add(empty_command{});
    auto b = g.add(empty_command{});
    auto c = g.add(empty_command{}, {a});
    g.make_edge(b, c);
    g.make_edge(a, b);
    CHECK(g.edge_count() == 3);
    CHECK(indices(g.roots()) == std::vector<std::uint32_t>{0});
}

TEST_CASE("the cycle check can be switched off per graph") {
    graph g(graph_options{.check_cycles = false});
    auto a = g.add(empty_command{});
    auto b = g.add(empty_command{}, {a});
    g.make_edge(b, a); // accepted; topological_order() reports it (see its tests)
    CHECK(g.edge_count() == 2);
    CHECK(code_of([&] { g.make_edge(a, a); }) == errc::self_edge);
    CHECK(code_of([&] { g.make_edge(a, b); }) == errc::duplicate_edge);
}

TEST_CASE("queries with bad handles throw") {
    graph g;
    g.add(empty_command{});
    CHECK(code_of([&] { (void)g.successors(node{g.id(), 5}); }) == errc::unknown_node);
    CHECK(code_of([&] { (void)g.kind(node{}); }) == errc::foreign_node);
    CHECK(code_of([&] { (void)g.node_at(1); }) == errc::unknown_node);
    CHECK(g.node_at(0) == node{g.id(), 0});
}

TEST_CASE("a copy is a separate graph") {
    graph g;
    auto a = g.add(empty_command{});
    graph copy = g;
    CHECK(copy.size() == 1);
    CHECK(copy.id() != g.id());
    CHECK(code_of([&] { copy.add(empty_command{}, {a}); }) == errc::foreign_node);
    copy.add(empty_command{}, {copy.node_at(0)});
    CHECK(g.size() == 1);
}

TEST_CASE("a copy has the same commands, and every node the same successors in the same order") {
    graph g;
    std::vector<node> n;
    for (int i = 0; i < 6; ++i) n.push_back(g.add(memset_command{testing::fake_pointer(0x10), i, 8}));
    g.make_edge(n[0], n[4]); // successors out of index order, edges made after the nodes
    g.make_edge(n[0], n[2]);
    g.make_edge(n[3], n[2]);
    g.make_edge(n[1], n[2]);
    g.make_edge(n[2], n[5]);
    auto last = g.add(empty_command{}, {n[5], n[4]});
    graph copy = g;
    REQUIRE(copy.size() == g.size());
    CHECK(copy.edge_count() == g.edge_count());
    auto indices = [](const std::vector<node>& nodes) {
        std::vector<std::uint32_t> out;
        for (auto x : nodes) out.push_back(x.index);
        return out;
    };
    auto sorted = [](std::vector<std::uint32_t> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    for (std::uint32_t v = 0; v < g.size(); ++v) {
        CHECK(indices(copy.successors(copy.node_at(v))) == indices(g.successors(g.node_at(v))));
        CHECK(sorted(indices(copy.predecessors(copy.node_at(v)))) == sorted(indices(g.predecessors(g.node_at(v)))));
        CHECK(copy.kind(copy.node_at(v)) == g.kind(g.node_at(v)));
    }
    CHECK(indices(copy.successors(copy.node_at(0))) == std::vector<std::uint32_t>{4, 2});
    CHECK(std::get<memset_command>(copy.command_at(copy.node_at(3))).value == 3);
    CHECK(copy.kind(copy.node_at(last.index)) == command_kind::empty);
    graph assigned;
    assigned.add(empty_command{});
    assigned = g;
    CHECK(assigned.edge_count() == g.edge_count());
    CHECK(indices(assigned.predecessors(assigned.node_at(last.index))) == std::vector<std::uint32_t>{4, 5});
}

TEST_CASE("replace_command keeps the kind") {
    graph g;
    auto a = g.add(memset_command{testing::fake_pointer(0x10), 1, 8});
    g.replace_command(a, memset_command{testing::fake_pointer(0x20), 2, 8});
    CHECK(std::get<memset_command>(g.command_at(a)).value == 2);
    CHECK(code_of([&] { g.replace_command(a, empty_command{}); }) == errc::invalid_argument);
    CHECK(std::get<memset_command>(g.command_at(a)).value == 2);
}

TEST_CASE("a moved graph keeps its nodes and identity; the moved-from graph is empty and new") {
    graph g;
    auto a = g.add(empty_command{});
    g.add(empty_command{}, {a});
    const auto id = g.id();
    const command* stored = &g.command_at(a);
    graph moved = std::move(g);
    CHECK(moved.size() == 2);
    CHECK(moved.id() == id);
    CHECK(moved.has_edge(a, moved.node_at(1)));
    CHECK(&moved.command_at(a) == stored); // moved, not copied (Boost's own swap copies the graph three times)
    CHECK(g.size() == 0); // NOLINT(bugprone-use-after-move): the state after a move is specified here
    CHECK(g.edge_count() == 0);
    CHECK(g.roots().empty());
    CHECK(g.id() != id);
    CHECK(code_of([&] { g.add(empty_command{}, {a}); }) == errc::foreign_node);
    graph assigned;
    assigned.add(empty_command{});
    assigned = std::move(moved);
    CHECK(assigned.size() == 2);
    CHECK(assigned.id() == id);
    CHECK(&assigned.command_at(a) == stored);
}

TEST_CASE("a moved-from graph can be copied and built again") {
    graph g;
    g.add(empty_command{});
    graph moved = std::move(g);
    graph copy = g; // NOLINT(bugprone-use-after-move)
    CHECK(copy.size() == 0);
    auto x = g.add(empty_command{});
    auto y = g.add(empty_command{}, {x});
    g.make_edge(g.add(empty_command{}), y);
    CHECK(g.size() == 3);
    CHECK(g.edge_count() == 2);
    CHECK(g.predecessors(y).size() == 2);
    graph other;
    other = std::move(moved);
    CHECK(other.size() == 1);
}

TEST_CASE("nodes with more edges than are kept inline: queries, has_edge both ways, copies") {
    // A node keeps its first few edges inside itself (graph/detail/small_edge_list.hpp); more go to the heap.
    graph g;
    std::vector<node> before, after;
    for (int i = 0; i < 10; ++i) before.push_back(g.add(empty_command{}));
    auto hub = g.add(empty_command{}, before);
    for (int i = 0; i < 10; ++i) after.push_back(g.add(empty_command{}, {hub}));
    auto extra = g.add(empty_command{});
    g.make_edge(hub, extra);
    CHECK(g.predecessors(hub) == before);
    CHECK(g.successors(hub).size() == 11);
    CHECK(g.successors(hub).back() == extra);
    for (auto b : before) {
        CHECK(g.has_edge(b, hub));  // source has fewer out-edges than hub has in-edges
        CHECK_FALSE(g.has_edge(hub, b));
    }
    for (auto a : after) CHECK(g.has_edge(hub, a)); // hub has more out-edges than a has in-edges
    CHECK_FALSE(g.has_edge(before[0], after[0]));
    CHECK(code_of([&] { g.make_edge(before[3], hub); }) == errc::duplicate_edge);
    graph copy = g;
    CHECK(copy.edge_count() == g.edge_count());
    for (auto a : after) CHECK(copy.has_edge(copy.node_at(hub.index), copy.node_at(a.index)));
    CHECK(copy.predecessors(copy.node_at(hub.index)).size() == 10);
}

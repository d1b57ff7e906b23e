// topology_difference: same node count, kinds in the same order, same edges; the first difference is named.
#include <doctest/doctest.h>

#include "encore/graph/error.hpp"
#include "encore/graph/topology.hpp"
#include "support/test_graphs.hpp"

using namespace encore;
using encore::testing::make_kernel;

namespace {
graph two_kernels_and_copy(const char* name) {
    graph g;
    auto a = g.add(make_kernel(name));
    auto b = g.add(make_kernel(name));
    g.add(memcpy_command{testing::fake_pointer(0x10), testing::fake_pointer(0x20), 8}, {a, b});
    return g;
}
} // namespace

TEST_CASE("graphs of the same shape match, whatever their payloads") {
    CHECK_FALSE(topology_difference(two_kernels_and_copy("x"), two_kernels_and_copy("y")).has_value());
    CHECK_NOTHROW(require_same_topology(two_kernels_and_copy("x"), two_kernels_and_copy("y")));
}

TEST_CASE("node count differs") {
    auto a = two_kernels_and_copy("x");
    auto b = two_kernels_and_copy("x");
    b.add(empty_command{});
    CHECK(*topology_difference(a, b) == "the graphs have 3 and 4 nodes");
}

TEST_CASE("node kind differs") {
    graph a, b;
    a.add(make_kernel("k"));
    b.add(empty_command{});
    CHECK(*topology_difference(a, b) == "node 0 is a kernel command in one graph and a empty command in the other");
}

TEST_CASE("edges differ: count, then targets") {
    graph a, b;
    auto a0 = a.add(empty_command{}), a1 = a.add(empty_command{}), a2 = a.add(empty_command{});
    auto b0 = b.add(empty_command{}), b1 = b.add(empty_command{}), b2 = b.add(empty_command{});
    a.make_edge(a0, a1);
    CHECK(*topology_difference(a, b) == "the graphs have 1 and 0 edges");
    b.make_edge(b0, b2);
    CHECK(*topology_difference(a, b) == "node 0 has successors {1} in one graph and {2} in the other");
    (void)a2;
    (void)b1;
    try {
        require_same_topology(a, b);
        FAIL("mismatch accepted");
    } catch (const error& e) {
        CHECK(e.code() == errc::topology_mismatch);
    }
}

TEST_CASE("edge order of insertion does not matter") {
    graph a, b;
    auto a0 = a.add(empty_command{}), a1 = a.add(empty_command{}), a2 = a.add(empty_command{});
    auto b0 = b.add(empty_command{}), b1 = b.add(empty_command{}), b2 = b.add(empty_command{});
    a.make_edge(a0, a1);
    a.make_edge(a0, a2);
    b.make_edge(b0, b2);
    b.make_edge(b0, b1);
    CHECK_FALSE(topology_difference(a, b).has_value());
}

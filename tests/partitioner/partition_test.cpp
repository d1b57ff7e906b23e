// The partitioner on the design's examples: host tasks alone, the make_edge(E, HT1) merge, multi-root branches
// that run concurrently, and the in-order hint. Both strategies must obey the rules; Encore's must add no wait.
#include <doctest/doctest.h>

#include <algorithm>

#include "encore/graph/topological_order.hpp"
#include "encore/partitioner/partition.hpp"
#include "encore/partitioner/partition_quality.hpp"
#include "support/test_graphs.hpp"

using namespace encore;
using encore::testing::make_host_task;
using encore::testing::make_kernel;

namespace {
constexpr partition_strategy both[] = {partition_strategy::host_task_layers, partition_strategy::design_walk};

partitioning partitions_of(const graph& g, partition_strategy strategy = partition_strategy::host_task_layers) {
    auto order = topological_order(g);
    auto parts = partition_graph(g, order, strategy);
    check_partition_rules(g, parts);
    return parts;
}

// The partitions as lists of node indices (sorted within each), in partition order.
std::vector<std::vector<std::uint32_t>> groups(const partitioning& parts) {
    std::vector<std::vector<std::uint32_t>> out;
    for (const auto& p : parts.partitions) {
        auto nodes = p.nodes;
        std::sort(nodes.begin(), nodes.end());
        out.push_back(nodes);
    }
    return out;
}

// The same, ignoring the partition numbering (any topological numbering is valid; the rules check it).
std::vector<std::vector<std::uint32_t>> sorted_groups(const partitioning& parts) {
    auto out = groups(parts);
    std::sort(out.begin(), out.end());
    return out;
}

// The design's first example: A -> HT0 -> B -> E, and C -> HT1 -> D in a second branch.
struct design_example {
    graph g;
    node a, ht0, b, c, ht1, d, e;
    design_example() {
        a = g.add(make_kernel("A"));
        ht0 = g.add(make_host_task(), {a});
        b = g.add(make_kernel("B"), {ht0});
        c = g.add(make_kernel("C"));
        ht1 = g.add(make_host_task(), {c});
        d = g.add(make_kernel("D"), {ht1});
        e = g.add(make_kernel("E"), {b});
    }
};
} // namespace

TEST_CASE("a graph without host tasks is one in-order-free device partition") {
    graph g;
    auto a = g.add(make_kernel("a"));
    g.add(make_kernel("b"), {a});
    g.add(make_kernel("c"), {a});
    for (auto strategy : both) {
        auto parts = partitions_of(g, strategy);
        REQUIRE(parts.partitions.size() == 1);
        CHECK_FALSE(parts.partitions[0].host_task);
        CHECK_FALSE(parts.partitions[0].in_order);
        CHECK(parts.tails() == std::vector<std::uint32_t>{0});
    }
}

TEST_CASE("an empty graph has no partitions") {
    graph g;
    CHECK(partitions_of(g).partitions.empty());
}

TEST_CASE("a host task splits a chain into before, itself and after") {
    graph g;
    auto a = g.add(make_kernel("a"));
    auto b = g.add(make_kernel("b"), {a});
    auto h = g.add(make_host_task(), {b});
    auto c = g.add(make_kernel("c"), {h});
    g.add(make_kernel("d"), {c});
    for (auto strategy : both) {
        auto parts = partitions_of(g, strategy);
        CHECK(groups(parts) == std::vector<std::vector<std::uint32_t>>{{0, 1}, {2}, {3, 4}});
        CHECK(parts.partitions[1].host_task);
        CHECK(parts.partitions[0].in_order);
        CHECK(parts.partitions[2].in_order);
        CHECK(parts.partitions[2].predecessors == std::vector<std::uint32_t>{1});
        CHECK(parts.partitions[1].predecessors == std::vector<std::uint32_t>{0});
    }
}

TEST_CASE("consecutive host tasks each get a partition") {
    graph g;
    auto h1 = g.add(make_host_task());
    auto h2 = g.add(make_host_task(), {h1});
    g.add(make_kernel("k"), {h2});
    for (auto strategy : both) {
        auto parts = partitions_of(g, strategy);
        CHECK(groups(parts) == std::vector<std::vector<std::uint32_t>>{{0}, {1}, {2}});
    }
}

TEST_CASE("the design's example: Encore groups by host-task layer and the host tasks below") {
    design_example x;
    auto parts = partitions_of(x.g);
    // {A, C} depend on no host task, {B, E} on HT0, {D} on HT1.
    CHECK(sorted_groups(parts) == std::vector<std::vector<std::uint32_t>>{{0, 3}, {1}, {2, 6}, {4}, {5}});
    CHECK(count_false_waits(x.g, parts) == 0);
    // D's partition waits for HT1 only: the two branches' host tasks do not wait for each other.
    CHECK(parts.partitions[parts.partition_of[x.d.index]].predecessors ==
          std::vector<std::uint32_t>{parts.partition_of[x.ht1.index]});
    CHECK(parts.partitions[parts.partition_of[x.ht1.index]].predecessors ==
          std::vector<std::uint32_t>{parts.partition_of[x.a.index]});
}

TEST_CASE("the design's example with make_edge(E, HT1): groups merge so every rule still holds") {
    for (auto strategy : both) {
        design_example x;
        x.g.make_edge(x.e, x.ht1);
        auto parts = partitions_of(x.g, strategy); // checks the rules
        auto part = [&](node n) { return parts.partition_of[n.index]; };
        CHECK(part(x.e) < part(x.ht1));
        CHECK(part(x.ht1) < part(x.d));
        CHECK(part(x.ht0) < part(x.e));
        CHECK(std::binary_search(parts.partitions[part(x.ht1)].predecessors.begin(),
                                 parts.partitions[part(x.ht1)].predecessors.end(), part(x.e)));
        if (strategy == partition_strategy::host_task_layers) {
            // HT1 now depends on HT0 too, so D depends on both; nothing waits for what it does not depend on.
            CHECK(sorted_groups(parts) == std::vector<std::vector<std::uint32_t>>{{0, 3}, {1}, {2, 6}, {4}, {5}});
            CHECK(count_false_waits(x.g, parts) == 0);
        }
    }
}

TEST_CASE("multi-root graph with a host task in each branch: branches run concurrently") {
    // a1 -> HTa -> a2 and b1 -> HTb -> b2
    graph g;
    auto a1 = g.add(make_kernel("a1"));
    auto hta = g.add(make_host_task(), {a1});
    auto a2 = g.add(make_kernel("a2"), {hta});
    auto b1 = g.add(make_kernel("b1"));
    auto htb = g.add(make_host_task(), {b1});
    auto b2 = g.add(make_kernel("b2"), {htb});

    auto parts = partitions_of(g);
    auto part = [&](node n) { return parts.partition_of[n.index]; };
    CHECK(part(a1) == part(b1));
    CHECK(part(a2) != part(b2));
    CHECK(parts.partitions[part(a2)].predecessors == std::vector<std::uint32_t>{part(hta)});
    CHECK(parts.partitions[part(b2)].predecessors == std::vector<std::uint32_t>{part(htb)});
    auto tails = parts.tails();
    CHECK(tails == std::vector<std::uint32_t>{std::min(part(a2), part(b2)), std::max(part(a2), part(b2))});
    CHECK(count_false_waits(g, parts) == 0);

    // The design's walk puts b1 after HTa, so HTb's branch waits for HTa: false waits.
    auto walk = partitions_of(g, partition_strategy::design_walk);
    CHECK(count_false_waits(g, walk) > 0);
}

TEST_CASE("a partition is in-order only when each node depends on the one before it") {
    graph g;
    auto a = g.add(make_kernel("a"));
    auto b = g.add(make_kernel("b"), {a});
    g.add(make_kernel("c"), {a, b});
    CHECK(partitions_of(g).partitions[0].in_order);
    g.add(make_kernel("d"), {a}); // a second branch
    CHECK_FALSE(partitions_of(g).partitions[0].in_order);
    graph single;
    single.add(make_kernel("only"));
    CHECK(partitions_of(single).partitions[0].in_order);
}

TEST_CASE("partition_graph rejects an order that does not cover the graph") {
    graph g;
    g.add(make_kernel("a"));
    std::vector<std::uint32_t> order;
    CHECK_THROWS_AS(partition_graph(g, order), std::invalid_argument);
}

TEST_CASE("check_partition_rules catches a broken partitioning") {
    design_example x;
    auto parts = partitions_of(x.g);
    auto broken = parts;
    broken.partitions[parts.partition_of[x.d.index]].predecessors.clear();
    CHECK_THROWS_AS(check_partition_rules(x.g, broken), std::logic_error);
    broken = parts;
    std::swap(broken.partitions[0], broken.partitions[1]);
    CHECK_THROWS_AS(check_partition_rules(x.g, broken), std::logic_error);
}

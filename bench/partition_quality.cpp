// bench/partition_quality: Encore's partitioner against the design document's walk on random graphs.
//
// For each family, 10 graphs (seeds 1..10) of about 5,000 nodes are partitioned both ways. Printed: partitions
// and false waits (a node made to wait for a host task it does not depend on), summed over the 10 graphs, and
// Encore's share of the walk's figures (below 1.00 is better).
//
//   partition_quality            a table
//   partition_quality --json     {"results": [{"family": str, "nodes": int, "host_tasks": int,
//                                  "encore_partitions": int, "walk_partitions": int,
//                                  "encore_false_waits": int, "walk_false_waits": int}, ...]}
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "encore/graph/shapes.hpp"
#include "encore/graph/topological_order.hpp"
#include "encore/partitioner/partition.hpp"
#include "encore/partitioner/partition_quality.hpp"

namespace {

using namespace encore;

// Host tasks at random positions with probability 1 / every.
command random_command(std::mt19937_64& random, std::uint32_t every) {
    if (random() % every == 0) return host_task_command{[] {}};
    return empty_command{};
}

graph random_family(std::uint32_t window, std::uint32_t every, std::uint64_t seed) {
    std::mt19937_64 random(seed * 977);
    return shapes::random_dag(5000, {.make_command = [&](std::uint32_t) { return random_command(random, every); },
                                     .edges_per_node = 4,
                                     .window = window,
                                     .seed = seed});
}

// `branches` independent random DAGs side by side (a multi-root graph with host tasks in every branch).
graph branches_family(std::uint32_t branches, std::uint64_t seed) {
    graph g;
    for (std::uint32_t b = 0; b < branches; ++b) {
        auto sub = random_family(100, 25, seed * 100 + b);
        auto base = static_cast<std::uint32_t>(g.size());
        for (std::uint32_t v = 0; v < 5000 / branches; ++v) {
            std::vector<node> deps;
            for (auto p : sub.predecessors(sub.node_at(v))) deps.push_back(g.node_at(base + p.index));
            g.add(sub.command_at(sub.node_at(v)), deps);
        }
    }
    return g;
}

graph wavefront_family(std::uint32_t every, std::uint64_t seed) {
    std::mt19937_64 random(seed * 31);
    return shapes::wavefront(70, 70, {.make_command = [&](std::uint32_t) { return random_command(random, every); }});
}

struct family {
    std::string name;
    std::function<graph(std::uint64_t)> make;
};

struct totals {
    std::string family;
    std::uint64_t nodes = 0, host_tasks = 0, encore_partitions = 0, walk_partitions = 0, encore_false_waits = 0,
                  walk_false_waits = 0;
};

double share(std::uint64_t a, std::uint64_t b) { return b == 0 ? (a == 0 ? 1.0 : 1e9) : double(a) / double(b); }

} // namespace

int main(int argc, char** argv) {
    bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
    if (argc > 1 && !json) {
        std::fprintf(stderr, "usage: %s [--json]\n", argv[0]);
        return 2;
    }
    const std::vector<family> families = {
        {"random w=20 ht=1/5", [](std::uint64_t s) { return random_family(20, 5, s); }},
        {"random w=50 ht=1/20", [](std::uint64_t s) { return random_family(50, 20, s); }},
        {"random w=200 ht=1/10", [](std::uint64_t s) { return random_family(200, 10, s); }},
        {"random w=1000 ht=1/100", [](std::uint64_t s) { return random_family(1000, 100, s); }},
        {"4 branches", [](std::uint64_t s) { return branches_family(4, s); }},
        {"16 branches", [](std::uint64_t s) { return branches_family(16, s); }},
        {"wavefront ht=1/50", [](std::uint64_t s) { return wavefront_family(50, s); }},
    };

    std::vector<totals> results;
    for (const auto& f : families) {
        totals t{f.name};
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            auto g = f.make(seed);
            auto order = topological_order(g);
            auto ours = partition_graph(g, order);
            auto walk = partition_graph(g, order, partition_strategy::design_walk);
            check_partition_rules(g, ours);
            check_partition_rules(g, walk);
            t.nodes += g.size();
            for (const auto& p : ours.partitions) t.host_tasks += p.host_task;
            t.encore_partitions += ours.partitions.size();
            t.walk_partitions += walk.partitions.size();
            t.encore_false_waits += count_false_waits(g, ours);
            t.walk_false_waits += count_false_waits(g, walk);
        }
        results.push_back(t);
    }

    if (json) {
        nlohmann::json out = {{"results", nlohmann::json::array()}};
        for (const auto& t : results)
            out["results"].push_back({{"family", t.family},
                                      {"nodes", t.nodes},
                                      {"host_tasks", t.host_tasks},
                                      {"encore_partitions", t.encore_partitions},
                                      {"walk_partitions", t.walk_partitions},
                                      {"encore_false_waits", t.encore_false_waits},
                                      {"walk_false_waits", t.walk_false_waits}});
        std::printf("%s\n", out.dump().c_str());
        return 0;
    }
    std::printf("Partitions and false waits, summed over 10 random graphs per family: Encore vs the design's walk\n\n");
    std::printf("%-24s %7s %6s | %9s %9s %7s | %12s %12s %7s\n", "family", "nodes", "HTs", "parts", "walk", "share",
                "false waits", "walk", "share");
    for (const auto& t : results)
        std::printf("%-24s %7llu %6llu | %9llu %9llu %7.2f | %12llu %12llu %7.3f\n", t.family.c_str(),
                    (unsigned long long)t.nodes, (unsigned long long)t.host_tasks,
                    (unsigned long long)t.encore_partitions, (unsigned long long)t.walk_partitions,
                    share(t.encore_partitions, t.walk_partitions), (unsigned long long)t.encore_false_waits,
                    (unsigned long long)t.walk_false_waits, share(t.encore_false_waits, t.walk_false_waits));
    return 0;
}

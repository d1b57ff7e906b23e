// encore::critical_path — the longest path through a graph when each node takes a given time: the chain of
// nodes that bounds a replay's duration however many threads or streams run the rest.
//
// Longest path in a DAG by node weights: dynamic programming over a topological order (Kahn's), O(V+E). Nodes
// without a time (a negative or NaN entry: never measured) weigh zero. Ties go to the predecessor of lower
// index, so the result is deterministic.
//
//     std::vector<double> ns = encore::node_durations(trace, g.id());   // runtime/profiler.hpp
//     auto path = encore::critical_path(g, ns);    // path.nodes: node indices from a root to a leaf
//     std::printf("%.1f us on the critical path\n", path.total_ns / 1e3);
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "graph.hpp"

namespace encore {

struct critical_path_result {
    std::vector<std::uint32_t> nodes; // in execution order; empty for an empty graph
    double total_ns = 0;              // the sum of their times
};

// `node_ns[v]` is node v's time. Throws encore::error(invalid_argument) when node_ns does not hold one entry
// per node, errc::cycle for a graph built without cycle checks that has one.
critical_path_result critical_path(const graph& g, std::span<const double> node_ns);

} // namespace encore

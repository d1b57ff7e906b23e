// The order in which a graph's nodes are lowered: every node after all of its predecessors.
//
// Two strategies, both deterministic (the same graph always gives the same order):
// - reverse_depth_first (the default, as in the design): reverse post-order of a depth-first search that starts
//   from the nodes in index order. It keeps chains together, which suits in-order lowering.
// - breadth_first: Kahn's algorithm with a FIFO queue; nodes come level by level, which exposes the most
//   independent work early.
// Both are O(V+E). A graph built with cycle checks off may hold a cycle: then errc::cycle is thrown, naming it.
//
//     auto order = encore::topological_order(g);   // std::vector<std::uint32_t> of node indices
#pragma once

#include <cstdint>
#include <vector>

#include "compact_adjacency.hpp"
#include "graph.hpp"

namespace encore {

enum class order_strategy { reverse_depth_first, breadth_first };

std::vector<std::uint32_t> topological_order(const graph& g,
                                             order_strategy strategy = order_strategy::reverse_depth_first);
// The same on a prebuilt compact copy of g's edges (finalize builds one and shares it with the partitioner).
std::vector<std::uint32_t> topological_order(const graph& g, const compact_adjacency& adjacency,
                                             order_strategy strategy = order_strategy::reverse_depth_first);

} // namespace encore

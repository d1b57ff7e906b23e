// Subgraph inlining: the graph an executable graph is built from. Not for you: see
// runtime/executable_graph.hpp.
//
// A subgraph node becomes an empty entry node, the child's nodes (recursively flattened) and an empty exit
// node: the node's predecessors lead to the entry, the entry to the child's roots, the child's leaves to the
// exit and the exit to the node's successors. The entry/exit pair keeps the edge count linear (not roots x
// predecessors) and gives every original node one first and one last flat node. Nodes of one original node
// are contiguous in the flat graph. The partitioner then sees a child's host tasks like any other, and every
// backend runs child nodes as ordinary nodes: no nested launch. O(V+E) over the flat graph; a graph without
// subgraph nodes is its own flat graph (nothing is copied).
//
//     auto flat = flatten(g);
//     flat.of(g);         // the flat graph: g itself when it has no subgraph node
//     flat.nodes_of(3);   // [first, first + count) of original node 3
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "encore/graph/graph.hpp"

namespace encore::detail {

struct flat_graph {
    // The graph with its subgraph nodes inlined; none when it had no subgraph node.
    std::optional<graph> inlined;
    // Original node index -> [first flat index, first + count). Empty when the graph had no subgraph node, in
    // which case flat indices are the original ones.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> span_of;

    // The flat graph of `input`, the graph this was made from.
    const graph& of(const graph& input) const { return inlined ? *inlined : input; }
    graph& of(graph& input) { return inlined ? *inlined : input; }

    std::pair<std::uint32_t, std::uint32_t> nodes_of(std::uint32_t original) const {
        return span_of.empty() ? std::pair{original, 1u} : span_of[original];
    }
};

// Throws encore::error(invalid_argument) when a subgraph contains itself, directly or through others.
flat_graph flatten(const graph& g);

} // namespace encore::detail

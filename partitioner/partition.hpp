// Partitions: how a finalized graph is cut around its host tasks.
//
// A backend runs device work as one executable unit per partition (a CUDA graph, a command buffer, a native task
// list); host tasks run on host threads between them. The rules every partitioning obeys:
// - each host task is alone in its partition; every other node is in exactly one device partition;
// - partition p waits for partition q only when a node of p depends on a node of q (no false ordering), and the
//   partitions form a DAG numbered in topological order: a partition only waits for lower numbers;
// - the nodes of a device partition share one device slot (multi-device graphs, graph::device_slot);
// - `nodes` lists a partition's nodes in execution order; `in_order` says they form a single chain in which each
//   node depends on the one before, a hint that lets backends drop synchronisation inside the partition.
//
//     auto order = encore::topological_order(g);
//     auto parts = encore::partition_graph(g, order);
//     for (auto& p : parts.partitions) launch_after(p.predecessors, p.nodes);
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "encore/graph/compact_adjacency.hpp"
#include "encore/graph/graph.hpp"

namespace encore {

struct partition {
    std::vector<std::uint32_t> nodes;        // node indices, in execution order
    std::vector<std::uint32_t> predecessors; // partitions this one waits for, ascending
    std::vector<std::uint32_t> successors;   // partitions that wait for this one, ascending
    bool host_task = false;
    bool in_order = false;
    // The device slot of every node of a device partition (graph::device_slot): multi-device graphs are cut
    // where an edge goes from one device to another, as around host tasks. 0 for host-task partitions.
    std::uint32_t device_slot = 0;
};

struct partitioning {
    std::vector<partition> partitions;      // numbered in topological order of the partition DAG
    std::vector<std::uint32_t> partition_of; // node index -> partition number

    // Partitions nobody waits for: a launch is complete when all of them are.
    std::vector<std::uint32_t> tails() const;
};

enum class partition_strategy {
    // Encore's: device nodes are grouped by host-task layer and by the latest host task of the layer below that
    // they depend on, so parallel branches do not wait for each other's host tasks. O(V+E); see
    // partitioner/host_task_layers.cpp.
    host_task_layers,
    // The design document's walk, kept as the baseline that bench/partition_quality measures against. Single
    // device only: partition_graph throws feature_not_supported for a graph that uses several device slots.
    design_walk,
};

// `order` must be a topological order of `g` (encore::topological_order).
partitioning partition_graph(const graph& g, std::span<const std::uint32_t> order,
                             partition_strategy strategy = partition_strategy::host_task_layers);
// The same on a prebuilt compact copy of the graph's edges (see finalize).
partitioning partition_graph(const compact_adjacency& adjacency, std::span<const std::uint32_t> order,
                             partition_strategy strategy = partition_strategy::host_task_layers);

namespace detail {
// Shared by both strategies: nodes with equal `group` labels form one partition (host tasks must carry labels of
// their own). Builds the partition DAG, numbers it topologically and sets the in-order hints. O(V+E + P log P).
partitioning build_partitions(const compact_adjacency& a, std::span<const std::uint32_t> order,
                              std::span<const std::uint32_t> group);
std::vector<std::uint32_t> group_by_host_task_layers(const compact_adjacency& a, std::span<const std::uint32_t> order);
std::vector<std::uint32_t> group_by_design_walk(const compact_adjacency& a, std::span<const std::uint32_t> order);

inline bool is_host_task(const graph::storage& s, std::size_t v) {
    return kind_of(s[v].command) == command_kind::host_task;
}
} // namespace detail

} // namespace encore

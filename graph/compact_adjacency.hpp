// encore::compact_adjacency — a graph's edges copied into contiguous arrays (compressed sparse rows).
//
// Boost's adjacency_list keeps each node's edges in their own heap vector: fine for adding nodes, slow to walk
// once a graph outgrows the caches. finalize() copies the edges once, in index order (O(V+E), sequential reads),
// and the topological sort and the partitioner then read two flat arrays. Built for one graph; it does not follow
// later changes to it.
//
//     encore::compact_adjacency adjacency(g);
//     for (auto w : adjacency.successors(v)) ...
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "graph.hpp"

namespace encore {

class compact_adjacency {
public:
    explicit compact_adjacency(const graph& g);

    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(successor_offsets_.size() - 1); }
    std::span<const std::uint32_t> successors(std::uint32_t v) const noexcept {
        return {successors_.data() + successor_offsets_[v], successors_.data() + successor_offsets_[v + 1]};
    }
    std::span<const std::uint32_t> predecessors(std::uint32_t v) const noexcept {
        return {predecessors_.data() + predecessor_offsets_[v], predecessors_.data() + predecessor_offsets_[v + 1]};
    }
    bool is_host_task(std::uint32_t v) const noexcept { return host_task_[v]; }
    // The node's device slot (graph::device_slot); kept only for graphs that use more than slot 0.
    std::uint32_t device_slot(std::uint32_t v) const noexcept { return device_slot_.empty() ? 0 : device_slot_[v]; }
    bool multi_device() const noexcept { return !device_slot_.empty(); }
    // Every edge goes from a lower to a higher index, as in any graph built by add() alone: index order is then a
    // topological order, and the cheapest one to walk (memory order).
    bool index_order_is_topological() const noexcept { return index_order_is_topological_; }

private:
    std::vector<std::uint32_t> successor_offsets_, successors_, predecessor_offsets_, predecessors_;
    std::vector<bool> host_task_;
    std::vector<std::uint32_t> device_slot_; // empty when every node is in slot 0
    bool index_order_is_topological_ = true;
};

} // namespace encore

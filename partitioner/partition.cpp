#include "partition.hpp"

#include "encore/graph/error.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>

namespace encore {

std::vector<std::uint32_t> partitioning::tails() const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t p = 0; p < partitions.size(); ++p)
        if (partitions[p].successors.empty()) out.push_back(p);
    return out;
}

partitioning partition_graph(const compact_adjacency& adjacency, std::span<const std::uint32_t> order,
                             partition_strategy strategy) {
    if (order.size() != adjacency.size())
        throw std::invalid_argument("partition_graph: the order has " + std::to_string(order.size()) +
                                    " nodes, the graph " + std::to_string(adjacency.size()));
    if (strategy == partition_strategy::design_walk && adjacency.multi_device())
        throw error(errc::feature_not_supported,
                    "partition_graph: the design_walk strategy cuts single-device graphs only; this graph places "
                    "nodes on several devices (use host_task_layers)");
    auto group = strategy == partition_strategy::design_walk ? detail::group_by_design_walk(adjacency, order)
                                                             : detail::group_by_host_task_layers(adjacency, order);
    return detail::build_partitions(adjacency, order, group);
}

partitioning partition_graph(const graph& g, std::span<const std::uint32_t> order, partition_strategy strategy) {
    return partition_graph(compact_adjacency(g), order, strategy);
}

namespace detail {

partitioning build_partitions(const compact_adjacency& a, std::span<const std::uint32_t> order,
                              std::span<const std::uint32_t> group) {
    constexpr auto none = std::numeric_limits<std::uint32_t>::max();

    // Dense group numbers in order of first appearance along `order`.
    std::vector<std::uint32_t> dense_of_label;
    std::vector<std::uint32_t> dense(a.size());
    std::vector<std::vector<std::uint32_t>> members;
    for (auto v : order) {
        auto label = group[v];
        if (label >= dense_of_label.size()) dense_of_label.resize(label + 1, none);
        if (dense_of_label[label] == none) {
            dense_of_label[label] = static_cast<std::uint32_t>(members.size());
            members.emplace_back();
        }
        dense[v] = dense_of_label[label];
        members[dense[v]].push_back(v);
    }
    const auto count = static_cast<std::uint32_t>(members.size());

    // Group DAG edges, deduplicated with a last-seen mark per target group: O(V+E).
    std::vector<std::vector<std::uint32_t>> successors(count);
    std::vector<std::uint32_t> waiting(count, 0), seen(count, none);
    for (std::uint32_t p = 0; p < count; ++p)
        for (auto v : members[p])
            for (auto w : a.successors(v)) {
                auto q = dense[w];
                if (q == p || seen[q] == p) continue;
                seen[q] = p;
                successors[p].push_back(q);
                ++waiting[q];
            }

    // Kahn's algorithm over groups; a min-heap keeps the numbering deterministic and close to first appearance.
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
    for (std::uint32_t p = 0; p < count; ++p)
        if (waiting[p] == 0) ready.push(p);
    std::vector<std::uint32_t> number(count, none);
    std::uint32_t next = 0;
    while (!ready.empty()) {
        auto p = ready.top();
        ready.pop();
        number[p] = next++;
        for (auto q : successors[p])
            if (--waiting[q] == 0) ready.push(q);
    }
    if (next != count) throw std::logic_error("partitioner produced a cyclic partition graph");

    partitioning result;
    result.partitions.resize(count);
    result.partition_of.resize(a.size());
    for (std::uint32_t p = 0; p < count; ++p) {
        partition& part = result.partitions[number[p]];
        part.nodes = std::move(members[p]);
        part.host_task = part.nodes.size() == 1 && a.is_host_task(part.nodes[0]);
        part.device_slot = part.host_task ? 0 : a.device_slot(part.nodes[0]);
        for (auto q : successors[p]) {
            part.successors.push_back(number[q]);
            result.partitions[number[q]].predecessors.push_back(number[p]);
        }
        for (auto v : part.nodes) result.partition_of[v] = number[p];
    }
    for (auto& part : result.partitions) {
        std::sort(part.predecessors.begin(), part.predecessors.end());
        std::sort(part.successors.begin(), part.successors.end());
        part.in_order = true;
        for (std::size_t i = 0; i + 1 < part.nodes.size() && part.in_order; ++i) {
            auto next = a.successors(part.nodes[i]);
            part.in_order = std::find(next.begin(), next.end(), part.nodes[i + 1]) != next.end();
        }
    }
    return result;
}

} // namespace detail
} // namespace encore

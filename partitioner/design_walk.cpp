// The design document's partitioning walk, kept as the baseline Encore's own partitioner is measured against
// (bench/partition_quality). Not used by finalize() unless asked for.
//
// Host tasks are taken in execution order, each with a fresh pair of group numbers c, c+1, c+2: its predecessors,
// walked back to the previous host task, are pulled into group c; the host task takes c+1; its successors, walked
// forward to the next host task, are pushed into group c+2. Nodes no walk reached join group 0. Edges added with
// make_edge may then point from a later group into an earlier one (the design's make_edge(E, HT1) example): a final
// pass in execution order raises each node to the group of its latest predecessor, one further across a host task,
// which merges the groups concerned. Each walk is bounded by the host tasks around it.
#include <algorithm>
#include <limits>

#include "partition.hpp"

namespace encore::detail {

std::vector<std::uint32_t> group_by_design_walk(const compact_adjacency& a, std::span<const std::uint32_t> order) {
    constexpr auto none = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> group(a.size(), none);
    std::vector<std::uint32_t> stack;
    std::uint32_t c = 0;

    for (auto h : order) {
        if (!a.is_host_task(h)) continue;
        auto before = a.predecessors(h);
        stack.assign(before.begin(), before.end());
        while (!stack.empty()) {
            auto x = stack.back();
            stack.pop_back();
            if (a.is_host_task(x) || (group[x] != none && group[x] <= c)) continue;
            group[x] = c;
            for (auto p : a.predecessors(x)) stack.push_back(p);
        }
        group[h] = c + 1;
        auto after = a.successors(h);
        stack.assign(after.begin(), after.end());
        while (!stack.empty()) {
            auto d = stack.back();
            stack.pop_back();
            if (a.is_host_task(d) || (group[d] != none && group[d] >= c + 2)) continue;
            group[d] = c + 2;
            for (auto w : a.successors(d)) stack.push_back(w);
        }
        c += 2;
    }

    std::uint32_t highest = 0;
    for (auto v : order) {
        if (group[v] == none) group[v] = 0;
        for (auto u : a.predecessors(v)) {
            bool across_host_task = a.is_host_task(u) || a.is_host_task(v);
            group[v] = std::max(group[v], group[u] + (across_host_task ? 1u : 0u));
        }
        highest = std::max(highest, group[v]);
    }
    // Host tasks are alone in their partitions whatever their group number.
    std::uint32_t next_host_label = highest + 1;
    for (auto v : order)
        if (a.is_host_task(v)) group[v] = next_host_label++;
    return group;
}

} // namespace encore::detail

// Encore's partitioning: group device nodes by host-task layer and by the latest host task of the layer below.
//
// A node's layer is the largest number of host tasks on any path that reaches it (a longest-path layering: edges
// never go down a layer, and always go up one across a host task). A device node v of layer L depends on at least
// one host task of layer L-1; call the latest of them in execution order latest(v). Device nodes are grouped by
// (L, latest(v)). latest is exact and cheap: a path from a layer-(L-1) host task to v only passes device nodes of
// layer L, so latest(v) is the latest among its same-layer device predecessors' latest and its layer-(L-1) host
// task predecessors.
//
// Why: the design's walk numbers groups in the order it visits host tasks, so nodes of one branch end up waiting
// for host tasks of parallel branches they have nothing to do with. Grouping by (L, latest) keeps branches apart
// (each branch's nodes hang off their own host tasks) with at most one device partition per layer and host task,
// the same bound as the walk. bench/partition_quality measures both on random graphs. The finer grouping by the
// full set of layer-(L-1) host tasks was measured too: fewer false waits still, but up to 3.7x the walk's
// partitions, each of which costs a launch.
//
// The partitions form a DAG: across layers, edges only go up; within a layer, an edge u -> v gives
// latest(u) <= latest(v) in execution order, so groups ordered by (L, position of latest) have no back edge.
//
// One pass in topological order: O(V+E), plus a hash lookup per device node.
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "partition.hpp"

namespace encore::detail {

std::vector<std::uint32_t> group_by_host_task_layers(const compact_adjacency& a, std::span<const std::uint32_t> order) {
    const auto n = a.size();
    // Positions are stored plus one, so that 0 means "no host task" and the latest is a plain maximum: the loops
    // below are then free of branches, which matters because whether a predecessor is a host task, or in the same
    // layer, is data no branch predictor can learn on a large graph.
    std::vector<std::uint32_t> position(n), layer(n, 0), latest(n, 0);
    std::vector<std::uint8_t> host(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        position[order[i]] = i + 1;
        host[i] = a.is_host_task(i);
    }

    std::unordered_map<std::uint64_t, std::uint32_t> group_of_key; // (layer << 32 | latest position) -> group
    std::vector<std::uint32_t> group(n);
    std::uint64_t last_key = ~std::uint64_t{0};
    std::uint32_t last_group = 0;
    auto visit = [&](std::uint32_t v) {
        std::uint32_t l = 0;
        for (auto u : a.predecessors(v)) l = std::max(l, layer[u] + host[u]);
        layer[v] = l;
        if (host[v]) return;
        std::uint32_t newest = 0;
        for (auto u : a.predecessors(v)) {
            std::uint32_t through_host = layer[u] + 1 == l ? position[u] : 0;
            std::uint32_t through_device = layer[u] == l ? latest[u] : 0;
            newest = std::max(newest, host[u] ? through_host : through_device);
        }
        latest[v] = newest;
        auto key = (std::uint64_t(l) << 32) | newest;
        if (key != last_key) { // neighbours in index order are often in the same group
            last_key = key;
            last_group = group_of_key.try_emplace(key, static_cast<std::uint32_t>(group_of_key.size())).first->second;
        }
        group[v] = last_group;
    };
    // Multi-device graphs: an edge between device nodes of two devices is a cut like a host task. Such an edge
    // u -> v is "crossing": v's layer is at least u's plus one, and u counts as a host task of the layer below
    // for latest(v). Groups are (layer, latest, device): an edge inside a layer joins nodes of one device and
    // never lowers latest, a crossing edge goes up a layer, so the groups still form a DAG. With one device
    // this is the pass above, which stays free of the extra comparisons.
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> group_of_device_key;
    auto visit_multi_device = [&](std::uint32_t v) {
        const std::uint32_t slot = a.device_slot(v);
        auto crossing = [&](std::uint32_t u) { return host[u] || (!host[v] && a.device_slot(u) != slot); };
        std::uint32_t l = 0;
        for (auto u : a.predecessors(v)) l = std::max(l, layer[u] + (crossing(u) ? 1 : 0));
        layer[v] = l;
        if (host[v]) return;
        std::uint32_t newest = 0;
        for (auto u : a.predecessors(v)) {
            if (crossing(u))
                newest = std::max(newest, layer[u] + 1 == l ? position[u] : 0);
            else
                newest = std::max(newest, layer[u] == l ? latest[u] : 0);
        }
        latest[v] = newest;
        group[v] = group_of_device_key
                       .try_emplace({l, newest, slot}, static_cast<std::uint32_t>(group_of_device_key.size()))
                       .first->second;
    };
    // Any topological order gives the same layers and latest host tasks. Index order, where it is one, reads the
    // arrays front to back instead of jumping around them: on a 1M-node graph that halves this pass.
    auto visit_all = [&](auto&& visit_one) {
        if (a.index_order_is_topological()) {
            for (std::uint32_t v = 0; v < n; ++v) visit_one(v);
        } else {
            for (auto v : order) visit_one(v);
        }
    };
    if (a.multi_device())
        visit_all(visit_multi_device);
    else
        visit_all(visit);

    // Host tasks get labels of their own after the device groups (labels only need to be distinct).
    auto next_host_label = static_cast<std::uint32_t>(group_of_key.size() + group_of_device_key.size());
    for (std::uint32_t v = 0; v < n; ++v)
        if (host[v]) group[v] = next_host_label++;
    return group;
}

} // namespace encore::detail

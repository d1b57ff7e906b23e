#include "partition_quality.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <string>

namespace encore {

namespace {
[[noreturn]] void broken(const std::string& rule) { throw std::logic_error("partition rule broken: " + rule); }

bool contains(const std::vector<std::uint32_t>& sorted, std::uint32_t x) {
    return std::binary_search(sorted.begin(), sorted.end(), x);
}
} // namespace

void check_partition_rules(const graph& g, const partitioning& parts) {
    const graph::storage& s = g.boost_graph();
    constexpr auto none = std::numeric_limits<std::uint32_t>::max();
    if (parts.partition_of.size() != g.size()) broken("partition_of does not cover every node");

    std::vector<std::uint32_t> position(g.size(), none); // index within its partition's node list
    for (std::uint32_t p = 0; p < parts.partitions.size(); ++p) {
        const partition& part = parts.partitions[p];
        if (part.nodes.empty()) broken("partition " + std::to_string(p) + " is empty");
        for (std::uint32_t i = 0; i < part.nodes.size(); ++i) {
            auto v = part.nodes[i];
            if (v >= g.size() || position[v] != none) broken("node " + std::to_string(v) + " is listed twice");
            if (parts.partition_of[v] != p) broken("partition_of disagrees for node " + std::to_string(v));
            position[v] = i;
            bool host = detail::is_host_task(s, v);
            if (host && part.nodes.size() != 1)
                broken("host task " + std::to_string(v) + " shares partition " + std::to_string(p));
            if (host != part.host_task) broken("host_task flag of partition " + std::to_string(p));
            if (!host && s[v].device_slot != part.device_slot)
                broken("node " + std::to_string(v) + " of device slot " + std::to_string(s[v].device_slot) +
                       " is in partition " + std::to_string(p) + " of slot " + std::to_string(part.device_slot));
        }
        if (!std::is_sorted(part.predecessors.begin(), part.predecessors.end()) ||
            !std::is_sorted(part.successors.begin(), part.successors.end()))
            broken("dependency lists of partition " + std::to_string(p) + " are not sorted");
        for (auto q : part.predecessors)
            if (q >= p || !contains(parts.partitions[q].successors, p))
                broken("partition " + std::to_string(p) + " waits for " + std::to_string(q) +
                       ", which is not an earlier partition listing it as successor");
        bool chain = true;
        for (std::size_t i = 0; i + 1 < part.nodes.size(); ++i)
            chain = chain && g.has_edge(g.node_at(part.nodes[i]), g.node_at(part.nodes[i + 1]));
        if (chain != part.in_order) broken("in_order flag of partition " + std::to_string(p));
    }
    for (std::uint32_t v = 0; v < g.size(); ++v)
        if (position[v] == none) broken("node " + std::to_string(v) + " is in no partition");

    // Every node edge is honoured; every partition edge is backed by a node edge.
    std::vector<std::vector<std::uint32_t>> backed(parts.partitions.size());
    for (auto e : boost::make_iterator_range(boost::edges(s))) {
        auto u = static_cast<std::uint32_t>(boost::source(e, s)), v = static_cast<std::uint32_t>(boost::target(e, s));
        auto p = parts.partition_of[u], q = parts.partition_of[v];
        if (p == q) {
            if (position[u] > position[v])
                broken("node " + std::to_string(u) + " comes after its successor " + std::to_string(v));
        } else if (!contains(parts.partitions[q].predecessors, p)) {
            broken("edge " + std::to_string(u) + " -> " + std::to_string(v) + " is not a dependency of partition " +
                   std::to_string(q) + " on " + std::to_string(p));
        } else {
            backed[q].push_back(p);
        }
    }
    for (std::uint32_t q = 0; q < parts.partitions.size(); ++q) {
        std::sort(backed[q].begin(), backed[q].end());
        backed[q].erase(std::unique(backed[q].begin(), backed[q].end()), backed[q].end());
        if (backed[q] != parts.partitions[q].predecessors)
            broken("partition " + std::to_string(q) + " waits for a partition none of its nodes depends on");
    }
}

std::uint64_t count_false_waits(const graph& g, const partitioning& parts) {
    const graph::storage& s = g.boost_graph();
    constexpr auto none = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> host_number(g.size(), none);
    std::uint32_t host_tasks = 0;
    for (const auto& part : parts.partitions)
        if (part.host_task) host_number[part.nodes[0]] = host_tasks++;
    const std::size_t words = (host_tasks + 63) / 64;
    if (words == 0) return 0;

    // Partitions in number order, and their nodes in list order, form a topological order of the nodes.
    std::vector<std::uint64_t> waits(parts.partitions.size() * words, 0), depends(g.size() * words, 0);
    std::uint64_t false_waits = 0;
    for (std::uint32_t p = 0; p < parts.partitions.size(); ++p) {
        const partition& part = parts.partitions[p];
        std::uint64_t* w = &waits[p * words];
        for (auto q : part.predecessors) {
            for (std::size_t i = 0; i < words; ++i) w[i] |= waits[q * words + i];
            if (parts.partitions[q].host_task) {
                auto h = host_number[parts.partitions[q].nodes[0]];
                w[h / 64] |= std::uint64_t(1) << (h % 64);
            }
        }
        for (auto v : part.nodes) {
            std::uint64_t* d = &depends[std::size_t(v) * words];
            for (auto u : boost::make_iterator_range(boost::inv_adjacent_vertices(v, s))) {
                for (std::size_t i = 0; i < words; ++i) d[i] |= depends[u * words + i];
                if (host_number[u] != none) d[host_number[u] / 64] |= std::uint64_t(1) << (host_number[u] % 64);
            }
            for (std::size_t i = 0; i < words; ++i) false_waits += std::popcount(w[i] & ~d[i]);
        }
    }
    return false_waits;
}

} // namespace encore

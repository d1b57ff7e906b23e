#include "compact_adjacency.hpp"

#include <limits>

#include "error.hpp"

namespace encore {

compact_adjacency::compact_adjacency(const graph& g) {
    const graph::storage& s = g.boost_graph();
    const auto n = static_cast<std::uint32_t>(g.size());
    if (g.edge_count() > std::numeric_limits<std::uint32_t>::max())
        throw error(errc::invalid_argument, "graph has more than 2^32 - 1 edges");
    successor_offsets_.reserve(n + 1);
    predecessor_offsets_.reserve(n + 1);
    successors_.reserve(g.edge_count());
    predecessors_.reserve(g.edge_count());
    host_task_.resize(n);
    successor_offsets_.push_back(0);
    predecessor_offsets_.push_back(0);
    for (std::uint32_t v = 0; v < n; ++v) {
        for (auto w : boost::make_iterator_range(boost::adjacent_vertices(v, s))) {
            successors_.push_back(static_cast<std::uint32_t>(w));
            index_order_is_topological_ = index_order_is_topological_ && w > v;
        }
        for (auto u : boost::make_iterator_range(boost::inv_adjacent_vertices(v, s)))
            predecessors_.push_back(static_cast<std::uint32_t>(u));
        successor_offsets_.push_back(static_cast<std::uint32_t>(successors_.size()));
        predecessor_offsets_.push_back(static_cast<std::uint32_t>(predecessors_.size()));
        host_task_[v] = kind_of(s[v].command) == command_kind::host_task;
        if (s[v].device_slot != 0 && device_slot_.empty()) device_slot_.resize(n, 0);
        if (!device_slot_.empty()) device_slot_[v] = s[v].device_slot;
    }
}

} // namespace encore

#include "topology.hpp"

#include <algorithm>

#include "error.hpp"

namespace encore {

namespace {
std::vector<std::uint32_t> sorted_successors(const graph::storage& s, std::uint32_t v) {
    std::vector<std::uint32_t> out;
    for (auto w : boost::make_iterator_range(boost::adjacent_vertices(v, s))) out.push_back(static_cast<std::uint32_t>(w));
    std::sort(out.begin(), out.end());
    return out;
}

std::string list(const std::vector<std::uint32_t>& v) {
    std::string text = "{";
    for (std::size_t i = 0; i < v.size(); ++i) text += (i ? ", " : "") + std::to_string(v[i]);
    return text + "}";
}
} // namespace

std::optional<std::string> topology_difference(const graph& a, const graph& b) {
    if (a.size() != b.size())
        return "the graphs have " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " nodes";
    const auto n = static_cast<std::uint32_t>(a.size());
    for (std::uint32_t v = 0; v < n; ++v) {
        auto ka = kind_of(a.boost_graph()[v].command), kb = kind_of(b.boost_graph()[v].command);
        if (ka != kb)
            return "node " + std::to_string(v) + " is a " + std::string(to_string(ka)) + " command in one graph and a " +
                   std::string(to_string(kb)) + " command in the other";
    }
    if (a.edge_count() != b.edge_count())
        return "the graphs have " + std::to_string(a.edge_count()) + " and " + std::to_string(b.edge_count()) + " edges";
    for (std::uint32_t v = 0; v < n; ++v) {
        auto sa = sorted_successors(a.boost_graph(), v), sb = sorted_successors(b.boost_graph(), v);
        if (sa != sb)
            return "node " + std::to_string(v) + " has successors " + list(sa) + " in one graph and " + list(sb) +
                   " in the other";
    }
    return std::nullopt;
}

void require_same_topology(const graph& a, const graph& b) {
    if (auto difference = topology_difference(a, b)) throw error(errc::topology_mismatch, *difference);
}

} // namespace encore

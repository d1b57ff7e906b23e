#include "critical_path.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "compact_adjacency.hpp"
#include "error.hpp"
#include "topological_order.hpp"

namespace encore {

critical_path_result critical_path(const graph& g, std::span<const double> node_ns) {
    const auto count = static_cast<std::uint32_t>(g.size());
    if (node_ns.size() != count)
        throw error(errc::invalid_argument, "critical_path: " + std::to_string(node_ns.size()) +
                                                " node times given for a graph of " + std::to_string(count) +
                                                " nodes (one per node is needed)");
    critical_path_result result;
    if (count == 0) return result;
    const compact_adjacency adjacency(g);
    const auto order = topological_order(g, adjacency, order_strategy::breadth_first);
    auto weight = [&](std::uint32_t v) {
        return std::isfinite(node_ns[v]) && node_ns[v] > 0 ? node_ns[v] : 0.0;
    };
    constexpr std::uint32_t none = ~std::uint32_t{0};
    std::vector<double> finish(count, 0); // the longest path ending with v, v included
    std::vector<std::uint32_t> via(count, none);
    for (auto v : order) {
        double best = 0;
        for (auto u : adjacency.predecessors(v))
            if (via[v] == none || finish[u] > best || (finish[u] == best && u < via[v])) {
                best = finish[u];
                via[v] = u;
            }
        finish[v] = best + weight(v);
    }
    std::uint32_t last = 0;
    for (std::uint32_t v = 1; v < count; ++v)
        if (finish[v] > finish[last]) last = v;
    result.total_ns = finish[last];
    for (auto v = last; v != none; v = via[v])
        result.nodes.push_back(v);
    std::reverse(result.nodes.begin(), result.nodes.end());
    return result;
}

} // namespace encore

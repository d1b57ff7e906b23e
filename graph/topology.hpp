// Topology comparison: may one graph's executable form be updated from another?
//
// Whole-graph update (SYCL's exec.update(graph)) reuses the lowered form of graph `a` with the commands of graph
// `b`; that is only sound when both have the same shape: the same number of nodes, the same kind of command at each
// index, and the same edges. Encore checks all three (stricter than the design, which compares edge counts only),
// in O(V+E), and names the first difference.
//
//     if (auto difference = encore::topology_difference(a, b)) std::puts(difference->c_str());
//     encore::require_same_topology(a, b);   // throws errc::topology_mismatch with that text
#pragma once

#include <optional>
#include <string>

#include "graph.hpp"

namespace encore {

std::optional<std::string> topology_difference(const graph& a, const graph& b);
void require_same_topology(const graph& a, const graph& b);

} // namespace encore

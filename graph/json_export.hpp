// JSON export of a graph: the same content as the DOT export, for tools.
//
//     {"nodes": [{"id": 0, "type": "kernel", "kernel": "saxpy", "fields": {"global": "{1024}", ...}}, ...],
//      "edges": [[0, 1], ...]}
// "kernel" appears for kernel nodes, "fields" in verbose mode only. Deterministic: nodes and edges in index order.
//
//     std::cout << encore::to_json(g, {.verbose = true}).dump(2);
#pragma once

#include <nlohmann/json.hpp>

#include "dot_export.hpp"

namespace encore {

nlohmann::json to_json(const graph& g, export_options options = {});

} // namespace encore

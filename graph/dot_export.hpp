// DOT export of a graph, for looking at it (Graphviz renders it).
//
// One DOT node per graph node, labelled "index: type" (and the kernel name); verbose mode adds each command's
// arguments, ranges, sizes and pointers. Host tasks are drawn as ellipses, device commands as boxes. The output
// is deterministic: nodes and edges in index order.
//
//     encore::write_dot(g, std::cout, {.verbose = true});
//     encore::write_dot_file(g, "graph.dot");
//     if (encore::graphviz_available()) encore::render_svg("graph.dot", "graph.svg");
#pragma once

#include <ostream>
#include <string>

#include "graph.hpp"

namespace encore {

struct export_options {
    bool verbose = false;
};

void write_dot(const graph& g, std::ostream& out, export_options options = {});
// Throws encore::error(invalid_argument) naming the path when it cannot be written.
void write_dot_file(const graph& g, const std::string& path, export_options options = {});

// Whether Graphviz's `dot` program is on the PATH.
bool graphviz_available();
// Runs `dot -Tsvg dot_path -o svg_path`. Throws encore::error(feature_not_supported) when Graphviz is missing, and
// (invalid_argument) with dot's exit status when it fails.
void render_svg(const std::string& dot_path, const std::string& svg_path);

} // namespace encore

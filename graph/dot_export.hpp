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
#include <span>
#include <string>

#include "graph.hpp"

namespace encore {

struct export_options {
    bool verbose = false;
};

void write_dot(const graph& g, std::ostream& out, export_options options = {});
// Throws encore::error(invalid_argument) naming the path when it cannot be written.
void write_dot_file(const graph& g, const std::string& path, export_options options = {});

// The same picture coloured by measured time (a replay's picture, docs/profiling.md): each node filled on a
// white-to-red scale by its share of the slowest node's time, with the time in its label (nodes without a
// time, a negative or NaN entry, stay white and say "not measured"), and the critical path
// (graph/critical_path.hpp) drawn in bold red edges with its total in the graph's label. `node_ns[v]` is node
// v's time in nanoseconds; throws encore::error(invalid_argument) unless it holds one entry per node.
void write_timed_dot(const graph& g, std::ostream& out, std::span<const double> node_ns,
                     export_options options = {});
void write_timed_dot_file(const graph& g, const std::string& path, std::span<const double> node_ns,
                          export_options options = {});

// Whether Graphviz's `dot` program is on the PATH.
bool graphviz_available();
// Runs `dot -Tsvg dot_path -o svg_path`. Throws encore::error(feature_not_supported) when Graphviz is missing, and
// (invalid_argument) with dot's exit status when it fails.
void render_svg(const std::string& dot_path, const std::string& svg_path);

} // namespace encore

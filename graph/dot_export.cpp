#include "dot_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/graph/graphviz.hpp>

#include "critical_path.hpp"
#include "detail/node_fields.hpp"
#include "error.hpp"

extern char** environ;

namespace encore {

namespace {
std::string escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

int run_program(std::vector<std::string> argv) {
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    pid_t pid;
    if (posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0) return 127;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
} // namespace

void write_dot(const graph& g, std::ostream& out, export_options options) {
    const graph::storage& s = g.boost_graph();
    auto vertex_writer = [&](std::ostream& o, std::size_t v) {
        const command& c = s[v].command;
        // Each piece is escaped on its own; "\\n" between them is DOT's line break.
        std::string label = escape(std::to_string(v) + ": " + detail::node_title(c));
        if (options.verbose)
            for (const auto& [name, value] : detail::verbose_fields(c)) label += "\\n" + escape(name + " = " + value);
        o << "[label=\"" << label << "\", shape="
          << (kind_of(c) == command_kind::host_task ? "ellipse" : "box") << "]";
    };
    auto graph_writer = [](std::ostream& o) { o << "rankdir=TB;\n"; };
    boost::write_graphviz(out, s, vertex_writer, boost::default_writer(), graph_writer);
}

namespace {
bool measured(double ns) {
    return std::isfinite(ns) && ns >= 0;
}

std::string format_time(double ns) {
    char text[32];
    if (ns < 1e3)
        std::snprintf(text, sizeof text, "%.0f ns", ns);
    else if (ns < 1e6)
        std::snprintf(text, sizeof text, "%.2f us", ns / 1e3);
    else
        std::snprintf(text, sizeof text, "%.2f ms", ns / 1e6);
    return text;
}

// White (0) to red (1): green and blue fall together, red stays full.
std::string heat_colour(double share) {
    const int fade = static_cast<int>(std::lround(255 * (1 - std::clamp(share, 0.0, 1.0))));
    char text[8];
    std::snprintf(text, sizeof text, "#ff%02x%02x", fade, fade);
    return text;
}

template <typename Write> void write_file(const std::string& path, Write write) {
    std::ofstream file(path);
    if (!file) throw error(errc::invalid_argument, "cannot open '" + path + "' for writing");
    write(file);
    file.close();
    if (!file) throw error(errc::invalid_argument, "writing '" + path + "' failed");
}
} // namespace

void write_timed_dot(const graph& g, std::ostream& out, std::span<const double> node_ns,
                     export_options options) {
    const auto path = critical_path(g, node_ns); // checks the size
    const graph::storage& s = g.boost_graph();
    std::vector<bool> on_path(g.size(), false);
    for (auto v : path.nodes)
        on_path[v] = true;
    double slowest = 0;
    for (double ns : node_ns)
        if (measured(ns)) slowest = std::max(slowest, ns);
    auto vertex_writer = [&](std::ostream& o, std::size_t v) {
        const command& c = s[v].command;
        std::string label = escape(std::to_string(v) + ": " + detail::node_title(c));
        label +=
            "\\n" + (measured(node_ns[v]) ? escape(format_time(node_ns[v])) : std::string("not measured"));
        if (options.verbose)
            for (const auto& [name, value] : detail::verbose_fields(c))
                label += "\\n" + escape(name + " = " + value);
        const double share = measured(node_ns[v]) && slowest > 0 ? node_ns[v] / slowest : 0;
        o << "[label=\"" << label
          << "\", shape=" << (kind_of(c) == command_kind::host_task ? "ellipse" : "box")
          << ", style=filled, fillcolor=\"" << heat_colour(share) << "\"";
        if (on_path[v]) o << ", color=\"#c00000\", penwidth=3";
        o << "]";
    };
    auto edge_writer = [&](std::ostream& o, const graph::storage::edge_descriptor& e) {
        const auto from = boost::source(e, s), to = boost::target(e, s);
        // Consecutive on the path: the path is a chain, so an edge between two of its nodes that are not
        // neighbours in it is not on it.
        for (std::size_t i = 0; i + 1 < path.nodes.size(); ++i)
            if (path.nodes[i] == from && path.nodes[i + 1] == to) {
                o << "[color=\"#c00000\", penwidth=3, style=bold]";
                return;
            }
    };
    auto graph_writer = [&](std::ostream& o) {
        o << "rankdir=TB;\n";
        o << "label=\"critical path: " << path.nodes.size() << " nodes, "
          << escape(format_time(path.total_ns)) << "\";\nlabelloc=t;\n";
    };
    boost::write_graphviz(out, s, vertex_writer, edge_writer, graph_writer);
}

void write_dot_file(const graph& g, const std::string& path, export_options options) {
    write_file(path, [&](std::ostream& file) { write_dot(g, file, options); });
}

void write_timed_dot_file(const graph& g, const std::string& path, std::span<const double> node_ns,
                          export_options options) {
    if (node_ns.size() != g.size()) critical_path(g, node_ns); // throws before the file is made
    write_file(path, [&](std::ostream& file) { write_timed_dot(g, file, node_ns, options); });
}

bool graphviz_available() {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        auto end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        std::string candidate = dirs.substr(start, end - start) + "/dot";
        if (end > start && access(candidate.c_str(), X_OK) == 0) return true;
        start = end + 1;
    }
    return false;
}

void render_svg(const std::string& dot_path, const std::string& svg_path) {
    if (!graphviz_available())
        throw error(errc::feature_not_supported, "Graphviz's 'dot' is not on the PATH; cannot render '" + dot_path +
                                                     "' (install the graphviz package)");
    int status = run_program({"dot", "-Tsvg", dot_path, "-o", svg_path});
    if (status != 0)
        throw error(errc::invalid_argument,
                    "dot -Tsvg '" + dot_path + "' failed with exit status " + std::to_string(status));
}

} // namespace encore

#include "dot_export.hpp"

#include <cstdlib>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/graph/graphviz.hpp>

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

void write_dot_file(const graph& g, const std::string& path, export_options options) {
    std::ofstream file(path);
    if (!file) throw error(errc::invalid_argument, "cannot open '" + path + "' for writing");
    write_dot(g, file, options);
    file.close();
    if (!file) throw error(errc::invalid_argument, "writing '" + path + "' failed");
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

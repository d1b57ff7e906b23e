#include "json_export.hpp"

#include "detail/node_fields.hpp"

namespace encore {

nlohmann::json to_json(const graph& g, export_options options) {
    const graph::storage& s = g.boost_graph();
    nlohmann::json nodes = nlohmann::json::array();
    for (std::size_t v = 0; v < g.size(); ++v) {
        const command& c = s[v].command;
        nlohmann::json n = {{"id", v}, {"type", to_string(kind_of(c))}};
        if (auto* k = std::get_if<kernel_command>(&c)) n["kernel"] = k->kernel->name();
        if (options.verbose) {
            nlohmann::json fields = nlohmann::json::object();
            for (const auto& [name, value] : detail::verbose_fields(c)) fields[name] = value;
            n["fields"] = std::move(fields);
        }
        nodes.push_back(std::move(n));
    }
    nlohmann::json edges = nlohmann::json::array();
    for (std::size_t v = 0; v < g.size(); ++v)
        for (auto w : boost::make_iterator_range(boost::adjacent_vertices(v, s)))
            edges.push_back({v, static_cast<std::size_t>(w)});
    return {{"nodes", std::move(nodes)}, {"edges", std::move(edges)}};
}

} // namespace encore

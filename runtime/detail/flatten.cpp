#include "flatten.hpp"

#include <algorithm>

#include "encore/graph/error.hpp"

namespace encore::detail {

namespace {

bool has_subgraph(const graph& g) {
    const auto& s = g.boost_graph();
    for (std::uint32_t v = 0; v < g.size(); ++v)
        if (kind_of(s[v].command) == command_kind::subgraph) return true;
    return false;
}

class flattener {
public:
    flattener() : out_(graph_options{.check_cycles = false}) {} // the input is acyclic, so is the result

    // Appends `g` to the output; returns, per node of `g`, its first and last flat node. The nodes of a graph
    // that uses device slot 0 alone go to `slot` (a subgraph node's); a multi-device child keeps its slots.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> append(const graph& g, std::uint32_t slot = 0) {
        if (std::find(path_.begin(), path_.end(), &g) != path_.end())
            throw error(errc::invalid_argument, "subgraph: graph " + std::to_string(g.id()) +
                                                    " contains itself through its subgraph nodes");
        path_.push_back(&g);
        const auto& s = g.boost_graph();
        std::vector<std::pair<std::uint32_t, std::uint32_t>> ends(g.size());
        const bool single_device = g.device_slots() == 1;
        for (std::uint32_t v = 0; v < g.size(); ++v) {
            const command& c = s[v].command;
            const std::uint32_t node_slot = single_device ? slot : s[v].device_slot;
            if (const auto* sub = std::get_if<subgraph_command>(&c)) {
                auto entry = out_.add(empty_command{});
                out_.set_device_slot(entry, node_slot);
                auto child_ends = append(*sub->child, node_slot);
                auto exit = out_.add(empty_command{});
                out_.set_device_slot(exit, node_slot);
                const auto& cs = sub->child->boost_graph();
                for (std::uint32_t w = 0; w < child_ends.size(); ++w) {
                    if (boost::in_degree(w, cs) == 0)
                        out_.make_edge(entry, out_.node_at(child_ends[w].first));
                    if (boost::out_degree(w, cs) == 0)
                        out_.make_edge(out_.node_at(child_ends[w].second), exit);
                }
                if (child_ends.empty()) out_.make_edge(entry, exit);
                ends[v] = {entry.index, exit.index};
            } else {
                auto n = out_.add(c);
                if (node_slot != 0) out_.set_device_slot(n, node_slot);
                ends[v] = {n.index, n.index};
            }
        }
        for (std::uint32_t v = 0; v < g.size(); ++v)
            for (auto w : boost::make_iterator_range(boost::adjacent_vertices(v, s)))
                out_.make_edge(out_.node_at(ends[v].second), out_.node_at(ends[w].first));
        path_.pop_back();
        return ends;
    }

    graph take() { return std::move(out_); }

private:
    graph out_;
    std::vector<const graph*> path_; // the graphs being appended, outermost first
};

} // namespace

flat_graph flatten(const graph& g) {
    if (!has_subgraph(g)) return {};
    flattener f;
    auto ends = f.append(g);
    flat_graph out{f.take(), {}};
    out.span_of.reserve(ends.size());
    for (auto [first, last] : ends)
        out.span_of.emplace_back(first, last - first + 1);
    return out;
}

} // namespace encore::detail

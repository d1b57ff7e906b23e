#include "graph.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

#include <boost/container/small_vector.hpp>

#include "error.hpp"

namespace encore {

namespace {
std::atomic<std::uint64_t> next_graph_id{1};

std::vector<node> handles(std::uint64_t graph_id, auto&& indices) {
    std::vector<node> out;
    for (auto index : indices) out.push_back(node{graph_id, static_cast<std::uint32_t>(index)});
    return out;
}

// Depth-first search from `start` for `target` along out-edges; returns the path start .. target, or empty.
// O(V+E) in the worst case: it is the cycle check of make_edge.
std::vector<std::uint32_t> find_path(const graph::storage& g, std::uint32_t start, std::uint32_t target) {
    constexpr auto unvisited = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> parent(boost::num_vertices(g), unvisited);
    std::vector<std::uint32_t> stack{start};
    parent[start] = start;
    while (!stack.empty()) {
        auto v = stack.back();
        stack.pop_back();
        if (v == target) {
            std::vector<std::uint32_t> path{v};
            while (v != start) path.push_back(v = parent[v]);
            std::reverse(path.begin(), path.end());
            return path;
        }
        for (auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
            auto w = static_cast<std::uint32_t>(boost::target(e, g));
            if (parent[w] == unvisited) {
                parent[w] = v;
                stack.push_back(w);
            }
        }
    }
    return {};
}

// Boost's copy constructor adds the vertices one at a time, so the vertex vector grows (and moves every node)
// as it goes, then the edges one at a time. Here the vertices are made at once and each edge list is sized
// first: every byte is written once, which matters for graphs of thousands of nodes (finalize copies one).
std::unique_ptr<graph::storage> copy_of(const graph::storage& from) {
    const auto count = boost::num_vertices(from);
    auto to = std::make_unique<graph::storage>(count);
    to->m_edges.reserve(boost::num_edges(from));
    for (std::size_t v = 0; v < count; ++v) {
        auto& vertex = to->m_vertices[v];
        vertex.m_property = from.m_vertices[v].m_property;
        vertex.m_out_edges.reserve(boost::out_degree(v, from));
        vertex.m_in_edges.reserve(boost::in_degree(v, from));
    }
    // Vertex by vertex, each one's out-edges in order: the order Boost's own copy keeps.
    for (std::size_t v = 0; v < count; ++v)
        for (auto e : boost::make_iterator_range(boost::out_edges(v, from)))
            boost::add_edge(v, boost::target(e, from), *to);
    return to;
}
} // namespace

graph::graph(graph_options options)
    : storage_(std::make_unique<storage>()), options_(options), id_(next_graph_id++) {}

graph::graph(const graph& other)
    : storage_(copy_of(other.boost_graph())), options_(other.options_), id_(next_graph_id++) {}

graph& graph::operator=(const graph& other) {
    if (this != &other) {
        storage_ = copy_of(other.boost_graph());
        options_ = other.options_;
        id_ = next_graph_id++;
    }
    return *this;
}

graph::graph(graph&& other) noexcept
    : storage_(std::move(other.storage_)), options_(other.options_), id_(std::exchange(other.id_, next_graph_id++)) {}

graph& graph::operator=(graph&& other) noexcept {
    if (this != &other) {
        storage_ = std::move(other.storage_);
        options_ = other.options_;
        id_ = std::exchange(other.id_, next_graph_id++);
    }
    return *this;
}

const graph::storage& graph::empty_storage() noexcept {
    static const storage empty;
    return empty;
}

graph::storage& graph::writable() {
    if (!storage_) storage_ = std::make_unique<storage>();
    return *storage_;
}

std::uint32_t graph::checked_index(node n, const char* role) const {
    if (n.graph_id != id_)
        throw error(errc::foreign_node, std::string(role) + " node " + std::to_string(n.index) +
                                            (n.graph_id == 0 ? " is a default-constructed handle"
                                                             : " belongs to another graph"));
    if (n.index >= size())
        throw error(errc::unknown_node, std::string(role) + " node " + std::to_string(n.index) +
                                            " does not exist; the graph has " + std::to_string(size()) + " nodes");
    return n.index;
}

node graph::add(command c, std::span<const node> dependencies) {
    validate(c);
    if (size() >= node::invalid_index) throw error(errc::invalid_argument, "graph is full");
    // Most nodes have a handful of dependencies: keep them off the heap.
    boost::container::small_vector<std::uint32_t, 8> predecessors;
    predecessors.reserve(dependencies.size());
    for (const node& d : dependencies) predecessors.push_back(checked_index(d, "dependency"));
    if (!std::is_sorted(predecessors.begin(), predecessors.end())) // they often come sorted
        std::sort(predecessors.begin(), predecessors.end());
    predecessors.erase(std::unique(predecessors.begin(), predecessors.end()), predecessors.end());

    // boost::add_vertex(property, g) copies the property; adding a default vertex and moving the command in
    // does not. A new node has no successors, so none of its edges can close a cycle.
    storage& s = writable();
    auto v = static_cast<std::uint32_t>(boost::add_vertex(s));
    s[v].command = std::move(c);
    s.m_vertices[v].m_in_edges.reserve(predecessors.size()); // one allocation for a node with many dependencies
    // Each edge writes to its predecessor's out-edge list; for long dependency lists, fetch those nodes ahead.
    constexpr std::size_t ahead = 8;
    for (std::size_t i = 0; i < predecessors.size(); ++i) {
        if (i + ahead < predecessors.size()) __builtin_prefetch(&s.m_vertices[predecessors[i + ahead]], 1);
        boost::add_edge(predecessors[i], v, s);
    }
    return node{id_, v};
}

void graph::set_device_slot(node n, std::uint32_t slot) {
    const auto v = checked_index(n, "device slot of");
    writable()[v].device_slot = slot;
}

std::uint32_t graph::device_slot(node n) const {
    return boost_graph()[checked_index(n, "device slot of")].device_slot;
}

std::uint32_t graph::device_slots() const noexcept {
    std::uint32_t largest = 0;
    const storage& s = boost_graph();
    for (std::size_t v = 0; v < size(); ++v) largest = std::max(largest, s[v].device_slot);
    return largest + 1;
}

void graph::reserve(std::size_t nodes) {
    // Boost's adjacency_list has no reserve(); its vertex vector is a public member.
    writable().m_vertices.reserve(nodes);
}

void graph::make_edge(node from, node to) {
    auto a = checked_index(from, "source");
    auto b = checked_index(to, "destination");
    if (a == b) throw error(errc::self_edge, "edge from " + describe(a) + " to itself");
    if (has_edge(from, to))
        throw error(errc::duplicate_edge, "edge from " + describe(a) + " to " + describe(b) + " already exists");
    if (options_.check_cycles) {
        auto path = find_path(boost_graph(), b, a);
        if (!path.empty()) {
            std::string cycle;
            for (auto v : path) cycle += describe(v) + " -> ";
            throw error(errc::cycle, "edge from " + describe(a) + " to " + describe(b) +
                                         " would close the cycle " + cycle + describe(b));
        }
    }
    boost::add_edge(a, b, writable());
}

bool graph::has_edge(node from, node to) const {
    auto a = checked_index(from, "source");
    auto b = checked_index(to, "destination");
    // Scan the shorter of the two adjacency lists. (Not boost::edge: it cannot see the small_edge_listS category.)
    const storage& s = boost_graph();
    if (boost::out_degree(a, s) <= boost::in_degree(b, s)) {
        auto successors = boost::adjacent_vertices(a, s);
        return std::find(successors.first, successors.second, b) != successors.second;
    }
    auto predecessors = boost::inv_adjacent_vertices(b, s);
    return std::find(predecessors.first, predecessors.second, a) != predecessors.second;
}

node graph::node_at(std::uint32_t index) const { return node{id_, checked_index(node{id_, index}, "")}; }

std::vector<node> graph::nodes() const {
    std::vector<node> out(size());
    for (std::uint32_t i = 0; i < out.size(); ++i) out[i] = node{id_, i};
    return out;
}

std::vector<node> graph::roots() const {
    std::vector<node> out;
    const storage& s = boost_graph();
    for (auto v : boost::make_iterator_range(boost::vertices(s)))
        if (boost::in_degree(v, s) == 0) out.push_back(node{id_, static_cast<std::uint32_t>(v)});
    return out;
}

std::vector<node> graph::leaves() const {
    std::vector<node> out;
    const storage& s = boost_graph();
    for (auto v : boost::make_iterator_range(boost::vertices(s)))
        if (boost::out_degree(v, s) == 0) out.push_back(node{id_, static_cast<std::uint32_t>(v)});
    return out;
}

std::vector<node> graph::successors(node n) const {
    auto v = checked_index(n, "queried");
    return handles(id_, boost::make_iterator_range(boost::adjacent_vertices(v, boost_graph())));
}

std::vector<node> graph::predecessors(node n) const {
    auto v = checked_index(n, "queried");
    return handles(id_, boost::make_iterator_range(boost::inv_adjacent_vertices(v, boost_graph())));
}

const command& graph::command_at(node n) const { return boost_graph()[checked_index(n, "queried")].command; }

void graph::replace_command(node n, command c) {
    auto v = checked_index(n, "updated");
    if (kind_of(c) != kind(n))
        throw error(errc::invalid_argument, "cannot replace the command of " + describe(v) + " by a " +
                                                std::string(to_string(kind_of(c))) + " command");
    validate(c);
    (*storage_)[v].command = std::move(c); // checked_index found the node, so the storage exists
}

std::string graph::describe(node n) const { return describe(checked_index(n, "described")); }

std::string graph::describe(std::uint32_t index) const {
    std::string text = "node " + std::to_string(index);
    if (index >= size()) return text;
    const command& c = boost_graph()[index].command;
    text += " (" + std::string(to_string(kind_of(c)));
    if (auto* k = std::get_if<kernel_command>(&c)) text += " '" + k->kernel->name() + "'";
    return text + ")";
}

} // namespace encore

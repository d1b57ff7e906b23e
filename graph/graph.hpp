// encore::graph — a DAG of commands, the engine's central data structure.
//
// Each node holds one command; an edge a -> b says b may start only after a has completed. Graphs are append-only
// (as in SYCL): nodes and edges are added, never removed. Nodes are numbered 0, 1, 2, ... in the order they were
// added; that number (node::index) is what every algorithm and export uses. Every misuse throws encore::error and
// leaves the graph exactly as it was.
//
//     encore::graph g;
//     auto a = g.add(encore::memset_command{p, 0, n});
//     auto b = g.add(encore::host_task_command{[] { std::puts("after a"); }}, {a});
//     g.make_edge(a, c);   // throws errc::cycle if c already reaches a
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "command.hpp"
#include "detail/small_edge_list.hpp"

namespace encore {

// A handle to a node: the graph it belongs to and its index there. Cheap to copy; only meaningful with its graph.
struct node {
    static constexpr std::uint32_t invalid_index = std::numeric_limits<std::uint32_t>::max();
    std::uint64_t graph_id = 0;
    std::uint32_t index = invalid_index;
    friend bool operator==(const node&, const node&) = default;
};

struct graph_options {
    // make_edge refuses an edge that would close a cycle. Switching it off (sycl's no_cycle_check) makes make_edge
    // O(degree) instead of O(V+E); a cycle created then is found, and reported, by topological_order().
    bool check_cycles = true;
};

class graph {
public:
    struct node_record {
        encore::command command;
        // Which of the devices the graph is finalized for runs the node (multi-device graphs, below).
        std::uint32_t device_slot = 0;
    };
    // Vertex descriptors are node indices (vecS); in- and out-edges are both kept (bidirectionalS), each node's
    // first few inline (detail/small_edge_list.hpp), and the global edge list is one vector (vecS) rather than a
    // std::list node per edge: adding a node with four dependencies allocates nothing for them. With the storage
    // owned through a pointer (below), building a 1M-node random DAG went from 2060 to 180 ns per node
    // (bench/graph_scaling). A vecS edge list holds pointers to the storage object itself, one more reason the
    // storage never moves.
    using storage = boost::adjacency_list<detail::small_edge_listS, boost::vecS, boost::bidirectionalS, node_record,
                                          boost::no_property, boost::no_property, boost::vecS>;

    explicit graph(graph_options options = {});
    // A copy is a new graph with the same nodes and edges; handles of the original do not name its nodes.
    graph(const graph& other);
    graph& operator=(const graph& other);
    // Boost 1.74's adjacency_list can neither move nor swap without copying every node and edge (its swap makes
    // three copies), so a graph owns its storage through a pointer and moving moves that pointer. The moved-from
    // graph is empty and gets a new identity.
    graph(graph&& other) noexcept;
    graph& operator=(graph&& other) noexcept;

    // Adds a node that runs after every node in `dependencies` (duplicates in the list are ignored).
    node add(command c, std::span<const node> dependencies = {});
    node add(command c, std::initializer_list<node> dependencies) {
        return add(std::move(c), std::span<const node>(dependencies.begin(), dependencies.size()));
    }
    // Makes room for `nodes` nodes in all, so adding them does not move the ones already there.
    void reserve(std::size_t nodes);
    // Adds the edge from -> to. Throws unknown_node, foreign_node, self_edge, duplicate_edge or cycle.
    void make_edge(node from, node to);

    std::size_t size() const noexcept { return storage_ ? boost::num_vertices(*storage_) : 0; }
    std::size_t edge_count() const noexcept { return storage_ ? boost::num_edges(*storage_) : 0; }
    bool empty() const noexcept { return size() == 0; }
    std::uint64_t id() const noexcept { return id_; }
    const graph_options& options() const noexcept { return options_; }

    node node_at(std::uint32_t index) const; // throws unknown_node when out of range
    std::vector<node> nodes() const;
    std::vector<node> roots() const;  // nodes without predecessors, in index order
    std::vector<node> leaves() const; // nodes without successors, in index order
    std::vector<node> successors(node n) const;
    std::vector<node> predecessors(node n) const;
    bool has_edge(node from, node to) const;

    command_kind kind(node n) const { return kind_of(command_at(n)); }
    const command& command_at(node n) const;
    // Replaces a node's command by one of the same kind (node update). Throws invalid_argument otherwise.
    void replace_command(node n, command c);

    // Multi-device graphs (an Encore extension; docs/multi-device.md): a node runs on device number `slot` of the
    // list the graph is finalized for (encore::executable_graph), 0 (the first) unless set otherwise. A host task
    // runs on the host whatever its slot. Throws unknown_node / foreign_node for a bad handle.
    void set_device_slot(node n, std::uint32_t slot);
    std::uint32_t device_slot(node n) const;
    // How many devices the graph needs: one more than its largest slot (1 for an empty graph).
    std::uint32_t device_slots() const noexcept;

    // "node 3 (kernel 'saxpy')": how error messages name a node.
    std::string describe(node n) const;
    std::string describe(std::uint32_t index) const;

    // Read-only access for the algorithms in graph/ and partitioner/.
    const storage& boost_graph() const noexcept { return storage_ ? *storage_ : empty_storage(); }

private:
    static const storage& empty_storage() noexcept;
    std::uint32_t checked_index(node n, const char* role) const;
    storage& writable(); // creates the storage of a moved-from graph

    std::unique_ptr<storage> storage_; // null only in a moved-from graph
    graph_options options_;
    std::uint64_t id_;
};

} // namespace encore

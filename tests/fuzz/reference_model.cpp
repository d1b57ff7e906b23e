#include "reference_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace fuzz {

const char* to_string(command_kind k) {
    switch (k) {
    case command_kind::fill:
        return "fill";
    case command_kind::copy:
        return "copy";
    case command_kind::scale:
        return "scale";
    case command_kind::accumulate:
        return "accumulate";
    case command_kind::param_kernel:
        return "param_kernel";
    case command_kind::host_mix:
        return "host_mix";
    case command_kind::host_throw:
        return "host_throw";
    case command_kind::kernel_throw:
        return "kernel_throw";
    case command_kind::empty:
        return "empty";
    case command_kind::subgraph:
        return "subgraph";
    case command_kind::local_kernel:
        return "local_kernel";
    }
    return "?";
}

bool is_kernel(command_kind k) {
    return k == command_kind::scale || k == command_kind::accumulate || k == command_kind::param_kernel ||
           k == command_kind::kernel_throw || k == command_kind::local_kernel;
}

bool reads_src(command_kind k) {
    return k == command_kind::copy || k == command_kind::accumulate || k == command_kind::param_kernel ||
           k == command_kind::host_mix;
}

bool writes_dst(command_kind k) {
    return k == command_kind::fill || k == command_kind::copy || k == command_kind::scale ||
           k == command_kind::accumulate || k == command_kind::param_kernel || k == command_kind::host_mix ||
           k == command_kind::local_kernel;
}

void resolved_command::reads(std::vector<alloc_id>& out) const {
    if (kind == command_kind::subgraph) {
        for (const auto& c : child->commands)
            c.reads(out);
        return;
    }
    if (reads_src(kind)) out.push_back(src);
    // Read-modify-write commands read their destination too.
    if (writes_dst(kind) && kind != command_kind::fill && kind != command_kind::copy) out.push_back(dst);
}

void resolved_command::writes(std::vector<alloc_id>& out) const {
    if (kind == command_kind::subgraph) {
        for (const auto& c : child->commands)
            c.writes(out);
        return;
    }
    if (writes_dst(kind)) out.push_back(dst);
}

namespace {

// The engine's node kind, as whole-graph update compares them: kernels by which kernel, both host-task kinds
// alike (a host task may be swapped for another).
int topology_kind(command_kind k) {
    if (k == command_kind::host_throw) return static_cast<int>(command_kind::host_mix);
    return static_cast<int>(k);
}

std::vector<std::vector<int>> successors_of(const snapshot& s) {
    std::vector<std::vector<int>> out(s.commands.size());
    for (std::size_t v = 0; v < s.predecessors.size(); ++v)
        for (int p : s.predecessors[v])
            out[p].push_back(static_cast<int>(v));
    for (auto& list : out)
        std::sort(list.begin(), list.end());
    return out;
}

// A graph with its sub-graphs inlined: a sub-graph node becomes an empty entry node, the child's nodes (each
// after the entry) and an empty exit node after all of them.
struct flat_graph {
    std::vector<const resolved_command*> commands; // null: an entry or exit node
    std::vector<std::vector<int>> predecessors;
};

int add_flat(flat_graph& f, const resolved_command* c) {
    f.commands.push_back(c);
    f.predecessors.emplace_back();
    return static_cast<int>(f.commands.size() - 1);
}

// Returns, per node of `s`, the flat nodes that stand for its start and its end.
std::vector<std::pair<int, int>> flatten_into(const snapshot& s, flat_graph& f, int after) {
    std::vector<std::pair<int, int>> ends(s.commands.size());
    for (std::size_t v = 0; v < s.commands.size(); ++v) {
        const auto& c = s.commands[v];
        if (c.kind != command_kind::subgraph) {
            int n = add_flat(f, &c);
            if (after >= 0) f.predecessors[n].push_back(after);
            ends[v] = {n, n};
            continue;
        }
        int entry = add_flat(f, nullptr);
        if (after >= 0) f.predecessors[entry].push_back(after);
        auto inner = flatten_into(*c.child, f, entry);
        int exit = add_flat(f, nullptr);
        f.predecessors[exit].push_back(entry);
        for (auto [first, last] : inner)
            f.predecessors[exit].push_back(last);
        ends[v] = {entry, exit};
    }
    for (std::size_t v = 0; v < s.commands.size(); ++v)
        for (int p : s.predecessors[v])
            f.predecessors[ends[v].first].push_back(ends[p].second);
    return ends;
}

// Kahn's algorithm, O(V+E); throws on a cycle (the fuzzer never makes one: make_edge refuses them).
std::vector<int> topological_order(const flat_graph& f) {
    const auto n = f.commands.size();
    std::vector<int> indegree(n, 0);
    std::vector<std::vector<int>> successors(n);
    for (std::size_t v = 0; v < n; ++v)
        for (int p : f.predecessors[v]) {
            ++indegree[v];
            successors[p].push_back(static_cast<int>(v));
        }
    std::vector<int> order;
    for (std::size_t v = 0; v < n; ++v)
        if (indegree[v] == 0) order.push_back(static_cast<int>(v));
    for (std::size_t i = 0; i < order.size(); ++i)
        for (int s : successors[order[i]])
            if (--indegree[s] == 0) order.push_back(s);
    if (order.size() != n) throw std::logic_error("reference model: the graph has a cycle");
    return order;
}

} // namespace

std::size_t inlined_size(const snapshot& s) {
    std::size_t n = 0;
    for (const auto& c : s.commands)
        n += c.kind == command_kind::subgraph ? 2 + inlined_size(*c.child) : 1;
    return n;
}

std::optional<std::string> topology_difference(const snapshot& a, const snapshot& b) {
    if (a.commands.size() != b.commands.size())
        return std::to_string(a.commands.size()) + " and " + std::to_string(b.commands.size()) + " nodes";
    for (std::size_t v = 0; v < a.commands.size(); ++v)
        if (topology_kind(a.commands[v].kind) != topology_kind(b.commands[v].kind))
            return "node " + std::to_string(v) + " is " + to_string(a.commands[v].kind) + " and " +
                   to_string(b.commands[v].kind);
    if (successors_of(a) != successors_of(b)) return "the edges differ";
    for (std::size_t v = 0; v < a.commands.size(); ++v)
        if (a.commands[v].kind == command_kind::subgraph)
            if (auto d = topology_difference(*a.commands[v].child, *b.commands[v].child))
                return "in the sub-graph of node " + std::to_string(v) + ": " + *d;
    return std::nullopt;
}

alloc_id memory_model::allocate(std::vector<std::uint32_t> initial) {
    arrays_[next_] = array_value{std::move(initial), true};
    return next_++;
}

void memory_model::release(alloc_id a) {
    arrays_.erase(a);
}

bool memory_model::all_alive(const resolved_command& c) const {
    std::vector<alloc_id> used;
    c.reads(used);
    c.writes(used);
    return std::all_of(used.begin(), used.end(), [&](alloc_id a) { return alive(a); });
}

bool memory_model::all_alive(const snapshot& s) const {
    return std::all_of(s.commands.begin(), s.commands.end(), [&](const auto& c) { return all_alive(c); });
}

void memory_model::apply(const resolved_command& c, std::vector<int>& thrown) {
    if (c.kind == command_kind::subgraph) {
        replay(*c.child, thrown);
        return;
    }
    apply_one(c, {}, thrown);
}

void memory_model::apply_one(const resolved_command& c, const std::vector<alloc_id>& racy,
                             std::vector<int>& thrown) {
    if (c.kind == command_kind::host_throw || c.kind == command_kind::kernel_throw) {
        thrown.push_back(c.tag);
        return;
    }
    if (!writes_dst(c.kind)) return;
    auto is_racy = [&](alloc_id a) { return std::find(racy.begin(), racy.end(), a) != racy.end(); };
    auto& dst = arrays_.at(c.dst);
    std::vector<alloc_id> inputs;
    c.reads(inputs);
    bool inputs_known = true;
    for (alloc_id a : inputs)
        inputs_known &= arrays_.at(a).known && !is_racy(a);
    const bool overwrites_all =
        (c.kind == command_kind::fill || c.kind == command_kind::copy) && c.count == array_length;
    if (is_racy(c.dst) || !inputs_known) {
        dst.known = false;
        return;
    }
    if (overwrites_all) dst.known = true;
    // A copy of a vector: `src` may be `dst` for the element-wise commands.
    const std::vector<std::uint32_t> src = c.src >= 0 ? arrays_.at(c.src).data : std::vector<std::uint32_t>{};
    for (std::uint32_t i = 0; i < c.count; ++i) {
        auto& d = dst.data[i];
        switch (c.kind) {
        case command_kind::fill:
            d = c.add;
            break;
        case command_kind::copy:
            d = src[i];
            break;
        case command_kind::scale:
            d = scale_value(d, c.mul, c.add);
            break;
        case command_kind::accumulate:
            d = accumulate_value(d, src[i], c.mul, c.add);
            break;
        case command_kind::param_kernel:
            d = param_value(d, src[i], c.mul, i);
            break;
        case command_kind::host_mix:
            d = host_mix_value(d, src[i], c.add);
            break;
        case command_kind::local_kernel:
            d = local_value(d, c.local);
            break;
        default:
            break;
        }
    }
}

std::vector<alloc_id> memory_model::races(const snapshot& s) {
    flat_graph f;
    flatten_into(s, f, -1);
    const auto order = topological_order(f);
    const auto n = f.commands.size();
    // Which nodes each node follows (transitively): bit sets, O(V^2 / 64) per edge.
    const std::size_t words = (n + 63) / 64;
    std::vector<std::vector<std::uint64_t>> before(n, std::vector<std::uint64_t>(words, 0));
    for (int v : order)
        for (int p : f.predecessors[v]) {
            for (std::size_t w = 0; w < words; ++w)
                before[v][w] |= before[p][w];
            before[v][p / 64] |= std::uint64_t{1} << (p % 64);
        }
    auto ordered = [&](std::size_t a, std::size_t b) {
        return (before[b][a / 64] >> (a % 64) & 1) || (before[a][b / 64] >> (b % 64) & 1);
    };
    std::vector<std::vector<alloc_id>> reads(n), writes(n);
    for (std::size_t v = 0; v < n; ++v)
        if (f.commands[v]) {
            f.commands[v]->reads(reads[v]);
            f.commands[v]->writes(writes[v]);
        }
    auto touches = [](const std::vector<alloc_id>& list, alloc_id a) {
        return std::find(list.begin(), list.end(), a) != list.end();
    };
    std::vector<alloc_id> racy;
    for (std::size_t a = 0; a < n; ++a)
        for (alloc_id w : writes[a])
            for (std::size_t b = 0; b < n; ++b)
                if (a != b && (touches(reads[b], w) || touches(writes[b], w)) && !ordered(a, b) &&
                    !touches(racy, w))
                    racy.push_back(w);
    return racy;
}

void memory_model::replay(const snapshot& s, std::vector<int>& thrown) {
    flat_graph f;
    flatten_into(s, f, -1);
    const auto racy = races(s);
    for (int v : topological_order(f))
        if (f.commands[v]) apply_one(*f.commands[v], racy, thrown);
    for (alloc_id a : racy)
        arrays_.at(a).known = false;
}

} // namespace fuzz

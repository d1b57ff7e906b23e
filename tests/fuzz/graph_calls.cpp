// The fuzz session's calls that build graphs: make and drop graphs, dynamic parameters, explicit add and
// make_edge, recording (begin/end, submissions to recording queues, transitive recording) and eager
// submission. Each works out from the model what the call must do (docs/sycl-graph.md: edges, recording
// rules, what is refused), makes it, and updates the model.
#include <algorithm>
#include <functional>
#include <random>

#include "fuzz_session.hpp"

namespace fuzz {

namespace {
// property::node::depends_on takes its nodes as arguments: a switch over how many (the generator uses at most
// 4).
sycl::property_list node_properties(const std::vector<sx::node>& d, bool all_leaves) {
    using sx::property::node::depends_on;
    using sx::property::node::depends_on_all_leaves;
    auto with = [&](auto... dependencies) {
        if (all_leaves) return sycl::property_list{dependencies..., depends_on_all_leaves{}};
        return sycl::property_list{dependencies...};
    };
    switch (d.size()) {
    case 0:
        return all_leaves ? sycl::property_list{depends_on_all_leaves{}} : sycl::property_list{};
    case 1:
        return with(depends_on(d[0]));
    case 2:
        return with(depends_on(d[0], d[1]));
    case 3:
        return with(depends_on(d[0], d[1], d[2]));
    case 4:
        return with(depends_on(d[0], d[1], d[2], d[3]));
    default:
        throw std::logic_error("node_properties: more than 4 dependencies");
    }
}

// Whether `from` reaches `to` along edges: depth-first search backwards from `to`, O(V+E).
bool reaches(const graph_model& g, int from, int to) {
    std::vector<bool> seen(g.nodes.size(), false);
    std::vector<int> stack{to};
    while (!stack.empty()) {
        int v = stack.back();
        stack.pop_back();
        if (v == from) return true;
        if (seen[v]) continue;
        seen[v] = true;
        for (int p : g.nodes[v].predecessors)
            stack.push_back(p);
    }
    return false;
}

std::set<int> leaves(const graph_model& g) {
    std::set<int> out;
    for (std::size_t v = 0; v < g.nodes.size(); ++v)
        out.insert(static_cast<int>(v));
    for (const auto& n : g.nodes)
        for (int p : n.predecessors)
            out.erase(p);
    return out;
}
} // namespace

std::string session::make_graph(const call& c) {
    auto& g = graphs_[c.graph];
    if (g.graph) return "skipped";
    g.graph.emplace(expect_ok("command_graph", [&] { return sx::command_graph{queues_[0]}; }));
    g.model = graph_model{};
    g.model.uid = next_uid_++;
    return "ok";
}

std::string session::drop_graph(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph) return "skipped";
    // Exception safety (sycl_ext_oneapi_graph): when the last copy of a modifiable graph goes, the queues
    // recording into it stop, as with end_recording(). Executable graphs made from it keep working.
    g.parameters.clear();
    g.groups.clear();
    g.nodes.clear();
    g.graph.reset();
    g.model = graph_model{};
    return "ok";
}

std::string session::make_parameter(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph) return "skipped";
    graph_model::parameter m;
    m.pointer = c.flag;
    if (c.flag) {
        if (!array_live(c.slot)) return "skipped";
        m.array = arrays_[c.slot].id;
        g.parameters.emplace_back(sx::dynamic_parameter<std::uint32_t*>(*g.graph, arrays_[c.slot].pointer));
    } else if (c.variant == 3) { // work-group local memory of a kernel object
        m.local = true;
        m.value = c.value % 16 + 1;
        g.parameters.emplace_back(sx::dynamic_local_accessor<std::uint32_t>(*g.graph, sycl::range<1>{m.value}));
    } else if (c.variant == 1) { // the kernel's scalar as bytes (sycl_ext_oneapi_raw_kernel_arg)
        m.value = c.value;
        m.raw = true;
        g.parameters.emplace_back(
            sx::dynamic_parameter<sx::raw_kernel_arg>(*g.graph, sx::raw_kernel_arg(&c.value, sizeof c.value)));
    } else {
        m.value = c.value;
        m.without_graph = c.variant == 2; // the generator only uses it in this graph, which it then joins
        if (m.without_graph)
            g.parameters.emplace_back(sx::dynamic_parameter<std::uint32_t>(c.value));
        else
            g.parameters.emplace_back(sx::dynamic_parameter<std::uint32_t>(*g.graph, c.value));
    }
    g.model.parameters.push_back(m);
    return "ok";
}

std::string session::update_parameter(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph || c.index < 0 || c.index >= static_cast<int>(g.parameters.size())) return "skipped";
    auto& m = g.model.parameters[c.index];
    if (m.pointer) {
        if (!array_live(c.slot)) return "skipped";
        expect_ok("dynamic_parameter::update",
                  [&] { std::get<0>(g.parameters[c.index]).update(arrays_[c.slot].pointer); });
        m.array = arrays_[c.slot].id;
    } else if (m.local) {
        const std::uint32_t elements = c.value % 16 + 1;
        expect_ok("dynamic_local_accessor::update",
                  [&] { std::get<3>(g.parameters[c.index]).update(sycl::range<1>{elements}); });
        m.value = elements;
    } else if (m.raw) {
        expect_ok("dynamic_parameter::update", [&] {
            std::get<2>(g.parameters[c.index]).update(sx::raw_kernel_arg(&c.value, sizeof c.value));
        });
        m.value = c.value;
    } else {
        expect_ok("dynamic_parameter::update", [&] { std::get<1>(g.parameters[c.index]).update(c.value); });
        m.value = c.value;
    }
    return "ok";
}

std::string session::add(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph) return "skipped";
    auto p = prepare(c.command);
    if (!p) return "skipped";
    std::vector<sx::node> dependencies;
    for (int n : c.nodes) {
        if (n < 0 || n >= static_cast<int>(g.nodes.size())) return "skipped";
        dependencies.push_back(g.nodes[n]);
    }
    const bool foreign = c.other_graph >= 0;
    if (foreign) {
        const auto& other = graphs_[c.other_graph];
        if (!other.graph || c.index < 0 || c.index >= static_cast<int>(other.nodes.size())) return "skipped";
        dependencies.push_back(other.nodes[c.index]);
    }
    if (dependencies.size() > 4) return "skipped";
    std::vector<sycl::event> events;
    std::set<int> predecessors(c.nodes.begin(), c.nodes.end());
    bool event_of_another_graph = false;
    for (int i : c.events) {
        if (i < 0 || i >= static_cast<int>(events_.size())) return "skipped";
        events.push_back(events_[i].event);
        if (events_[i].graph_uid == g.model.uid)
            predecessors.insert(events_[i].node);
        else
            event_of_another_graph = true;
    }
    if (c.flag) {
        auto l = leaves(g.model);
        predecessors.insert(l.begin(), l.end());
    }
    const bool invalid = !g.model.recorders.empty() || foreign || event_of_another_graph ||
                         p->uses_parameters_of_another_graph(g.model.uid) ||
                         (p->exec && execs_[c.command.exec].model.source_uid == g.model.uid);
    auto properties = node_properties(dependencies, c.flag);
    auto cgf = [&](sycl::handler& h) {
        h.depends_on(events);
        emit(h, *p);
    };
    if (invalid) {
        expect_invalid("add", [&] { g.graph->add(cgf, properties); });
        return "invalid";
    }
    auto n = expect_ok("add", [&] { return g.graph->add(cgf, properties); });
    g.nodes.push_back(n);
    p->node.predecessors = std::move(predecessors);
    g.model.nodes.push_back(std::move(p->node));
    return "ok";
}

std::string session::make_edge(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph || c.nodes.empty()) return "skipped";
    const int size = static_cast<int>(g.nodes.size());
    const int from = c.nodes[0];
    if (from < 0 || from >= size) return "skipped";
    const bool foreign = c.other_graph >= 0;
    sx::node* to_node = nullptr;
    int to = -1;
    if (foreign) {
        auto& other = graphs_[c.other_graph];
        if (!other.graph || c.index < 0 || c.index >= static_cast<int>(other.nodes.size())) return "skipped";
        to_node = &other.nodes[c.index];
    } else {
        if (c.nodes.size() < 2 || c.nodes[1] < 0 || c.nodes[1] >= size) return "skipped";
        to = c.nodes[1];
        to_node = &g.nodes[to];
    }
    // make_edge refuses: nodes of another graph, a recorded graph, a self edge, a duplicate edge, a cycle.
    const bool invalid = foreign || !g.model.recorders.empty() || from == to ||
                         g.model.nodes[to].predecessors.contains(from) || reaches(g.model, to, from);
    if (invalid) {
        expect_invalid("make_edge", [&] { g.graph->make_edge(g.nodes[from], *to_node); });
        return "invalid";
    }
    expect_ok("make_edge", [&] { g.graph->make_edge(g.nodes[from], *to_node); });
    g.model.nodes[to].predecessors.insert(from);
    return "ok";
}

std::string session::begin_recording(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph) return "skipped";
    // flag: the overload taking a vector of queues.
    auto begin = [&] {
        return c.flag ? g.graph->begin_recording(std::vector<sycl::queue>{queues_[c.queue]})
                      : g.graph->begin_recording(queues_[c.queue]);
    };
    const int recording = queue_recording(c.queue);
    if (recording >= 0 && recording != c.graph) {
        expect_invalid("begin_recording on a queue recording another graph", [&] { begin(); });
        return "invalid";
    }
    const bool changed = expect_ok("begin_recording", [&] { return begin(); });
    if (changed != (recording < 0))
        throw check_failure(std::string("begin_recording returned ") + (changed ? "true" : "false"));
    g.model.recorders.insert(c.queue);
    return "ok";
}

std::string session::end_recording(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph) return "skipped";
    // flag: the overload taking a vector of queues.
    auto end = [&] {
        return c.flag ? g.graph->end_recording(std::vector<sycl::queue>{queues_[c.queue]})
                      : g.graph->end_recording(queues_[c.queue]);
    };
    bool expected = false;
    bool changed = false;
    if (c.queue < 0) {
        expected = !g.model.recorders.empty();
        changed = expect_ok("end_recording", [&] { return g.graph->end_recording(); });
        g.model.recorders.clear();
    } else {
        const int recording = queue_recording(c.queue);
        if (recording >= 0 && recording != c.graph) {
            expect_invalid("end_recording(q) of a queue recording another graph", [&] { end(); });
            return "invalid";
        }
        expected = recording == c.graph;
        changed = expect_ok("end_recording(q)", [&] { return end(); });
        g.model.recorders.erase(c.queue);
    }
    if (changed != expected)
        throw check_failure(std::string("end_recording returned ") + (changed ? "true" : "false"));
    return "ok";
}

std::string session::submit(const call& c) {
    auto p = prepare(c.command);
    if (!p) return "skipped";
    std::vector<sycl::event> events;
    std::set<int> graphs_named; // uids of the graphs whose recorded events the call names
    for (int i : c.events) {
        if (i < 0 || i >= static_cast<int>(events_.size())) return "skipped";
        events.push_back(events_[i].event);
        graphs_named.insert(events_[i].graph_uid);
    }
    const bool eager_dependency = c.flag;
    if (eager_dependency) {
        if (pending_.empty()) return "skipped";
        events.push_back(pending_[c.value % pending_.size()].event);
    }
    auto& q = queues_[c.queue];
    auto cgf = [&](sycl::handler& h) {
        h.depends_on(events);
        emit(h, *p);
    };

    int slot = queue_recording(c.queue);
    if (slot < 0 && !graphs_named.empty()) {
        // Transitive queue recording: the queue joins the recording of the graph its events were recorded
        // into, unless they name two graphs, a graph that is gone or no longer recorded, or come with eager
        // work (refused before joining: the queue stays as it was).
        const int uid = *graphs_named.begin();
        const int joined = slot_of_graph(uid);
        if (graphs_named.size() > 1 || eager_dependency || joined < 0 ||
            graphs_[joined].model.recorders.empty()) {
            expect_invalid("submit depending on a recorded event, not joinable", [&] { q.submit(cgf); });
            return "invalid";
        }
        slot = joined;
        graphs_[slot].model.recorders.insert(c.queue);
    }
    if (slot >= 0) {
        auto& g = graphs_[slot];
        // Refused after joining (the queue stays recording): a parameter of another graph, the graph itself
        // as its own sub-graph. Refused for any recording queue: events of other graphs, eager events.
        const bool invalid =
            std::any_of(graphs_named.begin(), graphs_named.end(), [&](int u) { return u != g.model.uid; }) ||
            eager_dependency || p->uses_parameters_of_another_graph(g.model.uid) ||
            (p->exec && execs_[c.command.exec].model.source_uid == g.model.uid);
        if (invalid) {
            expect_invalid("recorded submit", [&] { q.submit(cgf); });
            return "invalid";
        }
        std::set<int> predecessors;
        for (int i : c.events)
            predecessors.insert(events_[i].node);
        if (is_in_order(c.queue) && g.model.last_in_order.contains(c.queue))
            predecessors.insert(g.model.last_in_order[c.queue]);
        auto e = expect_ok("recorded submit", [&] { return q.submit(cgf); });
        auto n = expect_ok("get_node_from_event", [&] { return sx::node::get_node_from_event(e); });
        const int index = static_cast<int>(g.nodes.size());
        g.nodes.push_back(n);
        p->node.predecessors = std::move(predecessors);
        g.model.nodes.push_back(std::move(p->node));
        if (is_in_order(c.queue)) g.model.last_in_order[c.queue] = index;
        events_.push_back({e, g.model.uid, index});
        return "ok (recorded)";
    }
    // Eager.
    if (p->param_graph_uid >= 0) {
        expect_invalid("eager submit with a dynamic_parameter", [&] { q.submit(cgf); });
        return "invalid";
    }
    if (!memory_.all_alive(p->model)) return "skipped";
    if (p->model.kind == command_kind::subgraph && !memory_model::races(*p->model.child).empty())
        return "skipped";
    std::vector<sycl::event> extra;
    if (eager_dependency) extra.push_back(events.back());
    run_eager(c.queue, *p, extra);
    return "ok (eager)";
}

std::string session::clone_graph(const call& c) {
    const auto& source = graphs_[c.graph];
    auto& target = graphs_[c.other_graph];
    if (!source.graph || target.graph || c.graph == c.other_graph) return "skipped";
    std::mt19937 random(c.value);
    auto live_array = [&](alloc_id wanted) -> alloc_id {
        if (memory_.alive(wanted)) return wanted;
        for (const auto& a : arrays_)
            if (a.id >= 0) return a.id;
        return -1;
    };
    // The copy's commands: the source's kinds, other constants (whole-graph update must carry them over).
    std::vector<prepared> commands;
    for (const auto& n : source.model.nodes) {
        prepared p;
        p.node.spec = n.spec;
        p.node.spec.param_graph = p.node.spec.src_param = p.node.spec.mul_param = p.node.spec.local_param = -1;
        p.node.spec.mul = random() | 1;
        p.node.spec.add = random() % 1000;
        p.node.spec.tag = 1'000'000 + c.command.tag * 1000 + static_cast<int>(commands.size());
        const auto r = resolve(source.model, n);
        if (writes_dst(r.kind) && (p.node.dst = live_array(r.dst)) < 0) return "skipped";
        if (reads_src(r.kind) && (p.node.src = live_array(r.src)) < 0) return "skipped";
        if (r.kind == command_kind::copy && p.node.src == p.node.dst) return "skipped";
        if (r.kind == command_kind::subgraph) {
            // The same executable graph, if it is still in its slot.
            auto it = std::find_if(execs_.begin(), execs_.end(), [&](const exec_slot& e) {
                return e.graph && e.model.commands.commands.size() == n.child->commands.size() &&
                       !topology_difference(e.model.commands, *n.child);
            });
            if (it == execs_.end()) return "skipped";
            p.exec = &*it->graph;
            p.node.child = std::make_shared<const snapshot>(it->model.commands);
        }
        commands.push_back(std::move(p));
    }
    std::vector<std::pair<int, int>> edges;
    for (std::size_t v = 0; v < source.model.nodes.size(); ++v)
        for (int from : source.model.nodes[v].predecessors)
            edges.emplace_back(from, static_cast<int>(v));
    std::sort(edges.begin(), edges.end());
    // Mutations that whole-graph update must refuse.
    if (c.variant == 1) commands.emplace_back();
    if (c.variant == 2)
        for (auto& p : commands)
            if (p.node.spec.kind == command_kind::scale) {
                p.node.spec.kind = command_kind::accumulate;
                p.node.src = p.node.dst;
                break;
            }
    if (c.variant == 3 && !edges.empty()) edges.erase(edges.begin() + random() % edges.size());

    target.graph.emplace(expect_ok("command_graph", [&] { return sx::command_graph{queues_[0]}; }));
    target.model = graph_model{};
    target.model.uid = next_uid_++;
    for (auto& p : commands) {
        auto& m = p.model;
        m = resolve(target.model, p.node);
        if (m.dst >= 0) p.dst = pointers_.at(m.dst);
        if (m.src >= 0) p.src = pointers_.at(m.src);
        auto n = expect_ok("add (clone)",
                           [&] { return target.graph->add([&](sycl::handler& h) { emit(h, p); }); });
        target.nodes.push_back(n);
        target.model.nodes.push_back(p.node);
    }
    for (const auto& edge : edges) {
        const int from = edge.first, to = edge.second; // named, not bound: lambdas capture them (clang < 16)
        expect_ok("make_edge (clone)",
                  [&] { target.graph->make_edge(target.nodes[from], target.nodes[to]); });
        target.model.nodes[to].predecessors.insert(from);
    }
    return "ok";
}

// Dynamic command groups: two kernels over the same arrays (an accumulate or a param kernel each), one active.
std::string session::make_group(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph) return "skipped";
    command_spec second = c.command;
    if (c.variant == 1)
        second.kind =
            second.kind == command_kind::accumulate ? command_kind::param_kernel : command_kind::accumulate;
    second.add = c.value;
    auto first = prepare(c.command);
    auto other = prepare(second);
    if (!first || !other || !is_kernel(first->model.kind) || !is_kernel(other->model.kind)) return "skipped";
    std::vector<std::function<void(sycl::handler&)>> groups{[&](sycl::handler& h) { emit(h, *first); },
                                                            [&](sycl::handler& h) { emit(h, *other); }};
    if (first->uses_parameters_of_another_graph(g.model.uid) || other->uses_parameters_of_another_graph(g.model.uid)) {
        expect_invalid("dynamic_command_group with another graph's parameter",
                       [&] { sx::dynamic_command_group(*g.graph, groups); });
        return "invalid";
    }
    g.groups.push_back(expect_ok("dynamic_command_group", [&] { return sx::dynamic_command_group(*g.graph, groups); }));
    graph_model::group m;
    m.members = {first->node, other->node};
    g.model.groups.push_back(std::move(m));
    return "ok";
}

std::string session::add_group(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph || c.index < 0 || c.index >= static_cast<int>(g.groups.size()) || c.nodes.size() > 4)
        return "skipped";
    std::vector<sx::node> dependencies;
    for (int n : c.nodes) {
        if (n < 0 || n >= static_cast<int>(g.nodes.size())) return "skipped";
        dependencies.push_back(g.nodes[n]);
    }
    std::set<int> predecessors(c.nodes.begin(), c.nodes.end());
    if (c.flag) {
        auto l = leaves(g.model);
        predecessors.insert(l.begin(), l.end());
    }
    auto properties = node_properties(dependencies, c.flag);
    if (!g.model.recorders.empty()) {
        expect_invalid("add(dynamic_command_group) while recording",
                       [&] { g.graph->add(g.groups[c.index], properties); });
        return "invalid";
    }
    auto n = expect_ok("add(dynamic_command_group)", [&] { return g.graph->add(g.groups[c.index], properties); });
    auto& group = g.model.groups[c.index];
    graph_model::node m = group.members[group.active];
    m.group = c.index;
    m.predecessors = std::move(predecessors);
    group.nodes.push_back(static_cast<int>(g.nodes.size()));
    g.nodes.push_back(n);
    g.model.nodes.push_back(std::move(m));
    return "ok";
}

std::string session::set_active(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph || c.index < 0 || c.index >= static_cast<int>(g.groups.size())) return "skipped";
    auto& group = g.model.groups[c.index];
    const auto which = static_cast<std::size_t>(c.value);
    if (which >= group.members.size()) {
        expect_invalid("set_active_index out of range", [&] { g.groups[c.index].set_active_index(which); });
        return "invalid";
    }
    expect_ok("set_active_index", [&] { g.groups[c.index].set_active_index(which); });
    group.active = static_cast<int>(which);
    g.model.sync_group(c.index);
    return "ok";
}

} // namespace fuzz

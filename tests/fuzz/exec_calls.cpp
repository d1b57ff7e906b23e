// The fuzz session's calls on executable graphs: finalize, launch (eagerly, or recorded as a sub-graph node),
// node and whole-graph update, node::update_range, and dropping an executable graph while its launches run.
#include "fuzz_session.hpp"

namespace fuzz {

std::string session::finalize(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph) return "skipped";
    sycl::property_list properties;
    if (c.flag) properties = sycl::property_list{sx::property::graph::updatable{}};
    auto exec = expect_ok("finalize", [&] { return g.graph->finalize(properties); });
    auto& e = execs_[c.exec];
    e.graph.emplace(std::move(exec)); // the one in the slot before goes; its launches still finish
    e.model = exec_model{next_uid_++, g.model.uid, c.flag, resolve_all(g.model)};
    return "ok";
}

std::string session::drop_exec(const call& c) {
    auto& e = execs_[c.exec];
    if (!e.graph) return "skipped";
    // SYCL: an executable graph destroyed while launches of it are in flight lets them finish (they stay in
    // pending_ and are checked at the next wait).
    e.graph.reset();
    e.model = exec_model{};
    return "ok";
}

std::string session::launch(const call& c) {
    auto& e = execs_[c.exec];
    if (!e.graph) return "skipped";
    auto& q = queues_[c.queue];
    auto submit = [&](const std::vector<sycl::event>& deps) {
        if (c.flag)
            return q.submit([&](sycl::handler& h) {
                h.depends_on(deps);
                h.ext_oneapi_graph(*e.graph);
            });
        return q.ext_oneapi_graph(*e.graph, deps);
    };
    resolved_command command;
    command.kind = command_kind::subgraph;
    command.child = std::make_shared<const snapshot>(e.model.commands);

    const int slot = queue_recording(c.queue);
    if (slot >= 0) {
        // Submitted to a recording queue: a sub-graph node holding the executable graph as it is now.
        if (inlined_size(e.model.commands) > max_inlined_nodes) return "skipped";
        auto& g = graphs_[slot];
        if (e.model.source_uid == g.model.uid) {
            expect_invalid("a graph as its own sub-graph", [&] { submit({}); });
            return "invalid";
        }
        std::set<int> predecessors;
        if (is_in_order(c.queue) && g.model.last_in_order.contains(c.queue))
            predecessors.insert(g.model.last_in_order[c.queue]);
        auto event = expect_ok("recorded ext_oneapi_graph", [&] { return submit({}); });
        auto n = expect_ok("get_node_from_event", [&] { return sx::node::get_node_from_event(event); });
        const int index = static_cast<int>(g.nodes.size());
        graph_model::node m;
        m.spec.kind = command_kind::subgraph;
        m.spec.exec = c.exec;
        m.child = command.child;
        m.predecessors = std::move(predecessors);
        g.nodes.push_back(n);
        g.model.nodes.push_back(std::move(m));
        if (is_in_order(c.queue)) g.model.last_in_order[c.queue] = index;
        events_.push_back({event, g.model.uid, index});
        return "ok (recorded)";
    }
    // A launch that would use freed memory, or whose nodes race (unordered, touching the same array), is a
    // program with undefined behaviour: not made.
    if (!memory_.all_alive(*command.child) || !memory_model::races(*command.child).empty()) return "skipped";
    const auto deps = eager_dependencies(command, c.queue, e.model.uid);
    auto event = expect_ok("ext_oneapi_graph", [&] { return submit(deps); });
    std::vector<int> thrown;
    memory_.apply(command, thrown);
    {
        std::lock_guard lock(errors_mutex_);
        expected_[c.queue].insert(thrown.begin(), thrown.end());
    }
    track(event, c.queue, e.model.uid, command);
    return "ok";
}

std::string session::update_nodes(const call& c) {
    auto& e = execs_[c.exec];
    const auto& g = graphs_[c.graph];
    if (!e.graph || !g.graph || c.nodes.empty()) return "skipped";
    std::vector<sx::node> nodes;
    bool added_after_finalize = false;
    for (int n : c.nodes) {
        if (n < 0 || n >= static_cast<int>(g.nodes.size())) return "skipped";
        nodes.push_back(g.nodes[n]);
        added_after_finalize |= n >= static_cast<int>(e.model.commands.commands.size());
    }
    // Refused, the executable graph unchanged: not updatable, nodes of another graph than its source, nodes
    // the source got after finalize.
    if (!e.model.updatable || g.model.uid != e.model.source_uid || added_after_finalize) {
        expect_invalid("update(nodes)", [&] { e.graph->update(nodes); });
        // The executable graph is unchanged: its next launch must still compute the model's results.
        return "invalid";
    }
    expect_ok("update(nodes)", [&] { e.graph->update(nodes); });
    for (int n : c.nodes)
        e.model.commands.commands[n] = resolve(g.model, g.model.nodes[n]);
    return "ok";
}

std::string session::update_whole(const call& c) {
    auto& e = execs_[c.exec];
    const auto& g = graphs_[c.graph];
    if (!e.graph || !g.graph) return "skipped";
    auto source = resolve_all(g.model);
    auto difference = topology_difference(e.model.commands, source);
    if (!e.model.updatable || difference) {
        expect_invalid("update(graph)", [&] { e.graph->update(*g.graph); });
        return e.model.updatable ? "invalid (" + *difference + ")" : "invalid (not updatable)";
    }
    expect_ok("update(graph)", [&] { e.graph->update(*g.graph); });
    e.model.commands.commands = std::move(source.commands);
    return "ok";
}

std::string session::update_range(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph || c.nodes.empty() || c.nodes[0] < 0 || c.nodes[0] >= static_cast<int>(g.nodes.size()))
        return "skipped";
    auto& node = g.nodes[c.nodes[0]];
    auto& model = g.model.nodes[c.nodes[0]];
    const std::size_t n = c.value;
    const std::size_t local = fuzz_local_range(c.value, c.variant == 3);
    // Kernel nodes take a range<1> or an nd_range<1> whatever they were made with (sycl_ext_oneapi_graph). A node
    // of a dynamic command group changes the group's active command group: every node of the group takes it.
    auto updated = [&] {
        if (model.group >= 0) {
            auto& group = g.model.groups[model.group];
            group.members[group.active].spec.count = c.value;
            g.model.sync_group(model.group);
        } else
            model.spec.count = c.value;
        return "ok";
    };
    const bool kernel = is_kernel(model.spec.kind);
    switch (c.variant) {
    case 0:
        if (!kernel) break;
        expect_ok("update_range", [&] { node.update_range(sycl::range<1>{n}); });
        return updated();
    case 1:
        expect_invalid("update_range with other dimensions", [&] { node.update_range(sycl::range<2>{n, 1}); });
        return "invalid";
    case 2:
        if (!kernel) break;
        expect_ok("update_nd_range", [&] { node.update_nd_range(sycl::nd_range<1>{{n}, {local}}); });
        return updated();
    default:
        if (!kernel) break;
        expect_error("update_nd_range whose local range does not divide the global range", sycl::errc::nd_range,
                     [&] { node.update_nd_range(sycl::nd_range<1>{{n}, {local}}); });
        return "nd_range error";
    }
    expect_invalid("update_range of a node that is not a kernel", [&] {
        if (c.variant == 0)
            node.update_range(sycl::range<1>{n});
        else
            node.update_nd_range(sycl::nd_range<1>{{n}, {local}});
    });
    return "invalid";
}

} // namespace fuzz

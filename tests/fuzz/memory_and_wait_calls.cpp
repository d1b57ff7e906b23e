// The fuzz session's calls on USM memory (allocate, free, freed pointers used again), on waiting (queues,
// events, everything with the full check of arrays and async errors), print_graph, and small misuses that
// must throw errc::invalid and change nothing.
#include <algorithm>
#include <cstdio>
#include <fstream>

#include "fuzz_session.hpp"

namespace fuzz {

// ---------------------------------------------------------------------------------------------------------------
// Memory.

std::string session::allocate(const call& c) {
    if (array_live(c.slot)) return "skipped";
    auto* p = expect_ok("malloc_shared",
                        [&] { return sycl::malloc_shared<std::uint32_t>(array_length, queues_[0]); });
    if (!p) throw check_failure("malloc_shared returned null");
    std::vector<std::uint32_t> initial(array_length);
    for (std::uint32_t i = 0; i < array_length; ++i)
        initial[i] = p[i] = next_fill_ * 1000 + i;
    ++next_fill_;
    arrays_[c.slot] = {memory_.allocate(std::move(initial)), p};
    pointers_[arrays_[c.slot].id] = p;
    return "ok";
}

std::string session::free_array(const call& c) {
    if (!array_live(c.slot)) return "skipped";
    const auto id = arrays_[c.slot].id;
    // SYCL's free does not wait: the program must wait for the work that uses the memory first.
    wait_pending([&](const pending_work& p) {
        return std::find(p.reads.begin(), p.reads.end(), id) != p.reads.end() ||
               std::find(p.writes.begin(), p.writes.end(), id) != p.writes.end();
    });
    expect_ok("free", [&] { sycl::free(arrays_[c.slot].pointer, queues_[0]); });
    freed_.push_back(arrays_[c.slot].pointer);
    memory_.release(id);
    pointers_.erase(id);
    arrays_[c.slot] = {};
    return "ok";
}

std::string session::free_twice(const call& c) {
    if (c.index < 0 || c.index >= static_cast<int>(freed_.size())) return "skipped";
    expect_invalid("free of a freed pointer", [&] { sycl::free(freed_[c.index], queues_[0]); });
    return "invalid";
}

std::string session::use_after_free(const call& c) {
    if (c.index < 0 || c.index >= static_cast<int>(freed_.size())) return "skipped";
    std::uint32_t* freed = freed_[c.index];
    std::uint32_t* live = nullptr;
    for (const auto& a : arrays_)
        if (a.pointer) live = a.pointer;
    if (!live) return "skipped";
    if (c.variant == 0) {
        if (queue_recording(c.queue) >= 0) return "skipped"; // would be a recording question, not a USM one
        expect_invalid("memcpy from freed memory", [&] { queues_[c.queue].memcpy(live, freed, 16); });
    } else if (c.variant == 1) {
        if (queue_recording(c.queue) >= 0) return "skipped";
        expect_invalid("fill of freed memory", [&] { queues_[c.queue].fill(freed, std::uint32_t{7}, 4); });
    } else {
        if (c.graph < 0 || !graphs_[c.graph].graph) return "skipped";
        auto& g = graphs_[c.graph];
        expect_invalid("add(memcpy into freed memory)",
                       [&] { g.graph->add([&](sycl::handler& h) { h.memcpy(freed, live, 16); }); });
    }
    return "invalid";
}

// ---------------------------------------------------------------------------------------------------------------
// Waiting.

std::string session::wait_queue(const call& c) {
    if (queue_recording(c.queue) >= 0) {
        expect_invalid("wait on a recording queue", [&] { queues_[c.queue].wait_and_throw(); });
        return "invalid";
    }
    expect_ok("wait_and_throw", [&] { queues_[c.queue].wait_and_throw(); });
    std::erase_if(pending_, [&](const pending_work& p) { return p.queue == c.queue; });
    check_errors(c.queue);
    check_arrays(false);
    return "ok";
}

std::string session::wait_all() {
    for (int q = 0; q < queue_count; ++q) {
        if (queue_recording(q) >= 0) {
            // A recording queue cannot be waited on: wait for its eager work's events, then take its errors.
            wait_pending([&](const pending_work& p) { return p.queue == q; });
            expect_ok("throw_asynchronous", [&] { queues_[q].throw_asynchronous(); });
        } else {
            expect_ok("wait_and_throw", [&] { queues_[q].wait_and_throw(); });
            std::erase_if(pending_, [&](const pending_work& p) { return p.queue == q; });
        }
        check_errors(q);
    }
    check_arrays(true);
    return "ok";
}

std::string session::wait_event(const call& c) {
    if (c.flag) {
        if (c.index < 0 || c.index >= static_cast<int>(events_.size())) return "skipped";
        expect_invalid("wait on a graph-limited event", [&] { events_[c.index].event.wait(); });
        return "invalid";
    }
    if (c.index < 0 || c.index >= static_cast<int>(pending_.size())) return "skipped";
    expect_ok("event::wait", [&] { pending_[c.index].event.wait(); });
    pending_.erase(pending_.begin() + c.index);
    return "ok";
}

// ---------------------------------------------------------------------------------------------------------------
// print_graph and small misuses.

std::string session::print_graph(const call& c) {
    auto& g = graphs_[c.graph];
    if (!g.graph) return "skipped";
    if (c.variant == 1) {
        expect_invalid("print_graph to a path not ending in .dot",
                       [&] { g.graph->print_graph("graph.txt", c.flag); });
        return "invalid";
    }
    const std::string path =
        "/tmp/encore-fuzz-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)) + ".dot";
    expect_ok("print_graph", [&] { g.graph->print_graph(path, c.flag); });
    // The DOT file has one line per node ("N[label=...") and one per edge ("a->b").
    std::ifstream in(path);
    std::size_t node_lines = 0;
    std::set<std::pair<int, int>> edges;
    for (std::string line; std::getline(in, line);) {
        int a = 0, b = 0;
        if (std::sscanf(line.c_str(), "%d->%d", &a, &b) == 2)
            edges.insert({a, b});
        else if (std::sscanf(line.c_str(), "%d[", &a) == 1)
            ++node_lines;
    }
    std::remove(path.c_str());
    std::set<std::pair<int, int>> expected;
    for (std::size_t v = 0; v < g.model.nodes.size(); ++v)
        for (int p : g.model.nodes[v].predecessors)
            expected.insert({p, static_cast<int>(v)});
    if (node_lines != g.model.nodes.size() || edges != expected)
        throw check_failure("print_graph wrote " + std::to_string(node_lines) + " nodes and " +
                            std::to_string(edges.size()) + " edges; the model has " +
                            std::to_string(g.model.nodes.size()) + " and " + std::to_string(expected.size()));
    return "ok";
}

std::string session::misuse(const call& c) {
    switch (c.variant) {
    case 0: { // ext_oneapi_get_graph: the recorded graph, or errc::invalid when the queue records nothing
        const int recording = queue_recording(c.queue);
        if (recording >= 0) return "ok"; // check_structure compares it
        expect_invalid("ext_oneapi_get_graph on an executing queue",
                       [&] { (void)queues_[c.queue].ext_oneapi_get_graph(); });
        return "invalid";
    }
    case 1: { // sycl_ext_oneapi_in_order_queue_events applies to in-order queues only
        if (is_in_order(c.queue) || pending_.empty()) return "skipped";
        expect_invalid("ext_oneapi_set_external_event on an out-of-order queue",
                       [&] { queues_[c.queue].ext_oneapi_set_external_event(pending_.back().event); });
        return "invalid";
    }
    case 2: { // an eager event stands for no node
        if (pending_.empty()) return "skipped";
        expect_invalid("get_node_from_event(eager event)",
                       [&] { (void)sx::node::get_node_from_event(pending_.back().event); });
        return "invalid";
    }
    case 3: { // barriers are recorded only
        if (c.graph < 0 || !graphs_[c.graph].graph) return "skipped";
        auto& g = graphs_[c.graph];
        expect_invalid("add(barrier)",
                       [&] { g.graph->add([](sycl::handler& h) { h.ext_oneapi_barrier(); }); });
        return "invalid";
    }
    case 4: { // one command per command group
        if (c.graph < 0 || !graphs_[c.graph].graph || !array_live(0)) return "skipped";
        auto& g = graphs_[c.graph];
        auto* d = arrays_[0].pointer;
        expect_invalid("add(two commands)", [&] {
            g.graph->add([&](sycl::handler& h) {
                h.single_task([=] { d[0] = 1; });
                h.single_task([=] { d[0] = 2; });
            });
        });
        return "invalid";
    }
    case 5: { // get_node_from_event: the node, while its graph lives
        if (c.index < 0 || c.index >= static_cast<int>(events_.size())) return "skipped";
        const auto& r = events_[c.index];
        if (!graph_alive(r.graph_uid)) {
            expect_invalid("get_node_from_event(event of a destroyed graph)",
                           [&] { (void)sx::node::get_node_from_event(r.event); });
            return "invalid";
        }
        auto n = expect_ok("get_node_from_event", [&] { return sx::node::get_node_from_event(r.event); });
        const int slot = slot_of_graph(r.graph_uid);
        if (slot >= 0 && !(n == graphs_[slot].nodes.at(r.node)))
            throw check_failure("get_node_from_event(ev[" + std::to_string(c.index) + "]) is not g" +
                                std::to_string(slot) + ".n[" + std::to_string(r.node) + "]");
        return "ok";
    }
    case 6: { // set_arg at an index the kernel object does not have: refused at add, the graph unchanged
        if (c.graph < 0 || !graphs_[c.graph].graph || !array_live(0)) return "skipped";
        auto& g = graphs_[c.graph];
        auto* d = arrays_[0].pointer;
        expect_invalid("add(set_arg past the kernel's arguments)", [&] {
            g.graph->add([&](sycl::handler& h) {
                h.set_args(d, d, std::uint32_t{1});
                h.set_arg(3, c.index);
                h.parallel_for(sycl::range<1>{1}, param_kernel_object());
            });
        });
        return "invalid";
    }
    case 7: { // set_arg before a lambda kernel: only encore++ decomposes lambdas (refused in a g++ build)
        if (c.graph < 0 || !graphs_[c.graph].graph || !array_live(0)) return "skipped";
        auto& g = graphs_[c.graph];
        auto* d = arrays_[0].pointer;
        expect_invalid("add(set_arg before a lambda kernel)", [&] {
            g.graph->add([&](sycl::handler& h) {
                h.set_arg(0, d);
                h.parallel_for(sycl::range<1>{1}, [=](sycl::id<1> i) { d[i] = 0; });
            });
        });
        return "invalid";
    }
    default:
        return "skipped";
    }
}

} // namespace fuzz

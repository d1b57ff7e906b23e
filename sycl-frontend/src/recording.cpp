// The recording state of queues (sycl_ext_oneapi_graph "Queue State", "Transitive Queue Recording"): which graph a
// queue records into, how a queue enters and leaves that state, and the edges a recorded command gets from its
// queue. The rules are written down in docs/sycl-graph.md, "Recording rules".
//
// Lock order, everywhere: a graph's mutex, then a queue's mutex.
#include <algorithm>
#include <string>

#include "sycl/detail/engine_error.hpp"
#include "sycl/detail/graph_impl.hpp"
#include "sycl/detail/queue_impl.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

namespace {
std::string graph_name(const graph_impl& g) { return "graph " + std::to_string(g.g.id()); }
} // namespace

bool start_recording(graph_impl& g, queue_impl& q, const char* call, bool joined) {
    if (!(q.ctx == g.ctx) || (!(q.dev == g.dev) && !g.multi_device))
        throw exception(errc::invalid, std::string(call) + ": the queue's device and context must be the graph's (" +
                                           graph_name(g) + ")");
    if (!(q.dev == g.dev)) g.device_slot(q.dev, call); // a multi-device graph: refuses another backend's device
    {
        std::lock_guard queue_lock(q.mutex);
        if (q.recording.get() == &g) return false;
        if (q.recording)
            throw exception(errc::invalid, std::string(call) + ": the queue is recording another graph (" +
                                               graph_name(*q.recording) + ", not " + graph_name(g) +
                                               "); a queue records into one graph at a time");
        q.recording = g.shared_from_this();
    }
    std::erase_if(g.recorders, [](const auto& r) { return r.expired(); });
    if (g.native && !g.session) {
        try {
            graph_impl::native_session session;
            session.capture =
                translate_errors([&] { return std::make_unique<::encore::native_recording>(g.dev.engine()); });
            session.id = ++g.sessions_started;
            g.session = std::move(session);
        } catch (...) {
            std::lock_guard queue_lock(q.mutex);
            q.recording.reset();
            throw;
        }
    }
    if (g.session) g.session->queues[q.weak_from_this()].joined = joined;
    // Forget the queues that are gone, so that histories does not grow with every short-lived queue.
    std::erase_if(g.histories, [](const auto& entry) { return entry.first.expired(); });
    if (g.recorders.empty())
        for (auto& [buffer, use] : g.buffers) buffer->add_recording_use(1);
    g.recorders.push_back(q.weak_from_this());
    return true;
}

std::shared_ptr<graph_impl> join_recording_through(queue_impl& q, std::span<const event> dependencies) {
    std::shared_ptr<graph_impl> graph;
    bool eager_work = false;
    for (const auto& e : dependencies) {
        const auto& r = e.recorded();
        eager_work |= !r && e.engine().state();
        if (!r) continue;
        auto g = r->graph.lock();
        if (!g)
            throw exception(errc::invalid, "depends_on: the event was returned while recording a graph that no "
                                           "longer exists");
        if (graph && g != graph)
            throw exception(errc::invalid, "depends_on: the events were returned while recording two graphs (" +
                                               graph_name(*graph) + " and " + graph_name(*g) +
                                               "); one command group is recorded into one graph");
        graph = std::move(g);
    }
    if (!graph) return nullptr;
    // Refused before joining (graph_impl::add_locked would refuse it after), so the queue stays as it was.
    if (eager_work)
        throw exception(errc::invalid, "depends_on: a graph node can only depend on events returned while recording "
                                       "into the same graph, not on eager work (wait for that event before, or "
                                       "record the work into the graph)");
    std::lock_guard lock(graph->mutex);
    // Only a graph being recorded can be joined: its end_recording() is what ends the joining queue's recording.
    const bool recorded_now =
        std::any_of(graph->recorders.begin(), graph->recorders.end(), [](const auto& r) { return !r.expired(); });
    if (!recorded_now)
        throw exception(errc::invalid, "depends_on: the event was returned while recording a graph (" +
                                           graph_name(*graph) +
                                           ") that no queue records any more; such an event can only order "
                                           "submissions recorded into that graph");
    start_recording(*graph, q, "depends_on (transitive queue recording)", true);
    return graph;
}

namespace {
// record_submission for a graph made with property::graph::enable_native_recording: the backend captures the
// command now. Under g.mutex.
event capture_submission(graph_impl& g, queue_impl& q, handler& h) {
    auto& c = h.contents();
    auto& session = *g.session;
    auto refuse = [](const std::string& what) {
        throw exception(errc::feature_not_supported,
                        "queue::submit: " + what +
                            " cannot be captured by native recording (property::graph::enable_native_recording); "
                            "record it into a graph made without the property");
    };
    if (c.executable) refuse("a sub-graph (ext_oneapi_graph)");
    if (c.allocation || c.frees) refuse("async_malloc / async_free (graph-owned allocations)");
    if (!c.requirements.empty()) refuse("a command group with buffer accessors (the runtime moves buffer data)");
    if (!c.dynamic_arguments.empty() || !c.dynamic_requirements.empty())
        refuse("a kernel with dynamic_parameter arguments (captured commands are not updated one by one)");
    if (c.command && std::holds_alternative<::encore::host_task_command>(*c.command))
        refuse("a host task (the driver's graph replays without the runtime)");

    std::vector<std::uint32_t> after;
    for (const auto& e : c.dependencies) {
        const auto& r = e.recorded();
        if (!r) {
            if (e.engine().state())
                throw exception(errc::invalid, "depends_on: a natively recorded command can only depend on events "
                                               "returned while recording the same session, not on eager work");
            continue;
        }
        if (r->graph.lock().get() != &g)
            throw exception(errc::invalid, "depends_on: the event was returned while recording another graph than " +
                                               graph_name(g));
        if (r->session != session.id)
            throw exception(errc::invalid, "depends_on: the event was returned " +
                                               std::string(r->session ? "by an earlier native recording session"
                                                                      : "for an explicitly added node") +
                                               " of " + graph_name(g) +
                                               "; a natively captured command can only depend on commands captured "
                                               "in the same session (sessions run one after the other)");
        after.push_back(r->index);
    }
    auto& state = session.queues[q.weak_from_this()];
    const bool in_order = q.engine.is_in_order();
    if (in_order && state.last_in_order) after.push_back(*state.last_in_order);
    if (state.barrier && !c.barrier_on_everything) after.push_back(*state.barrier);
    if (c.barrier_on_everything) after.insert(after.end(), state.captured.begin(), state.captured.end());
    ::encore::command command = c.command ? std::move(*c.command) : ::encore::command(::encore::empty_command{});
    const bool is_barrier = std::holds_alternative<::encore::barrier_command>(command);
    const auto number = translate_errors([&] { return session.capture->capture(std::move(command), after); });
    session.predecessors.resize(number + 1);
    session.predecessors[number] = std::move(after);
    if (in_order) state.last_in_order = number;
    if (is_barrier) state.barrier = number;
    state.captured.push_back(number);
    return event(std::make_shared<const recorded_node>(recorded_node{g.weak_from_this(), number, session.id}),
                 q.dev.get_backend());
}

// The last queue stopped: the captured graph becomes one node, after the previous session's.
void end_native_session(graph_impl& g) {
    auto session = std::move(*g.session);
    g.session.reset();
    auto captured = translate_errors([&] { return session.capture->end(); });
    std::vector<::encore::node> after;
    if (g.last_session_node) after.push_back(g.g.node_at(*g.last_session_node));
    const auto index = translate_errors([&] { return g.g.add(std::move(captured), after).index; });
    g.recorded_by.push_back(nullptr);
    g.session_nodes[session.id] = index;
    g.last_session_node = index;
}
} // namespace

void require_joined_forks(const graph_impl& g, const queue_impl* stopping, const char* call) {
    if (!g.session) return;
    const auto& s = *g.session;
    auto joined_queue = [&](const std::shared_ptr<queue_impl>& q) {
        auto it = s.queues.find(q);
        return it != s.queues.end() && it->second.joined;
    };
    if (stopping)
        for (const auto& r : g.recorders) // another queue that began the recording goes on: nothing ends yet
            if (auto other = r.lock(); other && other.get() != stopping && !joined_queue(other)) return;
    // Ancestors-or-self of what the queues that began the recording captured: numbers only grow along edges, so
    // one pass from the last capture down marks them all, O(commands + edges).
    std::vector<bool> joined(s.predecessors.size(), false);
    for (const auto& [queue, state] : s.queues)
        if (!state.joined)
            for (auto c : state.captured) joined[c] = true;
    for (std::size_t c = joined.size(); c-- > 0;)
        if (joined[c])
            for (auto p : s.predecessors[c]) joined[p] = true;
    for (const auto& [queue, state] : s.queues) // a fork destroyed while recording ended its part unchecked
        if (state.joined && !queue.expired() && !state.captured.empty() && !joined[state.captured.back()])
            throw exception(errc::runtime,
                            std::string(call) + ": a queue that joined the native recording of " + graph_name(g) +
                                " through an event (a fork) was never joined back: no command of a queue that began "
                                "the recording depends on its last command (captured command " +
                                std::to_string(state.captured.back()) +
                                "); make one depend on that command's event, then end the recording");
}

void refuse_if_native(const graph_impl& g, const char* what) {
    if (g.native)
        throw exception(errc::feature_not_supported,
                        std::string(what) + ": graph " + std::to_string(g.g.id()) +
                            " was made with property::graph::enable_native_recording, whose commands the backend "
                            "captures itself; such a graph takes only recorded commands, and is not updatable");
}

std::uint32_t node_of_event(const graph_impl& g, const recorded_node& e, const char* call) {
    if (e.session == 0) return e.index;
    auto it = g.session_nodes.find(e.session);
    if (it == g.session_nodes.end())
        throw exception(errc::invalid, std::string(call) + ": the event was returned while natively recording " +
                                           graph_name(g) + ", whose session has not ended; its node exists once "
                                           "end_recording has stopped the last recording queue");
    return it->second;
}

event record_submission(graph_impl& g, queue_impl& q, handler& h) {
    std::lock_guard lock(g.mutex);
    {
        // queue_impl::finish read the queue's graph before taking g.mutex: an end_recording may have come between.
        std::lock_guard queue_lock(q.mutex);
        if (q.recording.get() != &g)
            throw exception(errc::invalid, "queue::submit: the queue stopped recording " + graph_name(g) +
                                               " while the command group was submitted (end_recording raced with "
                                               "the submission)");
    }
    if (g.native) return capture_submission(g, q, h);
    const bool in_order = q.engine.is_in_order();
    const bool is_barrier =
        h.contents().command && std::holds_alternative<::encore::barrier_command>(*h.contents().command);
    // The reference stays valid: add_locked does not touch histories.
    auto& history = g.histories[q.weak_from_this()];
    std::vector<std::uint32_t> predecessors;
    if (in_order && history.last_in_order) predecessors.push_back(*history.last_in_order);
    // Only what is recorded from this queue after a barrier depends on it (a barrier without events reaches the
    // previous one through the queue's leaves already).
    if (history.barrier && !h.contents().barrier_on_everything) predecessors.push_back(*history.barrier);
    auto index = g.add_locked(h, std::move(predecessors), &q);
    if (in_order) history.last_in_order = index;
    if (is_barrier) history.barrier = index;
    return event(std::make_shared<const recorded_node>(recorded_node{g.weak_from_this(), index}), q.dev.get_backend());
}

void stop_recording(graph_impl& g, queue_impl& q) {
    {
        std::lock_guard lock(q.mutex);
        q.recording.reset();
    }
    std::erase_if(g.recorders, [&](const std::weak_ptr<queue_impl>& r) {
        auto s = r.lock();
        return !s || s.get() == &q;
    });
    if (g.recorders.empty()) {
        for (auto& [buffer, use] : g.buffers) buffer->add_recording_use(-1);
        if (g.session) end_native_session(g);
    }
}

} // namespace detail
} // namespace _V1
} // namespace sycl

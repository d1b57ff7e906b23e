#include "executable_graph.hpp"

#include <algorithm>
#include <iterator>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include "encore/backends/detail/completion_event.hpp"
#include "encore/runtime/detail/flatten.hpp"
#include "encore/backends/detail/host_task_pool.hpp"
#include "encore/backends/detail/trace_recorder.hpp"
#include "encore/runtime/detail/queue_state.hpp"
#include "encore/graph/compact_adjacency.hpp"
#include "encore/graph/error.hpp"
#include "encore/graph/topology.hpp"

namespace encore {

namespace {

std::string describe(const device& d) {
    return "device '" + d.properties().name + "' of backend '" + std::string(d.backend_name()) + "'";
}

// SYCL's rules for updating a kernel node: the same kernel, and a range of the same dimensionality.
void check_kernel_update(const std::string& node, const command& old_command, const command& new_command) {
    const auto* before = std::get_if<kernel_command>(&old_command);
    const auto* after = std::get_if<kernel_command>(&new_command);
    if (!before || !after) return;
    if (before->kernel->name() != after->kernel->name())
        throw error(errc::invalid_argument, "update of " + node + ": the kernel must stay '" +
                                                before->kernel->name() + "'; '" + after->kernel->name() +
                                                "' was given");
    if (before->range.dimensions != after->range.dimensions)
        throw error(errc::invalid_argument, "update of " + node + ": the range must keep " +
                                                std::to_string(before->range.dimensions) + " dimensions; " +
                                                std::to_string(after->range.dimensions) + " were given");
}

// The device list of a multi-device graph, checked against `g`.
std::vector<device> checked_devices(const graph& g, std::vector<device> devices) {
    if (devices.empty()) throw error(errc::invalid_argument, "finalize: no device was given");
    for (const auto& d : devices)
        if (&d.owner() != &devices[0].owner())
            throw error(errc::invalid_argument,
                        "finalize: a multi-device graph runs on devices of one backend; " + describe(devices[0]) +
                            " and " + describe(d) + " were given");
    const std::uint32_t needed = g.device_slots();
    if (needed > devices.size()) {
        const auto& s = g.boost_graph();
        std::uint32_t v = 0;
        while (s[v].device_slot < devices.size()) ++v;
        throw error(errc::invalid_argument, "finalize: " + g.describe(v) + " runs on device slot " +
                                                std::to_string(s[v].device_slot) + ", and " +
                                                std::to_string(devices.size()) + " device(s) were given");
    }
    return devices;
}

} // namespace

struct executable_graph::impl {
    impl(const graph& g, std::vector<device> devices, const finalize_options& options)
        : devs(checked_devices(g, std::move(devices))), source_id(g.id()), original(g),
          flat(detail::flatten(original)) {
        // One compact copy of the edges serves the topological sort and the partitioner.
        const graph& fg = flattened();
        const compact_adjacency adjacency(fg);
        order = topological_order(fg, adjacency, options.order);
        parts = options.partitioning ? partition_graph(adjacency, order, *options.partitioning)
                                     : partition_graph(adjacency, order);
        lowered.resize(parts.partitions.size());
        for (std::size_t p = 0; p < parts.partitions.size(); ++p)
            if (!parts.partitions[p].host_task) {
                const device& d = devs[parts.partitions[p].device_slot];
                lowered[p] = d.owner().lower(d.index(), fg, parts.partitions[p]);
            }
    }

    // What was partitioned and lowered: `original` itself unless it has subgraph nodes.
    graph& flattened() { return flat.of(original); }

    ~impl() {
        if (last) last->wait();
    }

    // Locks `mutex` once no launch is in flight; a launch may still be started between the wait and the lock,
    // hence the loop.
    std::unique_lock<std::mutex> lock_idle() {
        std::unique_lock lock(mutex);
        while (last && last->status() != event_status::complete) {
            auto in_flight = last;
            lock.unlock();
            in_flight->wait();
            lock.lock();
        }
        return lock;
    }

    // Under `mutex`, while idle: flat node `v` gets command `c` in its partition's lowered form, which throws
    // before anything changed when the backend refuses it.
    void lower_update(std::uint32_t v, const command& c) {
        auto p = parts.partition_of[v];
        if (lowered[p]) lowered[p]->update(v, c);
    }

    // Under `mutex`, while idle: every flat node v gets commands[v], lowered first, then in the flat graph,
    // where host tasks are read at each launch and a backend may read its nodes' commands again (backend.hpp).
    // All or nothing: when the backend refuses one, the nodes updated before it get their commands back from
    // the flat graph (the backend took them before) and the error propagates. Without subgraph nodes the flat
    // graph is `original`; otherwise the caller updates that too.
    void apply(std::span<const std::pair<std::uint32_t, const command*>> commands) {
        graph& fg = flattened();
        std::size_t done = 0;
        try {
            for (; done < commands.size(); ++done)
                lower_update(commands[done].first, *commands[done].second);
        } catch (...) {
            for (std::size_t i = 0; i < done; ++i)
                lower_update(commands[i].first, fg.command_at(fg.node_at(commands[i].first)));
            throw;
        }
        for (auto [v, c] : commands)
            fg.replace_command(fg.node_at(v), *c);
    }

    node original_node(node n) const {
        if (n.graph_id != source_id)
            throw error(errc::foreign_node, "update: node " + std::to_string(n.index) +
                                                " does not belong to the graph this executable graph was "
                                                "finalized from");
        return original.node_at(n.index); // throws unknown_node
    }

    std::vector<device> devs; // slot -> device; the first is get_device()
    std::uint64_t source_id;
    graph original;          // the snapshot, with the user's node numbering
    detail::flat_graph flat; // its subgraph nodes inlined, when it has any
    std::vector<std::uint32_t> order;
    partitioning parts;
    std::vector<std::unique_ptr<backend_executable>> lowered; // null for host-task partitions

    // The trace this graph was last launched under (profiler.hpp) and its number there; the trace gets a
    // snapshot of the graph at its first launch under it.
    detail::trace_session* traced_in = nullptr;
    std::uint32_t trace_graph = 0;
    std::uint32_t trace_process = 0;
    // Under `mutex`: the label of a new launch under `session`.
    detail::trace_launch_label trace_launch(detail::trace_session& session) {
        if (traced_in != &session) {
            const graph& fg = flattened();
            detail::trace_graph_record record;
            record.graph_id = source_id;
            record.flat = detail::trace_snapshot(fg);
            record.partition_of.assign(parts.partition_of.begin(), parts.partition_of.end());
            record.partitions = static_cast<std::uint32_t>(parts.partitions.size());
            record.process = trace_process =
                session.device_process(devs[0].backend_name(), devs[0].index(), devs[0].properties().name);
            trace_graph = session.add_graph(std::move(record));
            traced_in = &session;
        }
        return {&session, session.new_launch(trace_graph), 0, trace_process};
    }

    // The slot whose partitions run on the launching queue `q` (the first slot of its device), or none.
    static constexpr std::uint32_t no_slot = ~std::uint32_t{0};
    std::uint32_t slot_of(const detail::queue_state& q) const {
        for (std::uint32_t i = 0; i < devs.size(); ++i)
            if (devs[i] == q.dev) return i;
        return no_slot;
    }
    // Under `mutex`: the queue that runs slot `slot`'s partitions of a launch on `q`: `q` itself for its own
    // slot, else an in-order queue of that slot's device kept for launches from queues with q's error sink and
    // profiling (made at the first such launch).
    backend_queue& queue_for(detail::queue_state& q, std::uint32_t q_slot, std::uint32_t slot) {
        if (slot == q_slot) return *q.backend;
        const bool profiling = q.properties.enable_profiling;
        auto it = std::find_if(side_queues.begin(), side_queues.end(), [&](const side_queue_set& set) {
            return set.errors == q.errors && set.profiling == profiling;
        });
        if (it == side_queues.end()) {
            side_queues.push_back({q.errors, profiling, {}});
            side_queues.back().queues.resize(devs.size());
            it = std::prev(side_queues.end());
        }
        auto& made = it->queues[slot];
        if (!made)
            made = devs[slot].owner().create_queue(
                devs[slot].index(), queue_properties{.in_order = true, .enable_profiling = profiling}, q.errors);
        return *made;
    }
    struct side_queue_set {
        std::shared_ptr<detail::error_collector> errors;
        bool profiling = false;
        std::vector<std::unique_ptr<backend_queue>> queues; // per slot; null for slots not used yet
    };
    std::vector<side_queue_set> side_queues;

    std::mutex mutex;
    event_ptr last;                          // the latest launch
    std::vector<event_ptr> partition_events; // per launch, reused
};

executable_graph::executable_graph(const graph& g, const device& d, finalize_options options)
    : impl_(std::make_unique<impl>(g, std::vector<device>{d}, options)) {}

executable_graph::executable_graph(const graph& g, std::vector<device> devices, finalize_options options)
    : impl_(std::make_unique<impl>(g, std::move(devices), options)) {}

executable_graph::~executable_graph() = default;
executable_graph::executable_graph(executable_graph&&) noexcept = default;
executable_graph& executable_graph::operator=(executable_graph&&) noexcept = default;

const device& executable_graph::get_device() const noexcept {
    return impl_->devs[0];
}
const std::vector<device>& executable_graph::devices() const noexcept {
    return impl_->devs;
}
std::size_t executable_graph::size() const noexcept {
    return impl_->flattened().size();
}
const partitioning& executable_graph::partitions() const noexcept {
    return impl_->parts;
}

namespace {
// A host-task node of a traced launch: timed on the host thread that runs it.
std::function<void()> traced_host_task(const std::function<void()>* task, detail::trace_launch_label label,
                                       std::uint32_t node) {
    return [task, label, node] {
        detail::trace_record r;
        r.kind = detail::trace_record_kind::host_task;
        r.process = detail::trace_session::host_process;
        r.node = node;
        r.launch = label.launch;
        detail::run_timed(*label.session, std::move(r), "host task thread", *task);
    };
}
} // namespace

event_ptr executable_graph::launch(detail::queue_state& q, std::vector<event_ptr> wait_list) {
    auto& s = *impl_;
    const std::uint32_t q_slot = s.slot_of(q);
    if (q_slot == impl::no_slot) {
        std::string finalized_for = describe(s.devs[0]);
        for (std::size_t i = 1; i < s.devs.size(); ++i) finalized_for += ", " + describe(s.devs[i]);
        throw error(errc::invalid_argument, "launch: the executable graph was finalized for " + finalized_for +
                                                "; the queue is on " + describe(q.dev));
    }
    std::lock_guard lock(s.mutex);
    if (s.last && s.last->status() != event_status::complete) wait_list.push_back(s.last);
    const bool profiling = q.properties.enable_profiling;
    const auto count = s.parts.partitions.size();
    // Off, the profiler's whole cost here is this load (profiler.hpp).
    detail::trace_launch_label trace;
    if (auto* session = detail::tracing()) [[unlikely]]
        trace = s.trace_launch(*session);
    auto launch_lowered = [&](std::size_t p, std::span<const event_ptr> after) {
        const std::uint32_t slot = s.parts.partitions[p].device_slot;
        backend_queue& on = s.queue_for(q, q_slot, slot);
        if (!trace.session) [[likely]]
            return s.lowered[p]->launch(on, after);
        trace.partition = static_cast<std::uint32_t>(p);
        const device& d = s.devs[slot];
        trace.process = slot == 0 ? s.trace_process
                                  : trace.session->device_process(d.backend_name(), d.index(), d.properties().name);
        event_ptr e;
        {
            const detail::trace_launch_scope scope(&trace);
            e = s.lowered[p]->launch(on, after);
        }
        if (!detail::backend_times_nodes(d.backend_name()))
            detail::trace_from_event(*trace.session, e, trace, &on, d.backend_name());
        return e;
    };
    event_ptr result;
    if (count == 0) {
        result = detail::join_events(std::move(wait_list), profiling, detail::join_kind::dependencies);
    } else if (count == 1 && s.lowered[0]) {
        result = launch_lowered(0, wait_list);
    } else {
        // Partitions are numbered in topological order: each one's predecessors already have their events.
        s.partition_events.assign(count, nullptr);
        std::vector<event_ptr> predecessors;
        for (std::size_t p = 0; p < count; ++p) {
            const partition& part = s.parts.partitions[p];
            std::span<const event_ptr> after = wait_list;
            if (!part.predecessors.empty()) {
                predecessors.clear();
                for (auto q_index : part.predecessors)
                    predecessors.push_back(s.partition_events[q_index]);
                after = predecessors;
            }
            if (part.host_task) {
                const auto* task =
                    &std::get<host_task_command>(s.flattened().boost_graph()[part.nodes[0]].command).task;
                s.partition_events[p] =
                    trace.session
                        ? detail::launch_host_task(traced_host_task(task, trace, part.nodes[0]), after,
                                                   q.errors, profiling)
                        : detail::launch_host_task([task] { (*task)(); }, after, q.errors, profiling);
            } else {
                s.partition_events[p] = launch_lowered(p, after);
            }
        }
        result = detail::join_events(s.partition_events, profiling, detail::join_kind::parts);
    }
    s.last = result;
    return result;
}

void executable_graph::update(node n, command c) {
    update_node(n, std::move(c), true);
}

void executable_graph::replace(node n, command c) {
    update_node(n, std::move(c), false);
}

void executable_graph::update_node(node n, command c, bool same_kernel) {
    auto& s = *impl_;
    node original = s.original_node(n);
    if (kind_of(c) != s.original.kind(original))
        throw error(errc::invalid_argument, "update of " + s.original.describe(original) + ": a " +
                                                std::string(to_string(kind_of(c))) + " command was given");
    validate(c);
    if (same_kernel) check_kernel_update(s.original.describe(original), s.original.command_at(original), c);
    if (kind_of(c) == command_kind::subgraph) {
        // The child's nodes change: the whole-graph path checks their shape and updates each one.
        graph updated = s.original;
        updated.replace_command(updated.node_at(original.index), std::move(c));
        return update(updated);
    }
    auto lock = s.lock_idle();
    const std::pair<std::uint32_t, const command*> one{s.flat.nodes_of(original.index).first, &c};
    s.apply({&one, 1});
    if (s.flat.inlined) s.original.replace_command(original, std::move(c));
}

namespace {
// The kernel command of node n of the finalized-from graph, for the kernel-only shorthands of update().
kernel_command kernel_command_of(const graph& original, node n, const char* call) {
    const auto* k = std::get_if<kernel_command>(&original.command_at(n));
    if (!k) throw error(errc::invalid_argument, std::string(call) + ": " + original.describe(n) + " is not a kernel node");
    return *k;
}
} // namespace

void executable_graph::update_arguments(node n, std::vector<kernel_argument> arguments) {
    auto& s = *impl_;
    kernel_command updated = kernel_command_of(s.original, s.original_node(n), "update_arguments");
    updated.arguments = std::move(arguments);
    update(n, std::move(updated));
}

void executable_graph::update_range(node n, const nd_range& range) {
    auto& s = *impl_;
    kernel_command updated = kernel_command_of(s.original, s.original_node(n), "update_range");
    updated.range = range;
    update(n, std::move(updated));
}

void executable_graph::update(const graph& g) {
    auto& s = *impl_;
    require_same_topology(s.original, g);
    const auto updated = detail::flatten(g);
    const graph& flat_update = updated.of(g);
    const graph& flat = s.flattened();
    require_same_topology(flat, flat_update); // the children of subgraph nodes too
    const auto& from = flat_update.boost_graph();
    for (std::uint32_t v = 0; v < flat_update.size(); ++v) {
        check_kernel_update(flat.describe(v), flat.boost_graph()[v].command, from[v].command);
        if (from[v].device_slot != flat.boost_graph()[v].device_slot)
            throw error(errc::invalid_argument,
                        "update of " + flat.describe(v) + ": it runs on device slot " +
                            std::to_string(flat.boost_graph()[v].device_slot) + ", the update places it on slot " +
                            std::to_string(from[v].device_slot) + " (a node keeps its device)");
    }
    std::vector<std::pair<std::uint32_t, const command*>> commands;
    commands.reserve(flat_update.size());
    for (std::uint32_t v = 0; v < flat_update.size(); ++v)
        commands.emplace_back(v, &from[v].command);
    auto lock = s.lock_idle();
    s.apply(commands);
    if (s.flat.inlined)
        for (std::uint32_t v = 0; v < g.size(); ++v)
            s.original.replace_command(s.original.node_at(v), g.command_at(g.node_at(v)));
}

} // namespace encore

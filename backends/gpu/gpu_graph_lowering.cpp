#include "gpu_graph_lowering.hpp"

#include <algorithm>
#include <mutex>

#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/backends/gpu/gpu_event.hpp"
#include "encore/backends/gpu/gpu_queue.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

// The timed form's events: two per node, made with timing.
struct gpu_executable::event_set {
    std::vector<event_handle> events;
};

struct gpu_executable::timed_graph {
    timed_graph(driver& api, lowered_graph g, std::vector<std::uint32_t> flat)
        : lowered(std::move(g)), exec(api), flat_nodes(std::move(flat)) {}
    lowered_graph lowered;
    graph_exec_handle exec;
    const std::vector<std::uint32_t> flat_nodes; // per local index: the node's index in the traced graph
    std::mutex mutex;
    std::vector<std::shared_ptr<event_set>> free_sets; // under `mutex`
    // The set exec's record nodes point at: written by the launch functions, which run one at a time in the device
    // launcher's order.
    const event_set* current = nullptr;
};

gpu_executable::gpu_executable(gpu_backend& backend, std::uint32_t device, const graph& g, const partition& p)
    : backend_(backend), device_(device), api_(backend.api()), context_(backend.context(device)), graph_(g),
      partition_(p), template_(api_), exec_(api_) {
    const auto count = static_cast<std::uint32_t>(p.nodes.size());
    local_of_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i)
        local_of_.emplace_back(p.nodes[i], i);
    std::sort(local_of_.begin(), local_of_.end());
    context_scope scope(api_, context_);
    build_template();
    instantiate();
}

gpu_executable::~gpu_executable() = default;

std::uint32_t gpu_executable::local(std::uint32_t node) const {
    auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{node, std::uint32_t{0}});
    if (it == local_of_.end() || it->first != node)
        throw error(errc::invalid_argument, std::string(backend_.name()) + " update: node " + std::to_string(node) +
                                                " is not in this partition");
    return it->second;
}

// Nodes are added in partition order, which is a topological order, so each node's predecessors exist.
gpu_executable::lowered_graph gpu_executable::lower(const std::vector<event_handle>* timing_events) const {
    lowered_graph built(api_);
    built.graph.reset(api_.create_graph());
    const auto count = partition_.nodes.size();
    built.forms.resize(count);
    built.nodes.resize(count);
    built.scratch.resize(count);
    built.several_nodes.resize(count);
    if (timing_events) built.records.resize(2 * count);
    // What a successor waits for: the node itself, or in the timed form the record after it.
    auto done = [&](std::size_t i) { return timing_events ? built.records[2 * i + 1] : built.nodes[i]; };
    const graph::storage& s = graph_.boost_graph();
    std::vector<driver_graph_node> dependencies;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t v = partition_.nodes[i];
        dependencies.clear();
        for (auto [e, end] = boost::in_edges(v, s); e != end; ++e) {
            const auto u = static_cast<std::uint32_t>(boost::source(*e, s));
            auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{u, std::uint32_t{0}});
            if (it != local_of_.end() && it->first == u) dependencies.push_back(done(it->second));
        }
        try {
            if (timing_events) {
                built.records[2 * i] = api_.add_event_record_node(built.graph.get(), dependencies,
                                                                  (*timing_events)[2 * i].get());
                dependencies.assign(1, built.records[2 * i]);
            }
            auto lowered = driver_command::from(backend_, device_, s[v].command, true);
            built.nodes[i] = lowered.add_to(api_, built.graph.get(), dependencies, context_);
            built.forms[i] = lowered.how();
            built.scratch[i] = lowered.scratch();
            built.several_nodes[i] = lowered.several_nodes();
            if (timing_events)
                built.records[2 * i + 1] = api_.add_event_record_node(built.graph.get(), std::span(&built.nodes[i], 1),
                                                                      (*timing_events)[2 * i + 1].get());
            if (built.forms[i] == driver_command::form::host_copy)
                built.host_copies.emplace_back(i, std::move(lowered));
        } catch (const error& e) {
            throw error(e.code(), std::string(backend_.name()) + " lowering of " + graph_.describe(v) + ": " + e.what());
        }
    }
    return built;
}

void gpu_executable::build_template() {
    template_ = lower(nullptr);
}

void gpu_executable::instantiate() {
    exec_.reset(api_.instantiate(template_.graph.get()));
}

void gpu_executable::bring_up_to_date() {
    if (pending_ == pending::none) return;
    timed_.reset(); // rebuilt from the updated commands at the next traced launch
    context_scope scope(api_, context_);
    if (pending_ == pending::rebuild) {
        backend_.trace("a node changed form (memset node <-> fill kernel) or got another captured graph; the "
                       "graph is rebuilt and instantiated again");
        build_template();
        instantiate();
    } else {
        std::string why_not;
        if (!api_.update_exec(exec_.get(), template_.graph.get(), why_not)) {
            backend_.trace("the driver refused to update the executable graph (" + why_not +
                           "); instantiating the graph again");
            instantiate();
        }
    }
    pending_ = pending::none;
}

event_ptr gpu_executable::launch(backend_queue& queue, std::span<const event_ptr> wait_list) {
    const std::string name(backend_.name());
    gpu_queue& q = as_gpu_queue(queue, backend_, "an executable graph finalized for a GPU device");
    if (q.device() != device_)
        throw error(errc::invalid_argument, "launch: the executable graph was lowered for " + name + " device " +
                                                std::to_string(device_) + ", the queue is on device " +
                                                std::to_string(q.device()));
    bring_up_to_date();
    if (encore::detail::tracing()) [[unlikely]] // off, one load of a null pointer
        if (const auto* label = encore::detail::current_trace_launch(); label && q.profiling())
            return launch_timed(q, wait_list, *label);
    return q.run_after([&api = api_, exec = exec_.get()](gpu::driver_stream s) { api.launch_graph(exec, s); }, wait_list,
                       placement::graph_launch);
}

event_ptr gpu_executable::launch_timed(gpu_queue& q, std::span<const event_ptr> wait_list,
                                       const encore::detail::trace_launch_label& label) {
    const std::size_t count = partition_.nodes.size();
    auto new_set = [&] {
        auto set = std::make_shared<event_set>();
        set->events.reserve(2 * count);
        for (std::size_t k = 0; k < 2 * count; ++k)
            set->events.emplace_back(api_, api_.create_event(true));
        return set;
    };
    context_scope scope(api_, context_);
    std::shared_ptr<event_set> set;
    if (!timed_) {
        set = new_set();
        auto timed = std::make_shared<timed_graph>(api_, lower(&set->events), partition_.nodes);
        timed->exec.reset(api_.instantiate(timed->lowered.graph.get()));
        timed->current = set.get();
        timed_ = std::move(timed);
        backend_.trace("a launch under a trace: the partition of " + std::to_string(count) +
                       " nodes is lowered again with a timing event before and after each node");
    } else {
        std::lock_guard lock(timed_->mutex);
        if (!timed_->free_sets.empty()) {
            set = std::move(timed_->free_sets.back());
            timed_->free_sets.pop_back();
        }
    }
    if (!set) set = new_set();

    event_ptr e = q.run_after(
        [&api = api_, timed = timed_, set](gpu::driver_stream s) {
            if (timed->current != set.get()) {
                timed->current = nullptr; // until every record node points at `set`
                for (std::size_t k = 0; k < set->events.size(); ++k)
                    api.set_event_record_node(timed->exec.get(), timed->lowered.records[k], set->events[k].get());
                timed->current = set.get();
            }
            api.launch_graph(timed->exec.get(), s);
        },
        wait_list, placement::graph_launch);

    // Once complete: one slice per node, on lanes of the launch's stream (nodes that overlapped in time go to
    // different lanes, so no track holds two slices at once); then the events go back to the pool.
    auto record_times = [e, label, timed = timed_, set, backend = backend_.name()]() mutable {
        try {
            const auto& done = static_cast<const gpu_event&>(*e);
            if (const stream_state* stream = done.stream(); stream && done.has_profiling()) {
                const profiling_timestamps launch = done.timestamps();
                const auto n = timed->flat_nodes.size();
                std::vector<std::pair<std::uint64_t, std::uint64_t>> times(n);
                std::vector<std::uint32_t> order(n);
                for (std::size_t i = 0; i < n; ++i) {
                    times[i] = {done.time_of(set->events[2 * i].get(), launch),
                                done.time_of(set->events[2 * i + 1].get(), launch)};
                    order[i] = static_cast<std::uint32_t>(i);
                }
                std::sort(order.begin(), order.end(), [&](auto a, auto b) { return times[a] < times[b]; });
                std::vector<std::uint64_t> lane_end;    // per lane: the end of its last slice
                std::vector<std::uint32_t> lane_thread; // per lane: its track
                for (const auto i : order) {
                    std::uint32_t lane = 0;
                    while (lane < lane_end.size() && lane_end[lane] > times[i].first)
                        ++lane;
                    if (lane == lane_end.size()) {
                        lane_end.push_back(0);
                        lane_thread.push_back(label.session->queue_thread(
                            label.process, stream, std::string(backend) + " graph nodes " + std::to_string(lane),
                            lane));
                    }
                    lane_end[lane] = times[i].second;
                    encore::detail::trace_record r;
                    r.kind = encore::detail::trace_record_kind::graph_node;
                    r.process = label.process;
                    r.thread = lane_thread[lane];
                    r.node = timed->flat_nodes[i];
                    r.launch = label.launch;
                    r.start_ns = static_cast<std::int64_t>(times[i].first);
                    r.end_ns = static_cast<std::int64_t>(times[i].second);
                    label.session->record(std::move(r), "event callbacks");
                }
            }
        } catch (...) {
            // No times after all (the work failed, or the driver could not read them): no slices, never an
            // error of the work.
        }
        std::lock_guard lock(timed->mutex);
        timed->free_sets.push_back(std::move(set));
    };
    encore::detail::on_complete_traced(*label.session, e, std::move(record_times));
    return e;
}

void gpu_executable::update(std::uint32_t node, const command& c) {
    const std::uint32_t i = local(node);
    context_scope scope(api_, context_);
    auto updated = driver_command::from(backend_, device_, c, true); // throws before anything changed
    timed_.reset(); // rebuilt from the updated commands at the next traced launch
    if (updated.how() != template_.forms[i] || updated.how() == driver_command::form::child_graph ||
        updated.several_nodes() || template_.several_nodes[i]) {
        pending_ = pending::rebuild; // from graph_, which holds `c` by the next launch (backend.hpp)
        return;
    }
    const bool kernel = updated.how() == driver_command::form::kernel;
    const bool applied = updated.set_in(api_, template_.nodes[i], kernel ? exec_.get() : nullptr, context_);
    if (kernel) template_.scratch[i] = updated.scratch(); // the template's node uses it now, applied or not
    if (updated.how() == driver_command::form::host_copy) { // the host node now points into `updated`
        auto it = std::lower_bound(template_.host_copies.begin(), template_.host_copies.end(), i,
                                   [](const auto& kept, std::uint32_t index) { return kept.first < index; });
        it->second = std::move(updated);
    }
    if ((!kernel || !applied) && pending_ == pending::none) pending_ = pending::exec_update;
}

} // namespace encore::gpu

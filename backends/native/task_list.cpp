#include "task_list.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "encore/backends/detail/sanitizer_annotations.hpp"
#include "encore/backends/native/command_execution.hpp"
#include "encore/backends/native/detail/tbb_handoff.hpp"
#include "encore/backends/native/kernel_launch.hpp"
#include "encore/backends/native/native_backend.hpp"
#include "encore/backends/native/native_queue.hpp"
#include "encore/graph/error.hpp"

namespace encore::native {

// Who drives a launch: the worker that runs the enqueued launch_task, or a thread that waits for the launch's
// event first. `ready` is set once the wait list has completed; `claimed` makes sure exactly one of them
// drives. From the enqueue until its task has run, the claim keeps itself and the event alive (`pending`).
struct detail::launch_claim final : encore::detail::wait_helper, detail::start_request {
    task_list* list;
    tbb::task_arena* arena; // the backend's, which outlives every launch
    encore::detail::completion_event* done; // owns this claim (as its wait_helper)
    std::shared_ptr<error_sink> errors;
    std::shared_ptr<std::atomic<std::size_t>> enqueued; // the backend's count of launch tasks not yet run
    std::atomic<bool> ready{false}, claimed{false};
    std::uint64_t ticket = 0; // start_order: eager commands with earlier tickets start before this launch
    encore::detail::trace_launch_label trace; // the launch's label while a trace records
    struct {
        std::shared_ptr<launch_claim> claim;
        std::shared_ptr<encore::detail::completion_event> done;
    } pending;

    launch_claim(task_list* l, encore::detail::completion_event* d, std::shared_ptr<error_sink> e,
                 std::shared_ptr<std::atomic<std::size_t>> count)
        : list(l), arena(&l->backend_.arena()), done(d), errors(std::move(e)), enqueued(std::move(count)) {}

    bool claim() noexcept { return !claimed.exchange(true, std::memory_order_acq_rel); }
    void help() noexcept override {
        if (!ready.load(std::memory_order_acquire) || !claim()) return;
        ENCORE_TSAN_RELEASE(this);
        list->backend_.arena().execute(detail::help_task{this}); // may run on a worker of the arena
        ENCORE_TSAN_ACQUIRE(this);
    }
    // On the launch starter's thread: a launch no waiter has claimed yet goes to the arena's workers.
    void start() noexcept override {
        if (claimed.load(std::memory_order_acquire)) return run_launch(*this); // lets go of the claim
        tbb::task_arena& to = *arena; // read before the hand-off: the task may end the claim's life
        ENCORE_TSAN_RELEASE(this);
        to.enqueue(detail::launch_task{this});
    }
    void drive() noexcept {
        // Not ahead of eager commands submitted before this launch that no worker has started.
        list->backend_.start_order().claim_before(ticket, [](ordered_start& s) { run_claimed_eager(s); });
        list->run(*done, *errors, trace);
    }
};

void detail::run_helped(launch_claim& claim) noexcept {
    claim.drive();
}

void detail::run_launch(launch_claim& claim) noexcept {
    const auto enqueued = claim.enqueued;
    {
        const auto keep = std::move(claim.pending); // released when the task is done, whoever drove the launch
        if (claim.claim()) claim.list->run(*claim.done, *claim.errors, claim.trace);
    } // the claim may be gone from here on
    enqueued->fetch_sub(1, std::memory_order_release);
}

void detail::run_ready(task_list& list, const std::uint32_t* first, std::uint32_t count,
                       std::uint32_t grain) noexcept {
    list.run_ready(first, count, grain);
    ENCORE_TSAN_RELEASE(
        list.group_.get()); // what this task did happens before the driver's group wait returns
}

task_list::task_list(native_backend& backend, const graph& g, const partition& p)
    : backend_(backend), in_order_(p.in_order) {
    const graph::storage& s = g.boost_graph();
    const auto count = static_cast<std::uint32_t>(p.nodes.size());
    // The order of the list: the order the nodes were added in where every edge inside the partition agrees
    // with it, else the partition's. A program's own order keeps its data in sequence (a depth-first order
    // scatters a random DAG's nodes, and the sequential schedule's accesses with them).
    std::vector<std::uint32_t> order(p.nodes.begin(), p.nodes.end());
    std::sort(order.begin(), order.end());
    auto in_partition = [&](std::uint32_t v) { return std::binary_search(order.begin(), order.end(), v); };
    bool index_order = !in_order_; // an in-order partition keeps its submission order
    for (std::uint32_t i = 0; index_order && i < count; ++i)
        for (auto w : boost::make_iterator_range(boost::adjacent_vertices(order[i], s)))
            if (static_cast<std::uint32_t>(w) < order[i] && in_partition(static_cast<std::uint32_t>(w))) {
                index_order = false;
                break;
            }
    if (!index_order) order.assign(p.nodes.begin(), p.nodes.end());
    local_of_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i)
        local_of_.emplace_back(order[i], i);
    graph_node_ = order;
    std::sort(local_of_.begin(), local_of_.end());
    auto local = [&](std::uint32_t v) {
        auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{v, std::uint32_t{0}});
        return it != local_of_.end() && it->first == v ? it->second : none;
    };

    nodes_.resize(count);
    // Sized once: shapes_ borrow the commands, launches_ the shapes.
    std::uint32_t kernels = 0;
    for (auto v : order)
        kernels += kind_of(s[v].command) == command_kind::kernel;
    commands_.reserve(count);
    shapes_.reserve(kernels);
    launches_.reserve(kernels);
    for (std::uint32_t i = 0; i < count; ++i) {
        const command& c = s[order[i]].command;
        switch (kind_of(c)) {
        case command_kind::host_task:
        case command_kind::subgraph:
            throw error(errc::invalid_argument, "native lowering: " + g.describe(order[i]) +
                                                    " cannot be in a device partition; the runtime runs host "
                                                    "tasks and inlines subgraphs");
        case command_kind::kernel:
            check_kernel(std::get<kernel_command>(c), backend_.properties(0));
            break;
        case command_kind::native_graph:
            refuse_native_graph(std::get<native_graph_command>(c));
            break;
        default:
            break;
        }
        commands_.push_back(c);
        if (auto* k = std::get_if<kernel_command>(&commands_.back())) {
            nodes_[i].shape = static_cast<std::uint32_t>(shapes_.size());
            shapes_.emplace_back(*k);
            launches_.emplace_back(shapes_.back());
        }
        nodes_[i].first_successor = static_cast<std::uint32_t>(successors_.size());
        for (auto w : boost::make_iterator_range(boost::adjacent_vertices(order[i], s))) {
            auto j = local(static_cast<std::uint32_t>(w));
            if (j == none) continue; // an edge to another partition: the runtime orders partitions
            successors_.push_back(j);
        }
        nodes_[i].successor_count =
            static_cast<std::uint32_t>(successors_.size()) - nodes_[i].first_successor;
    }
    for (auto j : successors_)
        ++nodes_[j].predecessor_count;
    for (std::uint32_t i = 0; i < count; ++i)
        if (nodes_[i].predecessor_count == 0) roots_.push_back(i);
    pending_ = std::make_unique<counter[]>(count);
    ready_ = std::make_unique<std::uint32_t[]>(successors_.size());
    concurrency_ = static_cast<std::uint32_t>(std::max(1, backend_.arena().max_concurrency()));
    if (const char* fixed = std::getenv("ENCORE_NATIVE_SCHEDULE")) {
        if (std::strcmp(fixed, "sequential") == 0) forced_ = forced::sequential;
        else if (std::strcmp(fixed, "parallel") == 0) forced_ = forced::parallel;
    }
}

task_list::~task_list() = default;

event_ptr task_list::launch(backend_queue& queue, std::span<const event_ptr> wait_list) {
    native_queue& q = as_native_queue(queue, "a native executable graph");
    auto done = std::make_shared<encore::detail::completion_event>(q.properties().enable_profiling);
    auto claim = std::make_shared<detail::launch_claim>(this, done.get(), q.errors(), backend_.enqueued_launches());
    done->set_helper(claim);
    // Off, the profiler's whole cost here is this load (backends/detail/trace_recorder.hpp).
    if (encore::detail::tracing()) [[unlikely]]
        if (const auto* label = encore::detail::current_trace_launch()) claim->trace = *label;
    encore::detail::when_all(wait_list, [this, claim, done] {
        // Nothing of the task list is read once `ready` is set: from then on a thread waiting for `done` may
        // drive the launch to its end, and the executable graph (with this task list) may be destroyed before
        // the post below. The starter is the backend's, which outlives every task list.
        auto* starter = backend_.launch_starter();
        auto& arena = backend_.arena();
        claim->pending = {claim, done};
        claim->ticket = backend_.start_order().ticket();
        claim->enqueued->fetch_add(1, std::memory_order_relaxed);
        if (starter) {
            claim->ready.store(true, std::memory_order_release);
            starter->post(*claim); // a waiter may claim it first; else the starter enqueues it to the arena
        } else {
            ENCORE_TSAN_RELEASE(claim.get());
            claim->ready.store(true, std::memory_order_release);
            arena.enqueue(detail::launch_task{claim.get()});
        }
    });
    return done;
}

void task_list::update(std::uint32_t node, const command& c) {
    auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{node, std::uint32_t{0}});
    if (it == local_of_.end() || it->first != node)
        throw error(errc::invalid_argument,
                    "native task list: node " + std::to_string(node) + " is not in this partition");
    const std::uint32_t n = it->second;
    if (kind_of(c) != kind_of(commands_[n]))
        throw error(errc::invalid_argument, "native task list: node " + std::to_string(node) + " is a " +
                                                std::string(to_string(kind_of(commands_[n]))) +
                                                " command, not a " + std::string(to_string(kind_of(c))) +
                                                " command");
    if (auto* k = std::get_if<kernel_command>(&c)) check_kernel(*k, backend_.properties(0));
    commands_[n] =
        c; // the same alternative: assigned in place, so the node's shape can be re-derived in place
    mean_ns_[0] = mean_ns_[1] = -1; // the kernels' cost may have changed: measure both schedules again
    explore_interval_ = until_explore_ = 16;
    if (auto* k = std::get_if<kernel_command>(&commands_[n])) {
        shapes_[nodes_[n].shape] = launch_shape(*k);
        launches_[nodes_[n].shape] = compact_launch(shapes_[nodes_[n].shape]);
    }
}

task_list::schedule task_list::choose_schedule() noexcept {
    if (in_order_ || nodes_.size() < 2 || concurrency_ < 2 || forced_ == forced::sequential)
        return schedule::sequential;
    if (forced_ == forced::parallel) return schedule::parallel;
    constexpr auto seq = static_cast<int>(schedule::sequential), par = static_cast<int>(schedule::parallel);
    if (mean_ns_[seq] < 0) return schedule::sequential;
    if (mean_ns_[par] < 0) return schedule::parallel;
    const schedule faster = mean_ns_[seq] <= mean_ns_[par] ? schedule::sequential : schedule::parallel;
    if (--until_explore_ > 0) return faster;
    explore_interval_ = std::min<std::uint32_t>(explore_interval_ * 2, 1024);
    until_explore_ = explore_interval_;
    return faster == schedule::sequential ? schedule::parallel : schedule::sequential;
}

void task_list::record_time(schedule s, double ns) noexcept {
    double& mean = mean_ns_[static_cast<int>(s)];
    mean = mean < 0 ? ns : (mean + ns) / 2;
}

void task_list::run(encore::detail::completion_event& done, error_sink& errors,
                    const encore::detail::trace_launch_label& trace) noexcept {
    done.mark_running();
    errors_ = &errors;
    trace_ = trace.session ? &trace : nullptr;
    const schedule how = choose_schedule();
    const auto start = std::chrono::steady_clock::now();
    if (how == schedule::sequential) {
        run_sequential();
    } else {
        run_parallel();
    }
    const auto end = std::chrono::steady_clock::now();
    record_time(how, std::chrono::duration<double, std::nano>(end - start).count());
    last_schedule_ = how;
    if (trace_) [[unlikely]] {
        // The partition encloses its nodes on this thread's track (the driver's).
        encore::detail::trace_record r;
        r.kind = encore::detail::trace_record_kind::partition;
        r.process = trace.process;
        r.node = trace.partition;
        r.launch = trace.launch;
        r.start_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count();
        r.end_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(end.time_since_epoch()).count();
        try {
            trace.session->record(std::move(r), "native worker");
        } catch (...) {
            // Out of memory for the trace: the slice is lost, the replay goes on.
        }
        trace_ = nullptr;
    }
    errors_ = nullptr;
    done.complete(); // the last touch: the runtime may launch again, or destroy this list, from here on
}

void task_list::run_sequential() noexcept {
    // The list's order is a topological order: every node runs after its predecessors.
    const auto count = static_cast<std::uint32_t>(nodes_.size());
    work_item scratch;
    if (launches_.size() != count || trace_) {
        for (std::uint32_t n = 0; n < count; ++n)
            execute_node(n, scratch);
        return;
    }
    // Kernels only: launches_ is the list itself, walked with no per-node lookup (a partition of tiny kernels
    // spends as long here as in the kernels). A node that throws is reported and the walk goes on after it.
    for (std::uint32_t n = 0; n < count; ++n) {
        try {
            for (; n < count; ++n)
                run_kernel(launches_[n], scratch);
        } catch (...) {
            errors_->report(std::current_exception());
        }
    }
}

void task_list::run_parallel() noexcept {
    const auto count = static_cast<std::uint32_t>(nodes_.size());
    for (std::uint32_t n = 0; n < count; ++n)
        pending_[n].value.store(nodes_[n].predecessor_count, std::memory_order_relaxed);
    const auto roots = static_cast<std::uint32_t>(roots_.size());
    run_ready(roots_.data(), roots, grain_for(roots));
    group_->wait();
    ENCORE_TSAN_ACQUIRE(group_.get());
}

void task_list::run_from(std::uint32_t n) noexcept {
    work_item scratch;
    for (;;) {
        execute_node(n, scratch);
        const node_record& record = nodes_[n];
        std::uint32_t* ready = ready_.get() + record.first_successor;
        std::uint32_t count = 0;
        for (std::uint32_t k = 0; k < record.successor_count; ++k) {
            std::uint32_t s = successors_[record.first_successor + k];
            if (pending_[s].value.fetch_sub(1, std::memory_order_acq_rel) == 1) ready[count++] = s;
        }
        if (count == 0) return;
        if (count > 1) spawn_ready(ready, count - 1, grain_for(count - 1));
        n = ready[count - 1];
    }
}

std::uint32_t task_list::grain_for(std::uint32_t count) const noexcept {
    return std::max<std::uint32_t>(1, count / (8 * concurrency_));
}

void task_list::run_ready(const std::uint32_t* first, std::uint32_t count, std::uint32_t grain) noexcept {
    while (count > grain) {
        std::uint32_t half = count / 2;
        spawn_ready(first + half, count - half, grain);
        count = half;
    }
    for (std::uint32_t i = 0; i < count; ++i)
        run_from(first[i]);
}

void task_list::spawn_ready(const std::uint32_t* first, std::uint32_t count, std::uint32_t grain) {
    ENCORE_TSAN_RELEASE(first);
    group_->run(detail::ready_task{this, first, count, grain});
}

// A node's work; what it throws goes to the launch's error sink.
[[gnu::always_inline]] inline void task_list::run_node(std::uint32_t n, work_item& scratch) noexcept {
    try {
        const std::uint32_t shape = nodes_[n].shape;
        if (shape != none)
            run_kernel(launches_[shape], scratch);
        else
            execute(commands_[n]);
    } catch (...) {
        errors_->report(std::current_exception());
    }
}

void task_list::execute_node(std::uint32_t n, work_item& scratch) noexcept {
    if (trace_) [[unlikely]]
        return execute_traced_node(n, scratch);
    run_node(n, scratch);
}

// Steady-clock reads around the node, on the thread that runs it (about 2 x 20 ns), and one record appended
// to this thread's buffer.
void task_list::execute_traced_node(std::uint32_t n, work_item& scratch) noexcept {
    encore::detail::trace_record r;
    r.kind = encore::detail::trace_record_kind::graph_node;
    r.process = trace_->process;
    r.node = graph_node_[n];
    r.launch = trace_->launch;
    encore::detail::run_timed(*trace_->session, std::move(r), "native worker", [&] { run_node(n, scratch); });
}

} // namespace encore::native

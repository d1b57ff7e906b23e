#include "native_queue.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <typeinfo>

#include "encore/backends/detail/block_pool.hpp"
#include "encore/backends/detail/completion_event.hpp"
#include "encore/backends/detail/host_task_pool.hpp"
#include "encore/backends/detail/sanitizer_annotations.hpp"
#include "encore/backends/native/command_execution.hpp"
#include "encore/backends/native/detail/tbb_handoff.hpp"
#include "encore/backends/native/kernel_launch.hpp"
#include "encore/backends/native/native_backend.hpp"
#include "encore/graph/error.hpp"

namespace encore::native {

namespace {

// Eager commands that run inline on the submitting thread (see native_queue::submit): a kernel whose type ran
// in under `default_inline_below_ns` on average (ENCORE_NATIVE_INLINE_NS sets another bound, 0 turns inline
// runs off), over a one-dimensional range small enough to run without a parallel_for; a memcpy, memset or fill
// of at most `inline_bytes`. Handing a command to a worker costs the submitter 0.3-1 us (an allocation freed on
// another thread, a lock, cache lines crossing cores), more than such a command takes to run.
constexpr std::int64_t default_inline_below_ns = 500;
constexpr std::size_t inline_bytes = 4096;

std::int64_t inline_bound_from_environment() {
    const char* value = std::getenv("ENCORE_NATIVE_INLINE_NS");
    if (!value || !*value) return default_inline_below_ns;
    char* end = nullptr;
    const long long ns = std::strtoll(value, &end, 10);
    if (*end != '\0' || ns < 0 || ns > 1'000'000'000)
        throw error(errc::invalid_argument, std::string("ENCORE_NATIVE_INLINE_NS='") + value +
                                                "': expected a number of nanoseconds from 0 (inline runs off) to "
                                                "1000000000");
    return ns;
}

// The kernel's type when `c` is a kernel launch that runs inline (small one-dimensional range), else null: the
// only kernels whose time is worth recording for the decision.
const std::type_info* small_kernel_type(const command& c) noexcept {
    const auto* k = std::get_if<kernel_command>(&c);
    if (!k || !k->kernel || k->range.dimensions != 1 || k->range.has_local_size() ||
        k->range.global[0] > inline_items)
        return nullptr;
    return &typeid(*k->kernel);
}

bool small_memory_command(const command& c) noexcept {
    if (const auto* m = std::get_if<memcpy_command>(&c)) return m->bytes <= inline_bytes;
    if (const auto* m = std::get_if<memset_command>(&c)) return m->bytes <= inline_bytes;
    if (const auto* f = std::get_if<fill_command>(&c))
        return !f->pattern.empty() && f->count <= inline_bytes / f->pattern.size(); // no overflow
    return false;
}

// Runs `c`; for a small kernel, records how long it took under its type. A sample counts as at most twice the
// queue's bound (`cap`): one slow run (a preemption, a page fault) must not send a tiny kernel to the workers
// for many runs, while a kernel whose runs all take longer is past the bound after three.
void execute_measured(const command& c, const std::type_info* kernel_type, detail::kernel_costs& costs,
                      std::int64_t cap) {
    if (!kernel_type) return execute(c);
    const auto start = std::chrono::steady_clock::now();
    execute(c);
    const auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
    costs.record(*kernel_type, std::min(ns, cap));
}

// The slice of an eager command that ran from `start_ns` until now on this thread.
void record_eager(encore::detail::trace_session& session, std::uint32_t process, const command& c,
                  std::int64_t start_ns) noexcept {
    try {
        encore::detail::trace_record r;
        r.kind = encore::detail::trace_record_kind::eager;
        r.process = process;
        r.start_ns = start_ns;
        r.end_ns = encore::detail::trace_clock_ns();
        r.name = encore::detail::trace_name(c);
        r.command = kind_of(c);
        session.record(std::move(r), "native worker");
    } catch (...) {
        // Out of memory for the trace: the slice is lost, the work is not.
    }
}

// Spins until `done()` holds, for at most `limit` (the clock is read every 16 rounds); whether it held.
template <typename Done> bool spin_until(std::chrono::nanoseconds limit, Done done) noexcept {
    const auto until = std::chrono::steady_clock::now() + limit;
    for (unsigned round = 0; !done(); ++round) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (round % 16 == 15 && std::chrono::steady_clock::now() >= until) return false;
    }
    return true;
}

} // namespace

// One eager command on its way through the arena; it keeps itself alive (`self`) until its task has run. It runs
// once: on the worker that runs its task, or earlier on a thread that drives a later graph launch
// (detail/start_order.hpp), whichever claims it first.
//
// Chains: a command whose wait list is exactly the event of the queue's previous command, still running or
// waiting, is linked to it (`link`) instead of going through a callback and a task of its own: whoever runs the
// previous command runs it right after, on the same thread. An in-order queue's stream of commands, or a chain
// of events on an out-of-order one, so costs no task, no callback and no wake-up per command.
//
// The command's event lives inside it (one allocation per command); the event handed out shares ownership.
namespace {
std::atomic<std::size_t> completing{0}; // detail::completions_in_flight
} // namespace

std::size_t detail::completions_in_flight() noexcept {
    return completing.load(std::memory_order_acquire);
}

struct detail::eager_work : ordered_start {
    eager_work(command command_, bool profiling, std::shared_ptr<error_sink> e, native_backend& b,
               std::int64_t cap)
        : c(std::move(command_)), event(profiling), done(&event), errors(std::move(e)), backend(b),
          sample_cap(cap) {}
    command c;
    encore::detail::completion_event event;
    encore::detail::completion_event* const done;
    std::shared_ptr<error_sink> errors;
    native_backend& backend;
    const std::int64_t sample_cap; // for kernel_costs: twice the submitting queue's inline bound
    std::shared_ptr<eager_work> self;
    static constexpr std::uintptr_t closed = 1;
    std::atomic<std::uintptr_t> link{0}; // 0: open; closed: ran, takes no successor; else the successor
    std::shared_ptr<eager_work> next;    // the successor's owner, written before `link` publishes it

    void execute_once() noexcept {
        done->mark_running();
        // Off, the profiler's whole cost here is this load (backends/detail/trace_recorder.hpp), on the worker
        // rather than on the submitting thread, which an in-order queue's stream of commands waits for; the timed
        // run is out of line.
        if (auto* trace = encore::detail::tracing()) [[unlikely]]
            execute_traced(*trace);
        else
            try {
                execute_measured(c, small_kernel_type(c), backend.kernel_costs(), sample_cap);
            } catch (...) {
                errors->report(std::current_exception());
            }
        c = empty_command{}; // what the command held (kernel arguments, buffers) goes now, not with the chain
        // Counted before the event says complete (a waiter may then let the program exit) until its callbacks
        // have run (they may enqueue successors into the arena): the backend's destructor waits for them.
        completing.fetch_add(1, std::memory_order_relaxed);
        done->complete();
        completing.fetch_sub(1, std::memory_order_release);
    }
    [[gnu::cold, gnu::noinline]] void execute_traced(encore::detail::trace_session& trace) noexcept {
        const std::int64_t start = encore::detail::trace_clock_ns();
        try {
            execute_measured(c, small_kernel_type(c), backend.kernel_costs(), sample_cap);
        } catch (...) {
            errors->report(std::current_exception());
        }
        record_eager(trace, backend.trace_process(trace), c, start);
    }

    // Only the queue's newest command can get a successor: the spin ends as soon as another one is submitted.
    std::atomic<bool> newest{true};
    // Spins until a successor is linked, a newer command was submitted, or about 4 µs have passed.
    void await_successor() const noexcept {
        spin_until(std::chrono::microseconds(4), [this] {
            return link.load(std::memory_order_acquire) != 0 || !newest.load(std::memory_order_acquire);
        });
    }

    // Waits: one share per pending event of the wait list, plus one released by submit itself; the last share
    // to go enqueues the command (no gate and no std::function of its own: callbacks hold this raw pointer, and
    // `self` keeps the command alive until it has run).
    std::atomic<std::uint32_t> waits{1};
    void release_wait() noexcept {
        if (waits.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
        owner = self;
        backend.start_order().enqueued(*this);
        auto& arena = backend.arena(); // nothing of this command is read after the release: it may be gone
        ENCORE_TSAN_RELEASE(this);
        arena.enqueue(detail::eager_task{this});
    }

    // Runs this command, then every successor linked meanwhile. After each one it waits a few microseconds for a
    // successor before closing the chain: a submitter that is busy making the next command (a few hundred
    // nanoseconds) then links it here instead of paying a task and a wake-up.
    void run() noexcept {
        eager_work* current = this;
        std::shared_ptr<eager_work> keep; // the successor being run (this one is kept by the caller)
        for (;;) {
            current->execute_once();
            current->await_successor();
            std::uintptr_t expected = 0;
            if (current->link.compare_exchange_strong(expected, closed, std::memory_order_acq_rel)) return;
            std::shared_ptr<eager_work> successor = std::move(current->next);
            keep = std::move(successor);
            current = keep.get();
        }
    }
};

void detail::run_eager(eager_work& work) noexcept {
    const auto keep = std::move(work.self);
    if (!work.claim()) return; // a launch's driver ran it
    work.backend.start_order().started(work);
    work.run();
}

void detail::run_claimed_eager(ordered_start& s) noexcept {
    static_cast<eager_work&>(s).run();
}

native_queue::native_queue(native_backend& backend, const queue_properties& properties,
                           std::shared_ptr<error_sink> errors)
    : backend_(backend), properties_(properties), errors_(std::move(errors)),
      inline_below_ns_(inline_bound_from_environment()) {}

event_ptr native_queue::submit(command c, std::span<const event_ptr> wait_list) {
    if (auto* k = std::get_if<kernel_command>(&c)) check_kernel(*k, backend_.properties(0));
    if (auto* n = std::get_if<native_graph_command>(&c)) refuse_native_graph(*n);
    switch (kind_of(c)) {
    case command_kind::host_task:
        return encore::detail::launch_host_task(std::get<host_task_command>(std::move(c)).task, wait_list,
                                                errors_, properties_.enable_profiling);
    case command_kind::barrier:
    case command_kind::empty: {
        auto done = std::allocate_shared<encore::detail::completion_event>(
            encore::detail::pool_allocator<encore::detail::completion_event>{}, properties_.enable_profiling);
        encore::detail::when_all(wait_list, [done] {
            done->mark_running();
            done->complete();
        });
        return done;
    }
    default:
        break;
    }
    bool tiny = false;
    if (auto done = run_inline(c, wait_list, tiny)) return done;
    // The command's record and its event in one block of a pool (backends/detail/block_pool.hpp): no allocation
    // per submission once the pool is warm.
    auto work = std::allocate_shared<detail::eager_work>(encore::detail::pool_allocator<detail::eager_work>{},
                                                         std::move(c), properties_.enable_profiling, errors_,
                                                         backend_, 2 * inline_below_ns_);
    event_ptr done(work, work->done);
    {
        std::lock_guard lock(chain_mutex_);
        auto previous = last_.lock();
        last_ = work;
        last_is_tiny_ = tiny;
        if (previous) previous->newest.store(false, std::memory_order_release);
        if (previous && wait_list.size() == 1 && wait_list[0].get() == previous->done) {
            previous->next = work;
            std::uintptr_t open = 0;
            if (previous->link.compare_exchange_strong(open, reinterpret_cast<std::uintptr_t>(work.get()),
                                                       std::memory_order_acq_rel))
                return done; // runs right after `previous`, on its thread
            previous->next.reset(); // it had run already: the usual way below
        }
    }
    work->self = work; // until it has run (run_eager releases it)
    std::uint32_t pending = 0;
    for (const auto& e : wait_list)
        if (e && e->status() != event_status::complete) ++pending;
    if (pending) {
        work->waits.fetch_add(pending, std::memory_order_relaxed);
        for (const auto& e : wait_list)
            if (e && e->status() != event_status::complete) {
                e->on_complete([w = work.get()] { w->release_wait(); });
                --pending;
            }
        // Events seen pending above that completed before their callback was registered hold no share: the
        // count above took one for each, released here.
        if (pending) work->waits.fetch_sub(pending, std::memory_order_acq_rel);
    }
    work->release_wait();
    return done;
}

event_ptr native_queue::run_inline(command& c, std::span<const event_ptr> wait_list, bool& tiny) {
    if (inline_below_ns_ == 0) return nullptr;
    const std::type_info* kernel_type = small_kernel_type(c);
    if (kernel_type) {
        const auto mean = backend_.kernel_costs().mean_ns(*kernel_type);
        if (mean < 0 || mean >= inline_below_ns_) return nullptr; // unknown (a worker measures it) or not tiny
    } else if (!small_memory_command(c)) {
        return nullptr;
    }
    tiny = true;
    bool waited = false;
    for (const auto& e : wait_list) {
        if (!e || e->status() == event_status::complete) continue;
        // Only the queue's previous command may be pending, and only when it is tiny too and on a worker
        // already (it went there waiting for something): it ends within a moment, and waiting for it keeps a
        // stream of tiny commands inline instead of chaining every later one to it.
        // After a wait that ran out (the previous command is stuck behind something slow, a host task say), no
        // more waiting until a command of this queue runs inline again: the commands queue up behind it at the
        // usual cost instead of each paying 20 us.
        if (waited || !wait_allowed_) return nullptr;
        {
            std::lock_guard lock(chain_mutex_);
            auto previous = last_.lock();
            if (!last_is_tiny_ || !previous || e.get() != previous->done) return nullptr;
        }
        if (!spin_until(std::chrono::microseconds(20), [&e] { return e->status() == event_status::complete; })) {
            wait_allowed_ = false;
            return nullptr;
        }
        waited = true;
    }
    // Not ahead of an eager command submitted earlier that no worker has started (detail/start_order.hpp).
    if (!backend_.start_order().none_waiting()) return nullptr;
    {
        std::lock_guard lock(chain_mutex_); // this command is the queue's newest now: nothing links to the last
        if (auto previous = last_.lock()) previous->newest.store(false, std::memory_order_release);
        last_.reset();
    }
    wait_allowed_ = true;
    auto done = std::allocate_shared<encore::detail::completion_event>(
            encore::detail::pool_allocator<encore::detail::completion_event>{}, properties_.enable_profiling);
    done->mark_running();
    const std::type_info* timed = ++inline_runs_ % 8 == 0 ? kernel_type : nullptr;
    if (auto* trace = encore::detail::tracing()) [[unlikely]] { // off, the profiler's whole cost here
        run_traced(*trace, c, timed);
    } else {
        try {
            // One inline run in 8 is timed (two clock reads cost as much as a tiny kernel): a kernel that became
            // slower leaves the inline path after at most 24 runs.
            execute_measured(c, timed, backend_.kernel_costs(), 2 * inline_below_ns_);
        } catch (...) {
            errors_->report(std::current_exception());
        }
    }
    done->complete_unshared(); // not handed out yet
    return done;
}

// run_inline's run while a trace records: out of line, so that the path without one stays as it was.
void native_queue::run_traced(encore::detail::trace_session& trace, const command& c,
                              const std::type_info* timed) noexcept {
    const std::int64_t start = encore::detail::trace_clock_ns();
    try {
        execute_measured(c, timed, backend_.kernel_costs(), 2 * inline_below_ns_);
    } catch (...) {
        errors_->report(std::current_exception());
    }
    record_eager(trace, backend_.trace_process(trace), c, start);
}

native_queue& as_native_queue(backend_queue& q, const char* what) {
    auto* native = dynamic_cast<native_queue*>(&q);
    if (!native)
        throw error(errc::invalid_argument,
                    std::string(what) +
                        " belongs to the native backend and cannot run on a queue of another backend");
    return *native;
}

} // namespace encore::native

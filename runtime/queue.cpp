#include "queue.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "encore/backends/detail/completion_event.hpp"
#include "encore/backends/detail/host_task_pool.hpp"
#include "encore/backends/detail/trace_recorder.hpp"
#include "encore/runtime/detail/queue_state.hpp"
#include "encore/runtime/executable_graph.hpp"
#include "encore/graph/error.hpp"
#include "encore/graph/graph.hpp"
#include "encore/graph/kernel.hpp"

namespace encore {

namespace detail {

void error_collector::report(std::exception_ptr error) noexcept {
    try {
        std::lock_guard lock(mutex_);
        errors_.push_back(std::move(error));
    } catch (...) {
        // Out of memory while recording an error: nothing better to do than lose it.
    }
}

exception_list error_collector::take() {
    std::lock_guard lock(mutex_);
    return std::exchange(errors_, {});
}

namespace {
std::string describe(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        return x.what();
    } catch (...) {
        return "an exception that is not a std::exception";
    }
}
} // namespace

queue_state::queue_state(const device& d, queue_properties p, async_handler h)
    : dev(d), properties(p), handler(std::move(h)) {
    if (properties.enable_profiling && !dev.properties().profiling)
        throw error(errc::feature_not_supported,
                    "queue: device '" + dev.properties().name + "' cannot record profiling timestamps");
    // While a trace records, the events of backends the runtime times from their timestamps need them
    // (profiler.hpp); the queue's own properties, and so its join events, stay as the program asked.
    queue_properties backend_properties = properties;
    if (detail::tracing() && !detail::backend_times_nodes(dev.backend_name()) && dev.properties().profiling)
        backend_properties.enable_profiling = true;
    backend = dev.owner().create_queue(dev.index(), backend_properties, errors);
}

queue_state::~queue_state() {
    wait_all();
    keep_alive.clear();
    auto left = errors->take();
    if (left.empty()) return;
    if (handler) try {
            handler(std::move(left));
            return;
        } catch (...) {
            // A handler that throws from a queue's destruction would terminate the program: say so below instead.
            left = {std::current_exception()};
        }
    // Nobody took these errors: never lose them silently, never terminate.
    for (const auto& e : left)
        std::fprintf(stderr, "encore: a queue went away with an error of its work nobody took (no async handler "
                             "took it, and no wait_and_throw or throw_asynchronous came after it): %s\n",
                     describe(e).c_str());
}

// No status() queries here: backends skip completed events themselves, and asking a GPU event whether it has
// completed can cost a driver call (the CUDA backend records an in-order command's event only when asked), once
// per submission on the eager path.
std::vector<event_ptr> queue_state::wait_list(event_list dependencies) const {
    std::vector<event_ptr> out;
    append_wait_list(dependencies, out);
    return out;
}

// On an in-order queue a dependency on the queue's last command is implied (a SYCL buffer's last writer on the
// same queue is the commonest): it is listed once.
bool queue_state::implied(const event& e) const noexcept {
    return properties.in_order && last && e.state() == last;
}

void queue_state::append_wait_list(event_list dependencies, std::vector<event_ptr>& out) const {
    out.reserve(out.size() + dependencies.size() + 1);
    for (const auto& e : dependencies)
        if (e.state() && !implied(e)) out.push_back(e.state());
    if (properties.in_order && last) out.push_back(last);
}

std::span<const event_ptr> queue_state::wait_list(event_list dependencies, std::array<event_ptr, 4>& storage,
                                                  std::vector<event_ptr>& overflow) const {
    // The eager path's commonest case, an in-order submission without dependencies: a view of `last` itself
    // (no reference count traffic); `mutex` is held, so nothing replaces it until the submission returns.
    if (dependencies.size() == 0) {
        if (properties.in_order && last) return {&last, 1};
        return {};
    }
    if (dependencies.size() + 1 > storage.size()) {
        overflow.clear();
        append_wait_list(dependencies, overflow);
        return overflow;
    }
    std::size_t count = 0;
    for (const auto& e : dependencies)
        if (e.state() && !implied(e)) storage[count++] = e.state();
    if (properties.in_order && last) storage[count++] = last;
    return {storage.data(), count};
}

void queue_state::record(const event_ptr& e) {
    last = e;
    if (properties.in_order) return; // `last` completes after everything before it
    outstanding.push_back(e);
    if (outstanding.size() >= prune_at) {
        // Oldest first, until a few are found not known complete: what was submitted after them mostly is not
        // either, and each question may cost (an OpenCL status query about as much as an enqueue: its events
        // answer from the queue's markers instead, opencl_event.hpp). The rest stay until the next prune.
        std::size_t kept = 0, running = 0, i = 0;
        for (; i < outstanding.size() && running < 4; ++i) {
            if (outstanding[i]->known_complete()) continue;
            ++running;
            outstanding[kept++] = std::move(outstanding[i]);
        }
        for (; i < outstanding.size(); ++i)
            outstanding[kept++] = std::move(outstanding[i]);
        outstanding.resize(kept);
        // Amortised O(1) per submission: prune again only after the list has doubled.
        prune_at = std::max<std::size_t>(64, 2 * outstanding.size());
    }
    std::erase_if(keep_alive, [](const auto& k) { return k.first->status() == event_status::complete; });
}

void queue_state::wait_all() {
    std::vector<event_ptr> pending;
    {
        std::lock_guard lock(mutex);
        pending = properties.in_order ? std::vector<event_ptr>{} : outstanding;
        if (last) pending.push_back(last);
    }
    // Newest first: where later work completing tells that earlier work of its stream did (GPU streams), the
    // older events' waits are then answered without a driver call.
    for (auto e = pending.rbegin(); e != pending.rend(); ++e)
        (*e)->wait();
    std::lock_guard lock(mutex);
    std::erase_if(outstanding, [](const event_ptr& o) { return o->status() == event_status::complete; });
    std::erase_if(keep_alive, [](const auto& k) { return k.first->status() == event_status::complete; });
}

} // namespace detail

queue::queue() : queue(device::default_device()) {}

queue::queue(queue_properties properties, async_handler handler)
    : queue(device::default_device(), properties, std::move(handler)) {}

queue::queue(const device& d, queue_properties properties, async_handler handler)
    : state_(std::make_shared<detail::queue_state>(d, properties, std::move(handler))) {}

const device& queue::get_device() const noexcept {
    return state_->dev;
}
const queue_properties& queue::properties() const noexcept {
    return state_->properties;
}

namespace {
// An eager host task of a traced queue: timed on the host thread that runs it.
std::function<void()> traced_host_task(std::function<void()> task, detail::trace_session& session) {
    return [task = std::move(task), &session] {
        detail::trace_record r;
        r.kind = detail::trace_record_kind::host_task;
        r.process = detail::trace_session::host_process;
        r.name = "host_task";
        r.command = command_kind::host_task;
        detail::run_timed(session, std::move(r), "host task thread", task);
    };
}

// An eager command of a traced queue on a backend the runtime times from its events (trace_recorder.hpp).
void trace_eager(detail::queue_state& s, detail::trace_session& session, const event_ptr& e, std::string name,
                 command_kind kind) {
    detail::trace_record r;
    r.kind = detail::trace_record_kind::eager;
    r.process = session.device_process(s.dev.backend_name(), s.dev.index(), s.dev.properties().name);
    r.name = std::move(name);
    r.command = kind;
    detail::trace_from_event(session, e, std::move(r), s.backend.get(), s.dev.backend_name());
}

// A command's submission to the backend while a trace records: a backend that does not time its own work gets
// it timed from its event. Out of line, so that the path without a trace stays as it was.
[[gnu::cold, gnu::noinline]] event_ptr submit_traced(detail::queue_state& s, detail::trace_session& trace,
                                                     command& c, std::span<const event_ptr> wait_list) {
    if (detail::backend_times_nodes(s.dev.backend_name())) return s.backend->submit(std::move(c), wait_list);
    auto name = detail::trace_name(c); // before the backend takes `c`
    const auto kind = kind_of(c);
    event_ptr e = s.backend->submit(std::move(c), wait_list);
    trace_eager(s, trace, e, std::move(name), kind);
    return e;
}

// The same for submit(const kernel_command&).
[[gnu::cold, gnu::noinline]] event_ptr submit_kernel_traced(detail::queue_state& s,
                                                            detail::trace_session& trace,
                                                            const kernel_command& k,
                                                            std::span<const event_ptr> wait_list) {
    event_ptr e = s.backend->submit_kernel(k, wait_list);
    if (!detail::backend_times_nodes(s.dev.backend_name()))
        trace_eager(s, trace, e, k.kernel->name(), command_kind::kernel);
    return e;
}

// What every eager submission does under the queue's lock: its wait list (the dependencies, and the last
// command on an in-order queue), the backend's call (`enqueue(wait_list)`), and the queue's record of it.
template <typename Enqueue>
event submit_locked(detail::queue_state& s, event_list dependencies, Enqueue&& enqueue) {
    std::array<event_ptr, 4> small_wait_list;
    std::lock_guard lock(s.mutex);
    event_ptr e;
    try {
        e = enqueue(s.wait_list(dependencies, small_wait_list, s.large_wait_list));
    } catch (...) {
        s.large_wait_list.clear();
        throw;
    }
    s.large_wait_list.clear();
    s.record(e);
    return event(std::move(e));
}
} // namespace

event queue::submit(command c, event_list dependencies) {
    validate(c);
    auto& s = *state_;
    if (auto* sub = std::get_if<subgraph_command>(&c)) {
        // Finalized here and launched as one unit; the queue keeps it alive until the launch completes.
        auto child = std::make_shared<executable_graph>(*sub->child, s.dev);
        event e = launch(*child, dependencies);
        std::lock_guard lock(s.mutex);
        s.keep_alive.emplace_back(e.state(), std::move(child));
        return e;
    }
    return submit_locked(s, dependencies, [&](std::span<const event_ptr> wait_list) {
        if (auto* h = std::get_if<host_task_command>(&c)) {
            if (auto* trace = detail::tracing()) [[unlikely]] // off, the profiler's whole cost here
                h->task = traced_host_task(std::move(h->task), *trace);
            return detail::launch_host_task(std::move(h->task), wait_list, s.errors,
                                            s.properties.enable_profiling);
        }
        if (std::holds_alternative<barrier_command>(c) && dependencies.empty() && !s.properties.in_order) {
            // A barrier without dependencies waits for everything submitted before it.
            std::erase_if(s.outstanding,
                          [](const event_ptr& o) { return o->status() == event_status::complete; });
            return s.backend->submit(std::move(c), s.outstanding);
        }
        if (auto* trace = detail::tracing()) [[unlikely]] // off, the profiler's whole cost here
            return submit_traced(s, *trace, c, wait_list);
        return s.backend->submit(std::move(c), wait_list);
    });
}

event queue::submit(const kernel_command& k, event_list dependencies) {
    validate(k);
    auto& s = *state_;
    return submit_locked(s, dependencies, [&](std::span<const event_ptr> wait_list) {
        if (auto* trace = detail::tracing()) [[unlikely]] // off, the profiler's whole cost here
            return submit_kernel_traced(s, *trace, k, wait_list);
        return s.backend->submit_kernel(k, wait_list);
    });
}

event queue::memcpy(void* destination, const void* source, std::size_t bytes, event_list dependencies) {
    return submit(memcpy_command{destination, source, bytes}, dependencies);
}

event queue::memset(void* destination, int value, std::size_t bytes, event_list dependencies) {
    return submit(memset_command{destination, value, bytes}, dependencies);
}

event queue::prefetch(const void* pointer, std::size_t bytes, event_list dependencies) {
    return submit(prefetch_command{pointer, bytes}, dependencies);
}

event queue::mem_advise(const void* pointer, std::size_t bytes, int advice, event_list dependencies) {
    return submit(mem_advise_command{pointer, bytes, advice}, dependencies);
}

event queue::parallel_for(const nd_range& range, std::shared_ptr<const kernel> k,
                          std::vector<kernel_argument> arguments, event_list dependencies) {
    return submit(kernel_command{std::move(k), std::move(arguments), range}, dependencies);
}

event queue::parallel_for(const nd_range& range, std::shared_ptr<const kernel> k, event_list dependencies) {
    return submit(kernel_command{std::move(k), {}, range}, dependencies);
}

event queue::host_task(std::function<void()> task, event_list dependencies) {
    return submit(host_task_command{std::move(task)}, dependencies);
}

event queue::barrier(event_list dependencies) {
    return submit(barrier_command{}, dependencies);
}

event queue::launch(executable_graph& g, event_list dependencies) {
    auto& s = *state_;
    std::lock_guard lock(s.mutex);
    auto e = g.launch(s, s.wait_list(dependencies));
    s.record(e);
    return event(std::move(e));
}

bool queue::empty() const {
    auto& s = *state_;
    std::lock_guard lock(s.mutex);
    // `last` completes after everything before it on an in-order queue; out-of-order, `outstanding` holds every
    // submission not yet seen complete.
    if (s.last && s.last->status() != event_status::complete) return false;
    return std::all_of(s.outstanding.begin(), s.outstanding.end(),
                       [](const event_ptr& o) { return o->status() == event_status::complete; });
}

void queue::wait() {
    state_->wait_all();
}

void queue::wait_and_throw() {
    wait();
    throw_asynchronous();
}

void queue::throw_asynchronous() {
    auto errors = state_->errors->take();
    if (errors.empty()) return;
    if (state_->handler) return state_->handler(std::move(errors));
    std::rethrow_exception(errors.front());
}

} // namespace encore

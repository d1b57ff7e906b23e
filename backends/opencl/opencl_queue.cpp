#include "opencl_queue.hpp"

#include <typeinfo>

#include "encore/backends/detail/block_pool.hpp"
#include "encore/backends/detail/completion_event.hpp"
#include "encore/backends/opencl/opencl_backend.hpp"
#include "encore/backends/opencl/opencl_commands.hpp"
#include "encore/graph/error.hpp"

namespace encore::opencl {

using detail::check;

wait_list_events::wait_list_events(const detail::api& cl, cl_context context, std::span<const event_ptr> wait_list,
                                   std::vector<cl_event>* spare)
    : cl_(cl), spare_(spare) {
    if (wait_list.size() > inline_.size()) {
        if (spare_) spilled_.swap(*spare_); // empty, with the capacity of the longest list before
        spilled_.reserve(wait_list.size());
    }
    try {
        collect(context, wait_list);
    } catch (...) {
        release();
        throw;
    }
}

void wait_list_events::collect(cl_context context, std::span<const event_ptr> wait_list) {
    for (const event_ptr& e : wait_list) {
        if (!e) continue;
        // opencl_event is final: comparing the type is exact, and cheaper than a dynamic_cast per dependency.
        if (typeid(*e) == typeid(opencl_event)) {
            if (const auto& ours = static_cast<const opencl_event&>(*e); ours.context() == context) {
                add(ours.handle());
                continue;
            }
        }
        if (e->status() == event_status::complete) continue;
        cl_int r = CL_SUCCESS;
        cl_event user = cl_.clCreateUserEvent(context, &r);
        check(r, "clCreateUserEvent", "a wait for another backend's work");
        cl_.clRetainEvent(user); // one reference for the callback, one for this list
        user_events_.push_back(user);
        add(user);
        const detail::api* functions = &cl_;
        e->on_complete([functions, user] {
            functions->clSetUserEventStatus(user, CL_COMPLETE);
            functions->clReleaseEvent(user);
        });
    }
}

void wait_list_events::add(cl_event e) {
    if (spilled_.empty() && count_ < inline_.size()) {
        inline_[count_++] = e;
        return;
    }
    if (spilled_.empty())
        spilled_.assign(inline_.begin(), inline_.begin() + static_cast<std::ptrdiff_t>(count_));
    spilled_.push_back(e);
    ++count_;
}

wait_list_events::~wait_list_events() {
    release();
}

void wait_list_events::release() noexcept {
    for (cl_event e : user_events_)
        cl_.clReleaseEvent(e);
    user_events_.clear();
    if (spare_ && spilled_.capacity() > spare_->capacity()) {
        spilled_.clear();
        spilled_.swap(*spare_);
    }
}

opencl_queue::opencl_queue(opencl_backend& backend, std::uint32_t device, const queue_properties& properties,
                           std::shared_ptr<error_sink> errors)
    : backend_(backend), device_(device), properties_(properties), errors_(std::move(errors)),
      link_(std::make_shared<queue_link>()),
      marks_(!properties.in_order && backend.state(device).use_markers) {
    link_->queue = backend.new_queue(device, !properties.in_order, properties.enable_profiling);
    link_->context = backend.state(device).context.get();
}

event_ptr opencl_queue::wrap(cl_event e, const std::shared_ptr<queue_link>& link, std::uint64_t submitted_ns,
                             std::uint64_t queued_ns) const {
    opencl_event::profiling_times times;
    if (properties_.enable_profiling)
        times = {submitted_ns, queued_ns, profiling_now(), &backend_.state(device_).clock};
    return std::allocate_shared<opencl_event>(encore::detail::pool_allocator<opencl_event>{}, backend_.cl(), e, link,
                                              properties_.enable_profiling, errors_, times);
}

std::uint64_t opencl_queue::profiling_now() const noexcept {
    return properties_.enable_profiling ? encore::detail::host_clock_ns() : 0;
}

event_ptr opencl_queue::submit(command c, std::span<const event_ptr> wait_list) {
    wait_list_events waits(backend_.cl(), link_->context, wait_list, &spare_wait_list_);
    cl_event e = nullptr;
    const std::uint64_t handed = profiling_now();
    try {
        e = enqueue(backend_, device_, link_->queue.get(), c, waits.events());
    } catch (const error& failure) {
        // A copy between memory objects the backend cannot reach is the work's failure, reported through the
        // queue as on the native backend (the reference); every other refusal leaves submit.
        if (kind_of(c) != command_kind::copy || failure.code() != errc::feature_not_supported || !errors_)
            throw;
        errors_->report(std::current_exception());
    }
    if (!e) { // nothing to do and nothing to wait for (or a copy reported as failed)
        auto done = std::make_shared<encore::detail::completion_event>(properties_.enable_profiling);
        const std::uint64_t now = encore::detail::host_clock_ns();
        done->set_submit(now);
        done->mark_running();
        done->complete();
        return done;
    }
    return made(e, handed);
}

event_ptr opencl_queue::submit_kernel(const kernel_command& k, std::span<const event_ptr> wait_list) {
    wait_list_events waits(backend_.cl(), link_->context, wait_list, &spare_wait_list_);
    const std::uint64_t handed = profiling_now();
    return made(enqueue_kernel(backend_, device_, link_->queue.get(), k, waits.events()), handed);
}

event_ptr opencl_queue::made(cl_event e, std::uint64_t handed) {
    auto event = wrap(e, link_, handed, handed);
    if (marks_ && link_->events_made.load(std::memory_order_relaxed) % marker_interval == 0)
        link_->mark(backend_.cl());
    return event;
}

opencl_queue& as_opencl_queue(backend_queue& queue, const opencl_backend& backend, std::uint32_t device,
                              const char* what) {
    auto* q = dynamic_cast<opencl_queue*>(&queue);
    if (!q)
        throw error(errc::invalid_argument, std::string(what) +
                                                " runs on an opencl queue; this queue is of another "
                                                "backend");
    if (&q->owner() != &backend || q->device() != device)
        throw error(errc::invalid_argument, std::string(what) + " was lowered for opencl device " +
                                                std::to_string(device) + "; the queue is on device " +
                                                std::to_string(q->device()));
    return *q;
}

} // namespace encore::opencl

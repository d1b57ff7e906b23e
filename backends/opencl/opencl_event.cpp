#include "opencl_event.hpp"

#include <algorithm>
#include <utility>

#include "encore/graph/error.hpp"

namespace encore::opencl {

namespace {
struct pending_callback {
    std::function<void()> callback;
    std::shared_ptr<error_sink> errors;
    bool report = false; // this registration reports a failure (the first one made)
};
} // namespace

queue_link::~queue_link() {
    if (marker_) marker_api_->clReleaseEvent(marker_);
}

void queue_link::flush_through(const detail::api& cl, std::uint64_t number) noexcept {
    if (!queue || flushed_through_.load(std::memory_order_acquire) >= number) return;
    // Every event numbered up to `made` was made after its command was enqueued: this flush covers them all.
    const std::uint64_t made = events_made.load(std::memory_order_acquire);
    cl.clFlush(queue.get());
    std::uint64_t known = flushed_through_.load(std::memory_order_relaxed);
    while (known < made && !flushed_through_.compare_exchange_weak(known, made, std::memory_order_acq_rel)) {
    }
}

void queue_link::mark(const detail::api& cl) noexcept {
    std::lock_guard lock(marker_mutex_);
    if (!queue || failed_) return;
    if (marker_) {
        cl_int s = CL_QUEUED;
        if (marker_api_->clGetEventInfo(marker_, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) !=
            CL_SUCCESS)
            s = CL_INVALID_EVENT;
        if (s > CL_COMPLETE) { // still pending: it completes once flushed and the commands before it have
            flush_through(cl, marker_covers_ + 1);
            return;
        }
        marker_api_->clReleaseEvent(std::exchange(marker_, nullptr));
        if (s != CL_COMPLETE) { // a command before it failed (found through its own event): no more markers
            failed_ = true;
            marked_.store(false, std::memory_order_release);
            return;
        }
        completed_through_.store(marker_covers_, std::memory_order_release);
    }
    const std::uint64_t covers = events_made.load(std::memory_order_acquire);
    cl_event marker = nullptr;
    if (cl.clEnqueueMarkerWithWaitList(queue.get(), 0, nullptr, &marker) != CL_SUCCESS) return;
    marker_api_ = &cl;
    marker_ = marker;
    marker_covers_ = covers;
    marked_.store(true, std::memory_order_release);
}

opencl_event::opencl_event(const detail::api& cl, cl_event e, std::shared_ptr<queue_link> queue,
                           bool profiling, std::shared_ptr<error_sink> errors, const profiling_times& times)
    : cl_(cl), event_(e), queue_(std::move(queue)), profiling_(profiling), errors_(std::move(errors)),
      times_(times),
      number_(queue_ ? queue_->events_made.fetch_add(1, std::memory_order_acq_rel) + 1 : 0) {}

opencl_event::~opencl_event() {
    cl_.clReleaseEvent(event_);
}

void opencl_event::flush() const noexcept {
    if (queue_) queue_->flush_through(cl_, number_);
}

void opencl_event::report_failure(cl_int status) const noexcept {
    if (reported_.exchange(true) || !errors_) return;
    errors_->report(std::make_exception_ptr(
        error(errc::backend_failure,
              "opencl: a command failed on the device: execution status " + detail::describe(status))));
}

event_status opencl_event::status() const noexcept {
    if (completed_by_marker()) return event_status::complete;
    cl_int s = CL_QUEUED;
    if (cl_.clGetEventInfo(event_, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) != CL_SUCCESS)
        return event_status::complete;
    if (s < 0) {
        report_failure(s);
        return event_status::complete;
    }
    if (s == CL_COMPLETE) return event_status::complete;
    flush();
    return s == CL_RUNNING ? event_status::running : event_status::submitted;
}

bool opencl_event::completed_by_marker() const noexcept {
    return queue_ && queue_->known_complete(number_);
}

bool opencl_event::known_complete() const noexcept {
    if (completed_by_marker()) return true;
    if (queue_ && queue_->marked()) return false; // a marker answers soon: no driver call
    return status() == event_status::complete;
}

void opencl_event::wait() {
    if (completed_by_marker()) return;
    flush();
    const cl_int r = cl_.clWaitForEvents(1, &event_);
    if (r == CL_SUCCESS) return;
    cl_int s = CL_COMPLETE;
    cl_.clGetEventInfo(event_, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
    report_failure(s < 0 ? s : r);
}

void CL_CALLBACK opencl_event::on_status(cl_event, cl_int status, void* data) {
    std::unique_ptr<pending_callback> pending(static_cast<pending_callback*>(data));
    if (status < 0 && pending->errors)
        pending->errors->report(std::make_exception_ptr(
            error(errc::backend_failure,
                  "opencl: a command failed on the device: execution status " + detail::describe(status))));
    pending->callback();
}

void opencl_event::on_complete(std::function<void()> callback) {
    cl_int s = CL_QUEUED;
    if (cl_.clGetEventInfo(event_, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS &&
        (s == CL_COMPLETE || s < 0)) {
        if (s < 0) report_failure(s);
        callback();
        return;
    }
    auto pending = std::make_unique<pending_callback>();
    pending->callback = std::move(callback);
    // The driver tells the callback the failure; only one report per event.
    if (!reported_.exchange(true)) pending->errors = errors_;
    const cl_int r = cl_.clSetEventCallback(event_, CL_COMPLETE, &opencl_event::on_status, pending.get());
    if (r != CL_SUCCESS) {
        // The driver cannot tell us: wait here instead (a failure path; callbacks must still run once).
        flush();
        cl_.clWaitForEvents(1, &event_);
        pending->callback();
        return;
    }
    static_cast<void>(pending.release()); // the driver's callback owns it now
    flush();
}

profiling_timestamps opencl_event::timestamps() const {
    if (!profiling_)
        throw error(errc::invalid_argument, "opencl event: the queue was not created with profiling");
    if (status() != event_status::complete)
        throw error(errc::invalid_argument, "opencl event: timestamps are known once the work has completed");
    auto device_time = [this](cl_profiling_info which) {
        cl_ulong value = 0;
        detail::check(cl_.clGetEventProfilingInfo(event_, which, sizeof value, &value, nullptr),
                      "clGetEventProfilingInfo");
        return static_cast<std::uint64_t>(value);
    };
    // On the host's clock, like every other timestamp of Encore's: the submission is when Encore began handing
    // the work over; start and end are the device's, moved by the device's clock offset (profiling_clock) where
    // the driver reports a QUEUED reading, else kept at their distance from SUBMIT or START, counted from the
    // enqueue call. Each command's own readings are used (drivers' clocks differ between commands: NVIDIA's
    // OpenCL gives SVM copies and fills times since 1970, kernels the GPU's time, and some commands a 0), and
    // never before the submission.
    const std::uint64_t queued = device_time(CL_PROFILING_COMMAND_QUEUED);
    const std::uint64_t submitted = device_time(CL_PROFILING_COMMAND_SUBMIT);
    const std::uint64_t started = device_time(CL_PROFILING_COMMAND_START);
    const std::uint64_t ended = device_time(CL_PROFILING_COMMAND_END);
    profiling_timestamps t;
    t.submit = times_.submitted_ns;
    if (queued != 0 && queued <= started && times_.clock) {
        const std::int64_t offset = times_.clock->offset(queued, times_.queued_ns, times_.returned_ns);
        t.start = std::max(static_cast<std::uint64_t>(static_cast<std::int64_t>(started) + offset), t.submit);
    } else {
        const std::uint64_t origin = submitted != 0 && submitted <= started ? submitted : started;
        t.start = std::max(times_.queued_ns + (started - origin), t.submit);
    }
    t.end = t.start + (ended >= started ? ended - started : 0);
    return t;
}

} // namespace encore::opencl

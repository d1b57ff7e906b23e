// encore::opencl::opencl_event — the event of one piece of OpenCL work (a command, a command buffer launch,
// the last command of a launch plan), around its cl_event.
//
// Waiting is clWaitForEvents; on_complete registers a clSetEventCallback (CL_COMPLETE), which the driver
// calls on its own thread, also for work that failed. The queue that made the event is flushed the first time
// someone waits, polls or registers, unless a flush of that queue came after the event's command: work reaches
// the device without a flush per command, and a poll of many events (an out-of-order queue pruning the ones
// that completed) costs one flush, not one each. An out-of-order queue also enqueues a marker every
// marker_interval commands (queue_link::mark); once one completes, the events before it answer their status
// without asking the driver (on NVIDIA's OpenCL each status query costs about as much as an enqueue, and the
// runtime's queue asks about every command it submitted once). A command that
// ends with a negative execution status (the driver's failure, found after submission) is reported once to
// the queue's error_sink as errc::backend_failure. Profiling timestamps are on the host's clock (as every
// backend's): the submission is Encore's, start and end the device's distances from the command's queueing.
//
//     auto e = std::make_shared<opencl_event>(cl, event, queue_link, /*profiling=*/true, errors);
//     e->on_complete([] { /* start dependent work */ });
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "encore/backends/backend.hpp"
#include "encore/backends/opencl/detail/api.hpp"

namespace encore::opencl {

// A command queue shared by the queue (or executable) that owns it and its events, which flush it.
struct queue_link {
    detail::queue_handle queue;
    cl_context context = nullptr;
    // Events made for this queue's commands, each numbered when made (after its command was enqueued), the
    // number of the last one a clFlush is known to have covered, and of the last one known to have completed
    // (by a marker: queue_link::mark).
    std::atomic<std::uint64_t> events_made{0};
    std::atomic<std::uint64_t> flushed_through{0};
    // Shared with the markers' callbacks, which must not keep the queue alive.
    std::shared_ptr<std::atomic<std::uint64_t>> completed_through = std::make_shared<std::atomic<std::uint64_t>>(0);

    // clFlush, unless a flush after the command of event `number` was made already.
    void flush_through(const detail::api& cl, std::uint64_t number) noexcept;
    // Enqueues a marker after every command so far (no wait list: all of them, on an out-of-order queue too);
    // when it completes without an error, completed_through covers the events made before it. Best effort: a
    // marker the driver refuses changes nothing.
    static void mark(const detail::api& cl, const std::shared_ptr<queue_link>& link) noexcept;
};

// How many commands an out-of-order opencl_queue submits between two markers.
inline constexpr std::uint64_t marker_interval = 64;

class opencl_event final : public backend_event {
public:
    // Takes over `e` (one reference). With profiling: `submitted_ns` is when Encore began handing the work over
    // (its submit timestamp), `queued_ns` when the command of `e` was enqueued (host clock, read just before
    // the enqueue call: the driver's CL_PROFILING_COMMAND_QUEUED of `e` is the same moment on its clock).
    opencl_event(const detail::api& cl, cl_event e, std::shared_ptr<queue_link> queue, bool profiling,
                 std::shared_ptr<error_sink> errors, std::uint64_t submitted_ns = 0, std::uint64_t queued_ns = 0);
    ~opencl_event() override;
    opencl_event(const opencl_event&) = delete;
    opencl_event& operator=(const opencl_event&) = delete;

    event_status status() const noexcept override;
    void wait() override;
    void on_complete(std::function<void()> callback) override;
    bool has_profiling() const noexcept override { return profiling_; }
    profiling_timestamps timestamps() const override;

    cl_event handle() const noexcept { return event_; }
    cl_context context() const noexcept { return queue_->context; }

private:
    void flush() const noexcept;
    bool known_complete() const noexcept; // a marker enqueued after it completed
    void report_failure(cl_int status) const noexcept;
    static void CL_CALLBACK on_status(cl_event e, cl_int status, void* data);

    const detail::api& cl_;
    cl_event event_;
    std::shared_ptr<queue_link> queue_;
    const bool profiling_;
    std::shared_ptr<error_sink> errors_;
    const std::uint64_t submitted_ns_, queued_ns_; // host clock, with profiling
    const std::uint64_t number_; // in queue_->events_made (0: no queue)
    mutable std::atomic<bool> reported_{false};
};

} // namespace encore::opencl

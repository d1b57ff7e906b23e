// encore::opencl::opencl_event — the event of one piece of OpenCL work (a command, a command buffer launch,
// the last command of a launch plan), around its cl_event.
//
// Waiting is clWaitForEvents; on_complete registers a clSetEventCallback (CL_COMPLETE), which the driver
// calls on its own thread, also for work that failed. The queue that made the event is flushed the first time
// someone waits, polls or registers, unless a flush of that queue came after the event's command: work reaches
// the device without a flush per command, and a poll of many events (an out-of-order queue pruning the ones
// that completed) costs one flush, not one each. An out-of-order queue also enqueues a marker every
// marker_interval commands (queue_link::mark); once it has completed, the events before it answer status and
// wait without asking the driver (on NVIDIA's OpenCL each status query cost about as much as an enqueue, and the
// runtime's queue asks about each command it submitted). A command that
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
#include <mutex>

#include "encore/backends/backend.hpp"
#include "encore/backends/opencl/detail/api.hpp"

namespace encore::opencl {

// A command queue shared by the queue (or executable) that owns it and its events, which flush it. Events made
// for its commands are numbered in order, each after its command was enqueued: a flush covers every event made
// before it, and so does a marker enqueued after them once it completed.
class queue_link {
public:
    detail::queue_handle queue;
    cl_context context = nullptr;
    std::atomic<std::uint64_t> events_made{0};

    queue_link() = default;
    ~queue_link();
    queue_link(const queue_link&) = delete;
    queue_link& operator=(const queue_link&) = delete;

    // clFlush, unless a flush after the command of event `number` was made already.
    void flush_through(const detail::api& cl, std::uint64_t number) noexcept;
    // Enqueues a marker after every command so far (no wait list: all of them, on an out-of-order queue too),
    // unless the last one is still pending. Best effort: a marker the driver refuses changes nothing.
    void mark(const detail::api& cl) noexcept;
    // Whether the command of event `number` is known to have completed without an error: a marker enqueued after
    // it did (its status asked once per poll, instead of one event's each). False says nothing.
    bool known_complete(std::uint64_t number) noexcept;

private:
    std::atomic<std::uint64_t> flushed_through_{0};
    std::atomic<std::uint64_t> completed_through_{0};
    std::mutex marker_mutex_;
    const detail::api* marker_api_ = nullptr;
    cl_event marker_ = nullptr; // pending; covers the events made up to marker_covers_
    std::uint64_t marker_covers_ = 0;
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

// encore::opencl::opencl_event — the event of one piece of OpenCL work (a command, a command buffer launch,
// the last command of a launch plan), around its cl_event.
//
// Waiting is clWaitForEvents; on_complete registers a clSetEventCallback (CL_COMPLETE), which the driver
// calls on its own thread, also for work that failed. The queue that made the event is flushed the first time
// someone waits, polls or registers, unless a flush of that queue came after the event's command: work reaches
// the device without a flush per command, and a poll of many events (an out-of-order queue pruning the ones
// that completed) costs one flush, not one each. An out-of-order queue of a device other than a CPU also
// enqueues a marker every marker_interval commands (queue_link::mark), asks the one before it once then, and
// flushes it when it is still pending; once one has completed, the events before it answer status, wait and
// known_complete without asking the driver. The runtime's queue drops the events it keeps for queue::wait
// through known_complete, so on such a queue it asks the driver nothing per command (on NVIDIA's OpenCL each
// status query cost about as much as an enqueue). On a CPU device (PoCL) a query is cheap and a marker is not
// (opencl_backend::device_state::use_markers says why): its events answer known_complete with a status query.
// A command that ends with a negative execution status (the driver's failure, found after submission) is
// reported once to the queue's error_sink as errc::backend_failure. Profiling timestamps are on the host's
// clock (as every backend's): the submission is Encore's, start and end the device's, moved to the host's clock
// by the device's profiling_clock.
//
//     auto e = std::make_shared<opencl_event>(cl, event, queue_link, /*profiling=*/false, errors, {});
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
    // Asks the pending marker whether it completed (and flushes the queue if not, so that it can); when none is
    // pending, enqueues one after every command so far (no wait list: all of them, on an out-of-order queue
    // too). Best effort: a marker the driver refuses changes nothing.
    void mark(const detail::api& cl) noexcept;
    // Whether markers answer for this queue's events: one was enqueued and none failed.
    bool marked() const noexcept { return marked_.load(std::memory_order_acquire); }
    // Whether the command of event `number` is known to have completed without an error: a marker enqueued
    // after it did. False says nothing. No driver call.
    bool known_complete(std::uint64_t number) const noexcept {
        return number <= completed_through_.load(std::memory_order_acquire);
    }

private:
    std::atomic<std::uint64_t> flushed_through_{0};
    std::atomic<std::uint64_t> completed_through_{0};
    std::atomic<bool> marked_{false};
    std::mutex marker_mutex_;
    const detail::api* marker_api_ = nullptr;
    cl_event marker_ = nullptr; // pending; covers the events made up to marker_covers_
    std::uint64_t marker_covers_ = 0;
    bool failed_ = false; // a marker failed: markers answer nothing for this queue
};

// The offset from a device's profiling clock to the host's (steady_clock), learned from the commands themselves:
// OpenCL has no portable way to read both clocks at once (PoCL 3.1 refuses clGetDeviceAndHostTimer, and its clock
// is CLOCK_MONOTONIC_RAW, a constant distance from the host's clock), but a command's CL_PROFILING_COMMAND_QUEUED
// lies between the host's readings just before and just after its enqueue call, which bounds the offset from
// both sides. The device keeps the tightest lower bound seen (on PoCL the enqueue call takes its QUEUED reading
// about 2 us after it begins, and returns 15-30 us later, so the lower bound is the sharp one); each command's
// offset is that bound where it lies within the command's own bounds, else the command's lower bound, which
// also starts a new estimate (a clock that drifted, or a driver that times some commands on another clock:
// NVIDIA's OpenCL gives SVM copies and fills times since 1970 and kernels the GPU's time).
class profiling_clock {
public:
    // The offset (host minus device) for a command whose QUEUED reading is `queued` (device clock) and whose
    // enqueue call ran from `before` to `after` (host clock).
    std::int64_t offset(std::uint64_t queued, std::uint64_t before, std::uint64_t after) noexcept {
        const std::int64_t low = static_cast<std::int64_t>(before) - static_cast<std::int64_t>(queued);
        const std::int64_t high = static_cast<std::int64_t>(after) - static_cast<std::int64_t>(queued);
        if (known_.load(std::memory_order_acquire)) {
            std::int64_t bound = lower_.load(std::memory_order_relaxed);
            if (bound >= low && bound <= high) return bound; // the device's estimate fits this command
            if (bound < low) { // this command's bound is sharper: raise the device's (others may raise it too)
                while (bound < low && !lower_.compare_exchange_weak(bound, low, std::memory_order_relaxed)) {
                }
                return low;
            }
        }
        // The device's first command, or one its estimate does not fit: its bound starts a new estimate.
        lower_.store(low, std::memory_order_relaxed);
        known_.store(true, std::memory_order_release);
        return low;
    }

private:
    std::atomic<std::int64_t> lower_{0};
    std::atomic<bool> known_{false};
};

// How many commands an out-of-order opencl_queue submits between two markers.
inline constexpr std::uint64_t marker_interval = 64;

class opencl_event final : public backend_event {
public:
    // Takes over `e` (one reference). With profiling: `submitted_ns` is when Encore began handing the work over
    // (its submit timestamp); the command of `e` was enqueued between `queued_ns` and `returned_ns` (host clock,
    // read just before and just after the enqueue call: the driver's CL_PROFILING_COMMAND_QUEUED of `e` lies
    // between them on its clock); `clock` is the device's (it outlives its events, as the backend does).
    struct profiling_times {
        std::uint64_t submitted_ns = 0, queued_ns = 0, returned_ns = 0;
        profiling_clock* clock = nullptr;
    };
    opencl_event(const detail::api& cl, cl_event e, std::shared_ptr<queue_link> queue, bool profiling,
                 std::shared_ptr<error_sink> errors, const profiling_times& times);
    ~opencl_event() override;
    opencl_event(const opencl_event&) = delete;
    opencl_event& operator=(const opencl_event&) = delete;

    event_status status() const noexcept override;
    // From the queue's markers where it has them (no driver call), else status().
    bool known_complete() const noexcept override;
    void wait() override;
    void on_complete(std::function<void()> callback) override;
    bool has_profiling() const noexcept override { return profiling_; }
    profiling_timestamps timestamps() const override;

    cl_event handle() const noexcept { return event_; }
    cl_context context() const noexcept { return queue_->context; }

private:
    void flush() const noexcept;
    bool completed_by_marker() const noexcept; // a marker enqueued after it completed: no driver call
    void report_failure(cl_int status) const noexcept;
    static void CL_CALLBACK on_status(cl_event e, cl_int status, void* data);

    const detail::api& cl_;
    cl_event event_;
    std::shared_ptr<queue_link> queue_;
    const bool profiling_;
    std::shared_ptr<error_sink> errors_;
    const profiling_times times_; // with profiling
    const std::uint64_t number_; // in queue_->events_made (0: no queue)
    mutable std::atomic<bool> reported_{false};
};

} // namespace encore::opencl

// encore::event — the completion of one piece of submitted work: a command, a host task, a graph launch.
//
// A cheap shared handle. status() never blocks; wait() blocks until the work has completed (it does not throw
// what the work threw: that goes to the queue's async handler, see encore::queue). profiling() gives the
// submit, start and end timestamps, in nanoseconds, of work submitted to a queue with enable_profiling; like
// SYCL's get_profiling_info, it first waits for the work to complete. A default-constructed event is
// complete.
//
//     auto e = q.memset(p, 0, n);
//     e.wait();
//     auto t = e.profiling();   // t.end - t.start: how long the memset ran
#pragma once

#include <initializer_list>
#include <memory>
#include <span>

#include "encore/backends/backend.hpp"

namespace encore {

class event {
public:
    event() = default;
    explicit event(event_ptr state) : state_(std::move(state)) {}

    event_status status() const noexcept;
    bool is_complete() const noexcept { return status() == event_status::complete; }
    void wait() const;
    static void wait(std::span<const event> events);
    static void wait(std::initializer_list<event> events) {
        wait(std::span<const event>(events.begin(), events.size()));
    }

    // Waits for completion, then returns the timestamps; throws encore::error(invalid_argument) if the work's
    // queue was created without enable_profiling.
    profiling_timestamps profiling() const;

    // The backend's state (null for a default-constructed event).
    const event_ptr& state() const noexcept { return state_; }
    friend bool operator==(const event&, const event&) = default;

private:
    event_ptr state_;
};

} // namespace encore

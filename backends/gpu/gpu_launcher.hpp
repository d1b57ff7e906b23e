// encore::gpu::launcher — where every stream call of a device's queues is made: one submission_thread per
// device (backends/detail/submission_thread.hpp), fed launch_tasks in submission order.
//
// Why a thread: cuLaunchKernel costs 2.5-4 µs of CPU on the H100 machine (CUDA), most of an eager submission. When
// submissions come in bursts, the queue prepares the command (driver_command::from, which also throws every
// error a submission can be refused with), takes its event and hands the task over; the launcher's thread makes
// the driver calls back to back while the submitter prepares the next one. A submission that comes alone runs
// its task on the submitting thread (no wake-up on its path); either way tasks run in submission order, so a
// later task's cuStreamWaitEvent always finds the event it waits for recorded.
//
// A task's driver failure: on the submitting thread it leaves submit() (as before the launcher); on the
// launcher's thread it goes to the queue's error_sink and the event completes as failed. Memory is freed only
// after the launcher has run what was submitted before (gpu_backend::deallocate drains it).
#pragma once

#include <exception>
#include <functional>
#include <memory>

#include <boost/container/small_vector.hpp>

#include "encore/backends/gpu/gpu_commands.hpp"
#include "encore/backends/gpu/gpu_event.hpp"
#include "encore/backends/detail/submission_thread.hpp"

namespace encore::gpu {

// One submission's driver calls on its stream: waits for other streams' events, the work, the record. What the
// launcher's thread reads for a plain kernel launch is in the first few cache lines (members in that order).
struct launch_task {
    std::shared_ptr<gpu_event> event;
    stream_state* stream = nullptr; // kept alive by the event
    std::uint32_t device = 0;       // the ordinal
    bool record = false;            // record the event right after the work (not on demand)
    std::shared_ptr<gpu_event> tail; // graph launches: the stream's on-demand event, recorded first
    boost::container::small_vector<event_ptr, 2> waits; // gpu_events on other streams (of any device of
                                                        // the backend), before this task
    std::function<void(gpu::driver_stream)> function; // the work when set (a graph launch, ...); otherwise `command`
    driver_command command;

    void set_work(driver_command c) { command = std::move(c); }
    void set_work(std::function<void(gpu::driver_stream)> f) { function = std::move(f); }

    void operator()();                         // throws what a driver call throws
    void prefetch() const noexcept;            // the event and stream lines operator() writes or reads
    void fail(std::exception_ptr e) noexcept;  // on the launcher's thread: to the error_sink; the event fails
};

using launcher = encore::detail::submission_thread<launch_task>;

// 256 queued tasks (about 1 ms of launches) before a submitter waits.
inline encore::detail::submission_thread_options launcher_options() {
    return {.capacity = 256};
}

} // namespace encore::gpu

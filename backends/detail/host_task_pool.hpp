// host_task_pool — the host threads that run host tasks, for every backend. Not for you: submit host tasks
// through encore::queue or put them in a graph.
//
// A host task may block for as long as it likes (on I/O, on another event, on another host task), so host
// tasks never run on oneTBB's workers, whose number is fixed, and never on the submitting thread. The pool
// keeps idle threads for reuse and starts a new one whenever more tasks are queued than threads are idle: any
// number of host tasks that wait for each other can all be running at once, so no set of host tasks can
// deadlock the pool.
//
//     host_task_pool::global().run([] { write_checkpoint(); });
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "encore/backends/backend.hpp"

namespace encore::detail {

class host_task_pool {
public:
    host_task_pool() = default;
    ~host_task_pool(); // runs what is queued, then joins every thread
    host_task_pool(const host_task_pool&) = delete;
    host_task_pool& operator=(const host_task_pool&) = delete;

    static host_task_pool& global();

    // `task` must not throw (the runtime wraps user tasks).
    void run(std::function<void()> task);
    std::size_t thread_count() const;

private:
    void work();

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queued_;
    std::vector<std::thread> threads_;
    std::size_t idle_ = 0;
    bool stopping_ = false;
};

// Runs a host task on the global pool once every event of `wait_list` has completed. What it throws goes to
// `errors`; its event completes either way (dependents still run, as in SYCL). Executable graphs pass a small
// lambda that calls the task kept in the graph, which std::function stores without allocating.
event_ptr launch_host_task(std::function<void()> task, std::span<const event_ptr> wait_list,
                           std::shared_ptr<error_sink> errors, bool profiling);

} // namespace encore::detail

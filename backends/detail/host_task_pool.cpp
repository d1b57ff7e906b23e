#include "host_task_pool.hpp"

#include "completion_event.hpp"

namespace encore::detail {

host_task_pool& host_task_pool::global() {
    static host_task_pool pool;
    return pool;
}

host_task_pool::~host_task_pool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_)
        t.join();
}

void host_task_pool::run(std::function<void()> task) {
    std::lock_guard lock(mutex_);
    queued_.push_back(std::move(task));
    // Every queued task needs a thread of its own that is idle now: tasks already queued may be waiting for
    // this one, so it must not wait behind them.
    if (queued_.size() > idle_)
        threads_.emplace_back([this] { work(); });
    else
        wake_.notify_one();
}

std::size_t host_task_pool::thread_count() const {
    std::lock_guard lock(mutex_);
    return threads_.size();
}

void host_task_pool::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        ++idle_;
        wake_.wait(lock, [this] { return stopping_ || !queued_.empty(); });
        --idle_;
        if (queued_.empty()) return; // stopping, nothing left to run
        auto task = std::move(queued_.front());
        queued_.pop_front();
        lock.unlock();
        task();
        task = nullptr; // destroy what the task captured before taking the lock again
        lock.lock();
    }
}

event_ptr launch_host_task(std::function<void()> task, std::span<const event_ptr> wait_list,
                           std::shared_ptr<error_sink> errors, bool profiling) {
    auto done = std::make_shared<completion_event>(profiling);
    when_all(wait_list, [task = std::move(task), done, errors = std::move(errors)]() mutable {
        host_task_pool::global().run([task = std::move(task), done, errors] {
            done->mark_running();
            try {
                task();
            } catch (...) {
                errors->report(std::current_exception());
            }
            done->complete();
        });
    });
    return done;
}

} // namespace encore::detail

#include "level_zero_event.hpp"

#include <chrono>

#include "encore/graph/error.hpp"

namespace encore::level_zero {

using detail::check;

event_pool::event_pool(const detail::api& ze, ze_context_handle_t context, bool timestamps)
    : ze_(ze), context_(context), timestamps_(timestamps) {}

event_pool::~event_pool() {
    free_.clear();
    events_.clear(); // events before their pools
    pools_.clear();
}

ze_event_handle_t event_pool::acquire() {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
        ze_event_handle_t e = free_.back();
        free_.pop_back();
        return e;
    }
    if (used_in_last_ == pool_size) {
        ze_event_pool_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC};
        desc.flags =
            ZE_EVENT_POOL_FLAG_HOST_VISIBLE | (timestamps_ ? ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP : 0);
        desc.count = pool_size;
        detail::pool_handle made;
        check(ze_.zeEventPoolCreate(context_, &desc, 0, nullptr, made.out()), "zeEventPoolCreate");
        pools_.push_back(std::move(made));
        used_in_last_ = 0;
    }
    ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC};
    desc.index = used_in_last_;
    desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
    desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
    detail::event_handle made;
    check(ze_.zeEventCreate(pools_.back().get(), &desc, made.out()), "zeEventCreate");
    ++used_in_last_;
    events_.push_back(std::move(made));
    return events_.back().get();
}

void event_pool::release(ze_event_handle_t e) noexcept {
    if (ze_.zeEventHostReset(e) != ZE_RESULT_SUCCESS) return; // never reused then
    std::lock_guard lock(mutex_);
    free_.push_back(e);
}

event_watcher::~event_watcher() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void event_watcher::watch(std::shared_ptr<level_zero_event> e, std::function<void()> callback) {
    {
        std::lock_guard lock(mutex_);
        if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
        pending_.emplace_back(std::move(e), std::move(callback));
    }
    changed_.notify_all();
}

void event_watcher::loop() {
    // Polling, because Level Zero has no completion callback: a short sleep between rounds while anything is
    // pending keeps a completion's latency in the tens of microseconds without spinning a core.
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
        if (stopping_ && pending_.empty()) return;
        auto round = std::move(pending_);
        pending_.clear();
        lock.unlock();
        decltype(pending_) still;
        std::vector<std::function<void()>> ready;
        for (auto& [e, callback] : round) {
            if (e->status() == event_status::complete)
                ready.push_back(std::move(callback));
            else
                still.emplace_back(std::move(e), std::move(callback));
        }
        for (auto& callback : ready)
            callback();
        round.clear();
        if (!still.empty() && ready.empty()) std::this_thread::sleep_for(std::chrono::microseconds(20));
        lock.lock();
        for (auto& p : still)
            pending_.push_back(std::move(p));
        if (stopping_) { // the backend goes: wait for the rest here
            lock.unlock();
            for (auto& [e, callback] : pending_) {
                e->wait();
                callback();
            }
            lock.lock();
            pending_.clear();
            return;
        }
    }
}

level_zero_event::level_zero_event(const detail::api& ze, event_watcher& watcher, event_pool& pool,
                                   ze_event_handle_t e, bool profiling, event_timing timing,
                                   std::vector<std::shared_ptr<void>> keep_alive)
    : ze_(ze), watcher_(watcher), pool_(pool), event_(e), profiling_(profiling), timing_(std::move(timing)),
      keep_alive_(std::move(keep_alive)) {}

level_zero_event::~level_zero_event() {
    // Nobody holds the event any more, but its work may still run (a launch dropped without a wait): it must
    // finish before the ze event goes back to the pool.
    if (!done_.load(std::memory_order_acquire)) ze_.zeEventHostSynchronize(event_, UINT64_MAX);
    completed();
    pool_.release(event_);
}

void level_zero_event::completed() const noexcept {
    done_.store(true, std::memory_order_release);
    std::vector<std::shared_ptr<void>> keep;
    {
        std::lock_guard lock(keep_mutex_);
        keep.swap(keep_alive_);
    }
}

event_status level_zero_event::status() const noexcept {
    if (done_.load(std::memory_order_acquire)) return event_status::complete;
    if (ze_.zeEventQueryStatus(event_) != ZE_RESULT_SUCCESS) return event_status::submitted;
    completed();
    return event_status::complete;
}

void level_zero_event::wait() {
    if (done_.load(std::memory_order_acquire)) return;
    check(ze_.zeEventHostSynchronize(event_, UINT64_MAX), "zeEventHostSynchronize");
    completed();
}

void level_zero_event::on_complete(std::function<void()> callback) {
    if (status() == event_status::complete) {
        callback();
        return;
    }
    watcher_.watch(shared_from_this(), std::move(callback));
}

profiling_timestamps level_zero_event::timestamps() const {
    if (!profiling_)
        throw error(errc::invalid_argument, "level_zero event: the queue was not created with profiling");
    if (status() != event_status::complete)
        throw error(errc::invalid_argument,
                    "level_zero event: timestamps are known once the work has completed");
    auto ns = [&](std::uint64_t ticks) { return static_cast<std::uint64_t>(ticks * timing_.ns_per_tick); };
    profiling_timestamps t;
    t.submit = ns(timing_.submit_ticks);
    if (timing_.launch_stamps) {
        // [0]: the event the prefix signals when the graph may start; [1]: the one its main list signals at
        // its end.
        const ze_kernel_timestamp_result_t* stamps = timing_.launch_stamps.get();
        t.start = ns(stamps[0].global.kernelEnd);
        t.end = ns(stamps[1].global.kernelEnd);
    } else {
        ze_kernel_timestamp_result_t r{};
        check(ze_.zeEventQueryKernelTimestamp(event_, &r), "zeEventQueryKernelTimestamp");
        t.start = ns(r.global.kernelStart);
        t.end = ns(r.global.kernelEnd);
    }
    if (t.start < t.submit) t.start = t.submit; // the submission was stamped after the driver had begun
    if (t.end < t.start) t.end = t.start;
    return t;
}

namespace {
// An event of this context that a foreign event's completion signals from the host.
struct host_signaled {
    host_signaled(const detail::api& ze, event_pool& pool) : ze(ze), pool(pool), event(pool.acquire()) {}
    ~host_signaled() { pool.release(event); }
    const detail::api& ze;
    event_pool& pool;
    ze_event_handle_t event;
};
} // namespace

wait_events collect_wait_events(const detail::api& ze, event_pool& pool,
                                std::span<const event_ptr> wait_list) {
    wait_events out;
    for (const auto& e : wait_list) {
        if (!e || e->status() == event_status::complete) continue;
        if (auto* own = dynamic_cast<level_zero_event*>(e.get());
            own && own->pool().context() == pool.context()) {
            out.handles.push_back(own->handle());
            out.keep_alive.push_back(e);
            continue;
        }
        auto bridge = std::make_shared<host_signaled>(ze, pool);
        out.handles.push_back(bridge->event);
        out.keep_alive.push_back(bridge);
        e->on_complete([bridge] { bridge->ze.zeEventHostSignal(bridge->event); });
    }
    return out;
}

} // namespace encore::level_zero

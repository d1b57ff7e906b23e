#include "gpu_event.hpp"

#include <algorithm>
#include <chrono>

#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/backends/gpu/driver.hpp"
#include "encore/backends/detail/completion_event.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

profiling_reference::~profiling_reference() {
    if (event) api->destroy_event(event);
}

gpu_event::gpu_event(gpu_backend& backend, std::uint32_t device, std::shared_ptr<profiling_reference> profiling)
    : backend_(backend), device_(device), reference_(std::move(profiling)) {
    if (reference_) submit_ns_ = encore::detail::host_clock_ns();
}

gpu_event::~gpu_event() {
    if (reference_) {
        if (event_) backend_.api().destroy_event(event_);
        if (start_event_) backend_.api().destroy_event(start_event_);
    } else if (event_) {
        backend_.release_event(device_, event_);
    }
}

void gpu_event::record_start_locked(stream_state& s) {
    start_event_ = backend_.api().create_event(true);
    backend_.api().record(start_event_, s.stream);
}

void gpu_event::record_locked(stream_state& s) {
    if (recorded_) return;
    if (!event_) {
        event_ = reference_ ? backend_.api().create_event(true) : backend_.acquire_event(device_);
    }
    backend_.api().record(event_, s.stream);
    recorded_ = true;
    record_number_.store(++s.records, std::memory_order_release);
}

void gpu_event::completed_on_stream() const noexcept {
    complete_known();
    const std::uint64_t number = record_number_.load(std::memory_order_acquire);
    std::atomic<std::uint64_t>& through = stream_->complete_through;
    for (std::uint64_t seen = through.load(std::memory_order_relaxed);
         seen < number && !through.compare_exchange_weak(seen, number, std::memory_order_release);) {
    }
}

std::vector<std::function<void()>> gpu_event::move_to(state next) {
    std::vector<std::function<void()>> pending;
    bool notify = false;
    {
        std::lock_guard lock(mutex_);
        state_.store(next, std::memory_order_release);
        if (next != state::enqueued) pending.swap(pending_);
        notify = waiters_;
    }
    if (notify) state_.notify_all();
    return pending;
}

void gpu_event::set_enqueued(std::shared_ptr<stream_state> s) {
    stream_ = std::move(s); // published by the state's release store
    move_to(state::enqueued);
}

void gpu_event::set_launched() {
    for (auto& callback : move_to(state::launched))
        on_complete(std::move(callback));
}

void gpu_event::set_failed() noexcept {
    complete_known(); // first: whoever wakes from wait() or sees `failed` finds the event complete
    for (auto& callback : move_to(state::failed))
        callback();
}

void gpu_event::wait_launched() {
    for (state s = state_.load(std::memory_order_acquire); s == state::enqueued;
         s = state_.load(std::memory_order_acquire)) {
        {
            std::lock_guard lock(mutex_); // a state change after this sees waiters_ and notifies
            waiters_ = true;
        }
        state_.wait(s, std::memory_order_acquire);
    }
}

gpu::driver_event gpu_event::recorded_handle() {
    stream_state& s = *stream_;
    std::lock_guard lock(s.mutex);
    record_locked(s);
    return event_;
}

event_status gpu_event::status() const noexcept {
    if (known_complete()) return event_status::complete;
    if (state_.load(std::memory_order_acquire) != state::launched) return event_status::submitted;
    try {
        gpu::driver_event e = const_cast<gpu_event*>(this)->recorded_handle();
        if (!backend_.api().query(e)) return event_status::running;
        completed_on_stream(); // done, or failed in a way the next wait reports
        return event_status::complete;
    } catch (...) {
        return event_status::running; // a record that failed now will fail again, and throw, in wait()
    }
}

void gpu_event::wait() {
    if (known_complete()) return;
    for (state s = state_.load(std::memory_order_acquire); s == state::deferred || s == state::enqueued;
         s = state_.load(std::memory_order_acquire)) {
        {
            std::lock_guard lock(mutex_); // a state change after this sees waiters_ and notifies
            waiters_ = true;
        }
        state_.wait(s, std::memory_order_acquire);
    }
    if (state_.load(std::memory_order_acquire) == state::failed) return;
    gpu::driver_event e = recorded_handle();
    context_scope scope(backend_.api(), stream_->context);
    backend_.api().synchronize(e);
    completed_on_stream();
}

void gpu_event::on_complete(std::function<void()> callback) {
    if (done_.load(std::memory_order_acquire)) {
        callback();
        return;
    }
    {
        std::lock_guard lock(mutex_);
        const state s = state_.load(std::memory_order_acquire);
        if (s == state::deferred || s == state::enqueued) {
            pending_.push_back(std::move(callback));
            return;
        }
    }
    if (state_.load(std::memory_order_acquire) == state::failed) {
        callback();
        return;
    }
    gpu::driver_event e = recorded_handle();
    backend_.watcher().watch(shared_from_this(), e, stream_->context, std::move(callback));
}

profiling_timestamps gpu_event::timestamps() const {
    if (!reference_)
        throw error(errc::invalid_argument, "event profiling: the queue was created without enable_profiling");
    if (status() != event_status::complete)
        throw error(errc::invalid_argument, "event profiling: the command has not completed yet");
    profiling_timestamps t;
    t.submit = submit_ns_;
    if (!start_event_ || !event_) { // never reached a stream
        t.start = t.end = submit_ns_;
        return t;
    }
    auto since_reference = [this](gpu::driver_event e) {
        const float ms = backend_.api().elapsed_ms(reference_->event, e);
        return reference_->host_ns + static_cast<std::uint64_t>(static_cast<double>(ms) * 1e6);
    };
    t.start = std::max(since_reference(start_event_), t.submit);
    t.end = std::max(since_reference(event_), t.start);
    return t;
}

std::uint64_t gpu_event::time_of(gpu::driver_event e, const profiling_timestamps& t) const {
    if (!start_event_) return t.start;
    const float ms = backend_.api().elapsed_ms(start_event_, e);
    const auto since_start = static_cast<std::uint64_t>(std::max(0.0, static_cast<double>(ms) * 1e6));
    return std::min(t.start + since_start, t.end);
}

completion_watcher::completion_watcher(driver& api) : api_(api), thread_([this] { run(); }) {}

completion_watcher::~completion_watcher() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void completion_watcher::watch(std::shared_ptr<gpu_event> e, gpu::driver_event handle, gpu::driver_context context,
                               std::function<void()> callback) {
    {
        std::lock_guard lock(mutex_);
        incoming_.push_back({std::move(e), handle, context, std::move(callback)});
    }
    wake_.notify_one();
}

// Polls every watched event once per round; a round that completes nothing is followed by a yield (the
// first 64 times) or a 20 µs sleep. O(watched events) per round.
void completion_watcher::run() {
    std::vector<item> watched;
    int idle_rounds = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            if (watched.empty())
                wake_.wait(lock, [this] { return stop_ || !incoming_.empty(); });
            if (stop_) return;
            for (auto& i : incoming_)
                watched.push_back(std::move(i));
            incoming_.clear();
        }
        bool progress = false;
        for (std::size_t i = 0; i < watched.size();) {
            bool done = true; // a context that cannot be made current: the event's wait reports the failure
            try {
                if (api_.current_context() != watched[i].context) api_.set_current_context(watched[i].context);
                done = api_.query(watched[i].handle);
            } catch (...) {
            }
            if (done) {
                item finished = std::move(watched[i]);
                watched[i] = std::move(watched.back());
                watched.pop_back();
                try {
                    finished.callback();
                } catch (...) { // callbacks must not throw (backend.hpp); nobody could be told
                }
                progress = true;
            } else {
                ++i;
            }
        }
        if (progress) {
            idle_rounds = 0;
        } else if (++idle_rounds < 64) {
            std::this_thread::yield();
        } else {
            std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
    }
}

} // namespace encore::gpu

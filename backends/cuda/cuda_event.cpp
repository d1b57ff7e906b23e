#include "cuda_event.hpp"

#include <chrono>

#include "encore/backends/cuda/cuda_backend.hpp"
#include "encore/backends/cuda/detail/driver.hpp"
#include "encore/backends/detail/completion_event.hpp"
#include "encore/graph/error.hpp"

namespace encore::cuda {

using detail::check;

profiling_reference::~profiling_reference() {
    if (event) static_cast<void>(cuEventDestroy(event));
}

cuda_event::cuda_event(cuda_backend& backend, std::uint32_t device, std::shared_ptr<profiling_reference> profiling)
    : backend_(backend), device_(device), reference_(std::move(profiling)) {
    if (reference_) submit_ns_ = encore::detail::host_clock_ns();
}

cuda_event::~cuda_event() {
    if (reference_) {
        if (event_) static_cast<void>(cuEventDestroy(event_));
        if (start_event_) static_cast<void>(cuEventDestroy(start_event_));
    } else if (event_) {
        backend_.release_event(device_, event_);
    }
}

void cuda_event::record_start_locked(stream_state& s) {
    check(cuEventCreate(&start_event_, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cuEventRecord(start_event_, s.stream), "cuEventRecord");
}

void cuda_event::record_locked(stream_state& s) {
    if (recorded_) return;
    if (!event_) {
        if (reference_)
            check(cuEventCreate(&event_, CU_EVENT_DEFAULT), "cuEventCreate");
        else
            event_ = backend_.acquire_event(device_);
    }
    check(cuEventRecord(event_, s.stream), "cuEventRecord");
    recorded_ = true;
}

std::vector<std::function<void()>> cuda_event::move_to(state next) {
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

void cuda_event::set_enqueued(std::shared_ptr<stream_state> s) {
    stream_ = std::move(s); // published by the state's release store
    move_to(state::enqueued);
}

void cuda_event::set_launched() {
    for (auto& callback : move_to(state::launched))
        on_complete(std::move(callback));
}

void cuda_event::set_failed() noexcept {
    complete_known(); // first: whoever wakes from wait() or sees `failed` finds the event complete
    for (auto& callback : move_to(state::failed))
        callback();
}

CUevent cuda_event::recorded_handle() {
    stream_state& s = *stream_;
    std::lock_guard lock(s.mutex);
    record_locked(s);
    return event_;
}

event_status cuda_event::status() const noexcept {
    if (done_.load(std::memory_order_acquire)) return event_status::complete;
    if (state_.load(std::memory_order_acquire) != state::launched) return event_status::submitted;
    try {
        CUevent e = const_cast<cuda_event*>(this)->recorded_handle();
        const CUresult r = cuEventQuery(e);
        if (r == CUDA_ERROR_NOT_READY) return event_status::running;
        complete_known(); // done, or failed in a way the next wait reports
        return event_status::complete;
    } catch (...) {
        return event_status::running; // a record that failed now will fail again, and throw, in wait()
    }
}

void cuda_event::wait() {
    if (done_.load(std::memory_order_acquire)) return;
    for (state s = state_.load(std::memory_order_acquire); s == state::deferred || s == state::enqueued;
         s = state_.load(std::memory_order_acquire)) {
        {
            std::lock_guard lock(mutex_); // a state change after this sees waiters_ and notifies
            waiters_ = true;
        }
        state_.wait(s, std::memory_order_acquire);
    }
    if (state_.load(std::memory_order_acquire) == state::failed) return;
    CUevent e = recorded_handle();
    detail::context_scope scope(stream_->context);
    check(cuEventSynchronize(e), "cuEventSynchronize");
    complete_known();
}

void cuda_event::on_complete(std::function<void()> callback) {
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
    CUevent e = recorded_handle();
    backend_.watcher().watch(shared_from_this(), e, stream_->context, std::move(callback));
}

profiling_timestamps cuda_event::timestamps() const {
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
    auto since_reference = [this](CUevent e) {
        float ms = 0;
        check(cuEventElapsedTime(&ms, reference_->event, e), "cuEventElapsedTime");
        return reference_->host_ns + static_cast<std::uint64_t>(static_cast<double>(ms) * 1e6);
    };
    t.start = std::max(since_reference(start_event_), t.submit);
    t.end = std::max(since_reference(event_), t.start);
    return t;
}

completion_watcher::completion_watcher() : thread_([this] { run(); }) {}

completion_watcher::~completion_watcher() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void completion_watcher::watch(std::shared_ptr<cuda_event> e, CUevent handle, CUcontext context,
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
            if (cuCtxSetCurrent(watched[i].context) != CUDA_SUCCESS || cuEventQuery(watched[i].handle) != CUDA_ERROR_NOT_READY) {
                item done = std::move(watched[i]);
                watched[i] = std::move(watched.back());
                watched.pop_back();
                try {
                    done.callback();
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

} // namespace encore::cuda

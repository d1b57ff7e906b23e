#include "completion_event.hpp"

#include <algorithm>
#include <chrono>

#include "encore/graph/error.hpp"

namespace encore::detail {

namespace {
constexpr auto complete_state = static_cast<std::uint32_t>(event_status::complete);
constexpr auto running_state = static_cast<std::uint32_t>(event_status::running);
} // namespace

std::uint64_t host_clock_ns() noexcept {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

completion_event::completion_event(bool profiling) : profiling_(profiling) {
    if (profiling_) submit_ = host_clock_ns();
}

void completion_event::wait() {
    if (helper_ && state_.load(std::memory_order_acquire) != complete_state) helper_->help();
    for (auto s = state_.load(std::memory_order_acquire); s != complete_state;
         s = state_.load(std::memory_order_acquire))
        state_.wait(s, std::memory_order_acquire);
}

void completion_event::on_complete(std::function<void()> callback) {
    {
        std::lock_guard lock(callbacks_mutex_);
        if (state_.load(std::memory_order_acquire) != complete_state) {
            callbacks_.push_back(std::move(callback));
            return;
        }
    }
    callback();
}

profiling_timestamps completion_event::timestamps() const {
    if (!profiling_)
        throw error(errc::invalid_argument,
                    "event profiling: the event's queue was created without enable_profiling");
    if (state_.load(std::memory_order_acquire) != complete_state)
        throw error(errc::invalid_argument, "event profiling: the event has not completed yet");
    return {submit_, start_, end_};
}

void completion_event::mark_running() noexcept {
    if (profiling_ && start_ == 0) start_ = host_clock_ns(); // a join may have set it from its parts
    state_.store(running_state, std::memory_order_release);
}

void completion_event::complete_unshared() noexcept {
    if (profiling_) {
        end_ = host_clock_ns();
        if (start_ == 0) start_ = end_;
    }
    state_.store(complete_state, std::memory_order_release);
}

void completion_event::complete() noexcept {
    if (profiling_) {
        end_ = host_clock_ns();
        if (start_ == 0) start_ = end_; // work that never ran on its own (a barrier, an empty command)
    }
    callback_list callbacks;
    {
        // Under the mutex, so that on_complete either sees `complete` or has its callback in the list we
        // take.
        std::lock_guard lock(callbacks_mutex_);
        state_.store(complete_state, std::memory_order_release);
        callbacks.swap(callbacks_);
    }
    state_.notify_all();
    for (auto& callback : callbacks)
        callback();
}

void when_all(std::span<const event_ptr> wait_list, std::function<void()> ready) {
    std::size_t pending = 0;
    for (const auto& e : wait_list)
        if (e && e->status() != event_status::complete) ++pending;
    if (pending == 0) {
        ready();
        return;
    }
    struct gate {
        gate(std::size_t pending, std::function<void()> f) : remaining(pending), ready(std::move(f)) {}
        std::atomic<std::size_t> remaining;
        std::function<void()> ready;
    };
    auto shared = std::make_shared<gate>(pending, std::move(ready));
    // Count first, register second: an event that completes in between calls its callback at registration.
    for (const auto& e : wait_list)
        if (e && e->status() != event_status::complete) {
            e->on_complete([shared] {
                if (shared->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) shared->ready();
            });
            --pending;
        }
    // Events seen pending in the first pass that completed before the second: their share is released here.
    if (pending > 0 && shared->remaining.fetch_sub(pending, std::memory_order_acq_rel) == pending)
        shared->ready();
}

event_ptr join_events(std::vector<event_ptr> events, bool profiling, join_kind kind) {
    auto joined = std::make_shared<completion_event>(profiling);
    auto members = std::make_shared<std::vector<event_ptr>>(std::move(events));
    when_all(*members, [joined, members, profiling, kind] {
        if (profiling && kind == join_kind::parts) {
            std::uint64_t submit = 0, start = 0;
            for (const auto& e : *members)
                if (e && e->has_profiling()) {
                    auto t = e->timestamps();
                    submit = submit == 0 ? t.submit : std::min(submit, t.submit);
                    start = start == 0 ? t.start : std::min(start, t.start);
                }
            if (submit) joined->set_submit(submit);
            if (start) joined->set_start(start);
        }
        joined->mark_running();
        joined->complete();
    });
    return joined;
}

} // namespace encore::detail

// completion_event — the host-side event: a status word, a wait, completion callbacks and profiling
// timestamps. Not for you: encore::event is the public handle.
//
// The native backend answers every command and launch with one; the runtime uses them for host tasks and to
// join the partitions of a launch. Whoever runs the work calls mark_running() and then complete(); everything
// else is thread-safe. Waiting is a C++20 atomic wait on the status word (a futex on Linux): no mutex on the
// fast path; an event with a wait_helper first offers the waiting thread the work itself.
//
//     auto e = std::make_shared<completion_event>(/*profiling=*/true);
//     run_somewhere([e] { e->mark_running(); work(); e->complete(); });
//     e->wait();
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "encore/backends/backend.hpp"

namespace encore::detail {

// Work an event stands for that a waiting thread may run itself, if nobody has started it yet: a thread that
// would only sleep until the work is done does it instead, with its caches warm (what oneTBB's wait_for_all
// does).
class wait_helper {
public:
    virtual ~wait_helper() = default;
    // Runs the work on this thread if it is ready and unclaimed; otherwise does nothing. Never throws.
    virtual void help() noexcept = 0;
};

// Nanoseconds of std::chrono::steady_clock: the clock of every host-side timestamp.
std::uint64_t host_clock_ns() noexcept;

class completion_event final : public backend_event {
public:
    explicit completion_event(bool profiling);

    event_status status() const noexcept override {
        return static_cast<event_status>(state_.load(std::memory_order_acquire));
    }
    void wait() override;
    void on_complete(std::function<void()> callback) override;
    bool has_profiling() const noexcept override { return profiling_; }
    profiling_timestamps timestamps() const override;

    // submitted -> running; records the start timestamp.
    void mark_running() noexcept;
    // -> complete; records the end timestamp, wakes waiters, then runs the callbacks on this thread.
    void complete() noexcept;
    // The same for an event not handed out yet (work that ran before its submission returned): nobody can wait
    // for it or have registered a callback, so there is nothing to lock or wake.
    void complete_unshared() noexcept;
    // For events that stand for several others (a launch of many partitions): set before complete().
    void set_start(std::uint64_t start_ns) noexcept { start_ = start_ns; }
    void set_submit(std::uint64_t submit_ns) noexcept { submit_ = submit_ns; }
    // Set once, before the event is handed out.
    void set_helper(std::shared_ptr<wait_helper> helper) noexcept { helper_ = std::move(helper); }

private:
    std::atomic<std::uint32_t> state_{static_cast<std::uint32_t>(event_status::submitted)};
    const bool profiling_;
    // Written by the thread that runs the work before the release store of `complete`; read after an acquire.
    std::uint64_t submit_ = 0, start_ = 0, end_ = 0;
    std::mutex callbacks_mutex_;
    // Most events get at most a successor or two: those callbacks cost no allocation.
    using callback_list = boost::container::small_vector<std::function<void()>, 2>;
    callback_list callbacks_;
    std::shared_ptr<wait_helper> helper_;
};

// Calls `ready` once every event of `wait_list` has completed: right away on this thread if they all have,
// otherwise on the thread that completes the last of them. O(n) and one allocation when something is pending.
void when_all(std::span<const event_ptr> wait_list, std::function<void()> ready);

// An event that completes when all of `events` have. With profiling: when `events` are the parts of one piece
// of work (the partitions of a launch), it spans them, from the earliest submission and start to the
// completion of the last; otherwise (a join of dependencies) it is submitted when made and starts when they
// have completed.
enum class join_kind { parts, dependencies };
event_ptr join_events(std::vector<event_ptr> events, bool profiling, join_kind kind);

} // namespace encore::detail

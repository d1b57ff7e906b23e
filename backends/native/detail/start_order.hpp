// encore::native::detail::start_order — eager commands start in the order they were submitted, also when a thread
// that waits for a graph launch drives that launch itself. Not for you.
//
// Eager commands and launches go to the arena's FIFO-like queue, so workers start them in submission order. A
// thread waiting for a launch's event may drive the launch at once (launch_claim, task_list.hpp); without this
// it would overtake eager commands submitted before the launch that no worker had started yet (seen: a 4 KB copy
// submitted before a graph launch finishing after the launch had been waited on). So each enqueued command takes
// a ticket and stays in `waiting` until it starts; a launch takes a ticket too, and its driver first starts (runs)
// every eager command that holds an earlier ticket and has not started. Costs one uncontended lock at enqueue and
// one at start per eager command; no allocation (an intrusive list).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <boost/intrusive/list.hpp>

namespace encore::native::detail {

// What an eager command carries for start_order; `claimed` makes sure it runs once, by a worker or by a driver.
struct ordered_start : boost::intrusive::list_base_hook<> {
    std::uint64_t ticket = 0;
    std::atomic<bool> claimed{false};
    std::weak_ptr<void> owner; // what keeps the command alive, for a driver that runs it
    bool claim() noexcept { return !claimed.exchange(true, std::memory_order_acq_rel); }
};

class start_order {
public:
    // An eager command about to be enqueued.
    void enqueued(ordered_start& s) {
        std::lock_guard lock(mutex_);
        s.ticket = next_++;
        waiting_.push_back(s);
        waiting_count_.fetch_add(1, std::memory_order_relaxed);
    }
    // Its start (after a successful claim()): it no longer waits.
    void started(ordered_start& s) {
        std::lock_guard lock(mutex_);
        if (s.is_linked()) {
            waiting_.erase(waiting_.iterator_to(s));
            waiting_count_.fetch_sub(1, std::memory_order_relaxed);
        }
    }
    // Whether no enqueued eager command is waiting to start (without the lock: a command enqueued meanwhile by
    // another thread is concurrent with the caller's, so either answer keeps the order). A command submitted
    // now may start at once, overtaking nothing.
    bool none_waiting() const noexcept { return waiting_count_.load(std::memory_order_acquire) == 0; }
    // A launch about to be enqueued: the ticket that eager commands submitted before it hold less than.
    std::uint64_t ticket() {
        std::lock_guard lock(mutex_);
        return next_++;
    }
    // Claims every waiting command with a ticket below `ticket` and hands each to `take` with its owner, oldest
    // first (the caller runs them), outside the lock. The owner is taken under the lock, before the claim: a
    // worker that then fails to claim the command drops its reference, and the command must outlive `take`.
    template <typename Take> void claim_before(std::uint64_t ticket, Take&& take) {
        std::vector<std::pair<ordered_start*, std::shared_ptr<void>>> claimed;
        {
            std::lock_guard lock(mutex_);
            for (auto it = waiting_.begin(); it != waiting_.end() && it->ticket < ticket;) {
                auto& s = *it;
                auto owner = s.owner.lock();
                if (!owner) break; // cannot happen: a command leaves the list before its owner goes
                it = waiting_.erase(it);
                waiting_count_.fetch_sub(1, std::memory_order_relaxed);
                if (s.claim()) claimed.emplace_back(&s, std::move(owner));
            }
        }
        for (auto& [s, owner] : claimed) take(*s);
    }

private:
    std::mutex mutex_;
    std::uint64_t next_ = 0;
    boost::intrusive::list<ordered_start> waiting_;
    std::atomic<std::size_t> waiting_count_{0}; // waiting_.size(), readable without the lock
};

} // namespace encore::native::detail

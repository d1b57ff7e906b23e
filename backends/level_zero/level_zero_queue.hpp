// encore::level_zero::level_zero_queue — an eager queue on one immediate command list: each submission is
// appended and starts at once (no zeCommandQueueExecuteCommandLists per command). With
// ENCORE_LEVEL_ZERO_EAGER_LISTS=regular the queue has a command queue instead, and each submission is a
// regular command list (taken from those whose fence says they are done, else made), closed and executed with
// its fence: what drivers without immediate lists need, and a second path the tests run.
//
// submit() turns the wait list into ze events (collect_wait_events: events of this device's context are
// waited on directly, others through host-signaled events), takes an event from the device's pool (a
// timestamp pool on a profiling queue) and appends the command with that event as its signal. Commands of an
// in-order Encore queue are ordered by the runtime's wait lists. Each submission answers with a
// level_zero_event; the queue keeps the events of work in flight and drops the completed ones at the next
// submission.
//
//     auto q = backend.create_queue(0, {.in_order = true}, errors);
//     q->submit(encore::memset_command{p, 0, 4096}, {})->wait();
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <span>

#include "encore/backends/backend.hpp"
#include "encore/backends/level_zero/detail/api.hpp"
#include "encore/backends/level_zero/level_zero_event.hpp"

namespace encore::level_zero {

class level_zero_backend;

class level_zero_queue final : public backend_queue {
public:
    level_zero_queue(level_zero_backend& backend, std::uint32_t device, const queue_properties& properties,
                     std::shared_ptr<error_sink> errors);
    ~level_zero_queue() override; // waits for the work in flight
    event_ptr submit(command c, std::span<const event_ptr> wait_list) override;

    level_zero_backend& owner() const noexcept { return backend_; }
    std::uint32_t device() const noexcept { return device_; }
    bool profiling() const noexcept { return properties_.enable_profiling; }
    const std::shared_ptr<error_sink>& errors() const noexcept { return errors_; }

private:
    level_zero_backend& backend_;
    const std::uint32_t device_;
    const queue_properties properties_;
    std::shared_ptr<error_sink> errors_;
    struct regular_list {
        detail::list_handle list;
        detail::fence_handle fence;
        bool submitted = false;
    };
    regular_list& free_regular_list(); // under mutex_

    std::mutex mutex_;           // a command list takes one append at a time
    detail::list_handle list_;   // immediate mode
    detail::queue_handle queue_; // regular mode
    std::vector<std::unique_ptr<regular_list>> regular_;
    std::deque<event_ptr> in_flight_;
};

// `queue` as a level_zero_queue of `backend`'s `device`; throws invalid_argument otherwise (`what` names the
// caller).
level_zero_queue& as_level_zero_queue(backend_queue& queue, const level_zero_backend& backend,
                                      std::uint32_t device, const char* what);

} // namespace encore::level_zero

// encore::native::native_queue — eager submission on the native backend.
//
// Each command becomes one completion_event. Once its wait list has completed, the command is enqueued into
// the backend's arena (fair, FIFO-like order) and runs on a worker; barrier and empty commands complete right
// there, without a task. What a command throws goes to the queue's error_sink and the event completes anyway.
// In-order queues need nothing more: the runtime puts the previous command's event in the wait list, and a
// command that waits for exactly the queue's previous command is chained to it (native_queue.cpp, eager_work):
// it runs right after it on the same thread, with no task or callback of its own.
//
//     auto q = backend.create_queue(0, {.enable_profiling = true}, errors);
//     auto e = q->submit(encore::memset_command{p, 0, n}, {});
#pragma once

#include <memory>
#include <mutex>

#include "encore/backends/backend.hpp"

namespace encore::native {

class native_backend;
namespace detail {
struct eager_work;
}

class native_queue final : public backend_queue {
public:
    native_queue(native_backend& backend, const queue_properties& properties,
                 std::shared_ptr<error_sink> errors);

    event_ptr submit(command c, std::span<const event_ptr> wait_list) override;

    native_backend& owner() const noexcept { return backend_; }
    const queue_properties& properties() const noexcept { return properties_; }
    const std::shared_ptr<error_sink>& errors() const noexcept { return errors_; }

private:
    native_backend& backend_;
    queue_properties properties_;
    std::shared_ptr<error_sink> errors_;
    std::mutex chain_mutex_;
    std::weak_ptr<detail::eager_work> last_; // the queue's previous command, while it exists
};

// The native queue behind `q`, or encore::error(invalid_argument) naming `what` when `q` belongs to another
// backend.
native_queue& as_native_queue(backend_queue& q, const char* what);

} // namespace encore::native

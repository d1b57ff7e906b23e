// encore::native::native_queue — eager submission on the native backend.
//
// Each command becomes one completion_event. Once its wait list has completed, the command is enqueued into
// the backend's arena (fair, FIFO-like order) and runs on a worker; barrier and empty commands complete right
// there, without a task. What a command throws goes to the queue's error_sink and the event completes anyway.
// In-order queues need nothing here: the runtime puts the previous command's event in the wait list.
//
//     auto q = backend.create_queue(0, {.enable_profiling = true}, errors);
//     auto e = q->submit(encore::memset_command{p, 0, n}, {});
#pragma once

#include <memory>

#include "encore/backends/backend.hpp"

namespace encore::native {

class native_backend;

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
};

// The native queue behind `q`, or encore::error(invalid_argument) naming `what` when `q` belongs to another
// backend.
native_queue& as_native_queue(backend_queue& q, const char* what);

} // namespace encore::native

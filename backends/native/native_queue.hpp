// encore::native::native_queue — eager submission on the native backend.
//
// Each command becomes one completion_event. Once its wait list has completed, the command is enqueued into
// the backend's arena (fair, FIFO-like order) and runs on a worker; barrier and empty commands complete right
// there, without a task. What a command throws goes to the queue's error_sink and the event completes anyway.
// In-order queues need nothing more: the runtime puts the previous command's event in the wait list, and a
// command that waits for exactly the queue's previous command is chained to it (native_queue.cpp, eager_work):
// it runs right after it on the same thread, with no task or callback of its own.
// Tiny commands run inline: a kernel over a small one-dimensional range whose type has run in under 0.5 us on
// average (ENCORE_NATIVE_INLINE_NS, read when a queue is created, sets another bound; 0 turns this off) (detail/kernel_costs.hpp: measured where it ran, a worker the first time), or a memcpy/memset/fill of
// at most 4 KiB, runs on the submitting thread before submit returns when everything it waits for has completed
// and no earlier eager command is waiting to start; handing it to a worker would cost more than running it. A
// kernel that blocks until later work runs must therefore not be tiny the times it runs before (a kernel never
// may wait for work submitted after it anyway: SYCL gives no such forward-progress guarantee).
//
//     auto q = backend.create_queue(0, {.enable_profiling = true}, errors);
//     auto e = q->submit(encore::memset_command{p, 0, n}, {});
#pragma once

#include <memory>
#include <mutex>
#include <typeinfo>

#include "encore/backends/backend.hpp"

namespace encore::detail {
class trace_session;
}

namespace encore::native {

class native_backend;
namespace detail {
struct eager_work;
// How many eager commands are between marking their event complete and the end of its callbacks, which may start
// their successors (an enqueue into the backend's arena). The backend's destructor waits for none to be left: a
// program whose last wait returned may exit while a worker is still there (ThreadSanitizer saw such an enqueue
// read the arena that the exit was destroying).
std::size_t completions_in_flight() noexcept;
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
    // Runs `c` right here when it is tiny and nothing it waits for is pending; null when it did not.
    // `tiny` tells whether `c` is one of those (when it did not run: it waits for something).
    event_ptr run_inline(command& c, std::span<const event_ptr> wait_list, bool& tiny);
    [[gnu::cold, gnu::noinline]] void run_traced(encore::detail::trace_session& trace, const command& c,
                                                 const std::type_info* timed) noexcept;

    native_backend& backend_;
    queue_properties properties_;
    std::shared_ptr<error_sink> errors_;
    std::mutex chain_mutex_;
    std::weak_ptr<detail::eager_work> last_; // the queue's previous command, while it exists
    bool last_is_tiny_ = false;              // and whether it would have run inline but had to wait
    bool wait_allowed_ = true;               // false after a brief wait for it ran out, until an inline run
    std::uint32_t inline_runs_ = 0;          // commands run inline (every 8th kernel is timed)
    const std::int64_t inline_below_ns_;     // ENCORE_NATIVE_INLINE_NS, read when the queue is made
};

// The native queue behind `q`, or encore::error(invalid_argument) naming `what` when `q` belongs to another
// backend.
native_queue& as_native_queue(backend_queue& q, const char* what);

} // namespace encore::native

// What an encore::queue shares between its copies. Not for you: include runtime/queue.hpp.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <mutex>
#include <utility>
#include <vector>

#include "encore/runtime/queue.hpp"

namespace encore::detail {

// The queue's error_sink: keeps what work threw until throw_asynchronous takes it.
class error_collector final : public error_sink {
public:
    void report(std::exception_ptr error) noexcept override;
    exception_list take();

private:
    std::mutex mutex_;
    exception_list errors_;
};

struct queue_state {
    queue_state(const device& d, queue_properties p, async_handler h);
    ~queue_state(); // waits for all work, then hands errors nobody took to the handler

    // Under `mutex`: the wait list of a new submission (its dependencies, plus the previous submission for an
    // in-order queue, named once when a dependency is that submission too) ...
    std::vector<event_ptr> wait_list(event_list dependencies) const;
    // ... appended to `out` ...
    void append_wait_list(event_list dependencies, std::vector<event_ptr>& out) const;
    // ... the same in `storage` when it fits there (the eager path's common case: no allocation), else in
    // `overflow` (emptied first) ...
    std::span<const event_ptr> wait_list(event_list dependencies, std::array<event_ptr, 4>& storage,
                                         std::vector<event_ptr>& overflow) const;
    // ... and the bookkeeping of the submission's event.
    void record(const event_ptr& e);
    // Whether dependency `e` is implied by the queue's order (in-order, and `e` is the last submission).
    bool implied(const event& e) const noexcept;
    // Waits for everything recorded so far (takes `mutex` briefly).
    void wait_all();

    device dev;
    queue_properties properties;
    async_handler handler;
    std::shared_ptr<error_collector> errors = std::make_shared<error_collector>();
    std::unique_ptr<backend_queue> backend;

    std::mutex mutex;
    event_ptr last;                     // the latest submission (an in-order queue's whole history)
    std::vector<event_ptr> outstanding; // out-of-order: submissions not yet seen complete
    std::size_t prune_at = 64;
    // Under `mutex`: the wait list of a submission with more dependencies than the eager path's inline storage
    // holds, cleared after each (its capacity stays: a large join allocates once, not per submission).
    std::vector<event_ptr> large_wait_list;
    // Executable graphs made for eager subgraph commands, kept until their launch completes.
    std::vector<std::pair<event_ptr, std::shared_ptr<executable_graph>>> keep_alive;
};

} // namespace encore::detail

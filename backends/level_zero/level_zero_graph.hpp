// encore::level_zero::chain_executable — one partition of a finalized graph as the design document's chain of
// Level Zero command lists (../shared/design, "Level Zero"), on a command queue of its own.
//
// Made once, at lower():
//   - the main list: a barrier waiting for the partition's wait event, then every node in execution order,
//   each
//     signalling its own event and waiting for the events of its predecessors in the partition, then a
//     barrier that waits for the partition's sinks and signals the partition's signal event. Closed.
//   - the reset list: a reset of every node event and of the signal event (so a replay never sees the signals
//   of
//     the launch before). Closed.
//   - a prefix (wait) and a suffix (signal) list with a fence, empty: recorded again at each launch, because
//   the
//     launch's wait list and returned event change from one launch to the next. A launch takes a pair whose
//     fence says its last launch is done, and makes another pair only when none is (launches back to back:
//     the runtime submits a launch while the one before runs, with that one in its wait list).
//   - an event pool holding the node events and the wait and signal events.
// A launch: [reset, prefix, main, suffix] in one zeCommandQueueExecuteCommandLists with the pair's fence. The
// queue runs its submissions in order, and every launch waits for the one before, so the fixed lists and
// events are never used by two launches at once. The prefix is a barrier waiting for the launch's wait list
// and signalling the wait event; with nothing to wait for (and no profiling) it is left out and the wait
// event is signaled from the host (nothing to wait for means the launch before has completed, suffix
// included). The suffix resets the wait event and has a barrier that waits for the signal event and signals
// the returned event; on a profiling queue it first copies the wait and signal events' kernel timestamps into
// host memory that the returned event keeps.
//
// Each partition has its own command queue, so partitions without dependencies between them (the roots of a
// multi-root graph, branches around host tasks) run at the same time.
//
// Update: the driver offers no mutable command lists (ZE_experimental_mutable_command_list is not in Level
// Zero 1.4's headers), so an updated node marks the main list stale and the next launch records it again from
// the graph's current commands, saying so on the ENCORE_TRACE trace.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/level_zero/detail/api.hpp"

namespace encore::level_zero {

class level_zero_backend;

class chain_executable final : public backend_executable {
public:
    chain_executable(level_zero_backend& backend, std::uint32_t device, const graph& g, const partition& p);
    ~chain_executable() override;
    event_ptr launch(backend_queue& queue, std::span<const event_ptr> wait_list) override;
    void update(std::uint32_t node, const command& c) override;

private:
    void record_main();
    void close(ze_command_list_handle_t list);

    level_zero_backend& backend_;
    const std::uint32_t device_;
    const graph& graph_;
    const partition& partition_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>>
        local_of_;                                         // (node, position in the partition), sorted
    std::vector<std::vector<std::uint32_t>> predecessors_; // per position: positions it waits for
    std::vector<std::uint32_t> sinks_;                     // positions nobody in the partition waits for

    struct launch_lists {
        detail::list_handle prefix, suffix;
        detail::fence_handle fence;
        bool submitted = false;                // the fence belongs to a launch
        std::weak_ptr<backend_event> returned; // that launch's event
    };
    launch_lists& free_launch_lists();

    detail::queue_handle queue_;
    std::vector<std::unique_ptr<launch_lists>> launch_lists_;
    detail::pool_handle pool_;
    std::vector<detail::event_handle> node_events_;
    detail::event_handle wait_event_, signal_event_;
    detail::list_handle main_, reset_;
    std::vector<std::shared_ptr<void>> staging_; // what the main list's commands read (fill patterns)
    bool stale_ = false;                         // a node was updated since the main list was recorded
};

} // namespace encore::level_zero

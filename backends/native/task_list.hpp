// encore::native::task_list — a partition lowered for the native backend: a prebuilt task list.
//
// Built once at finalize: the partition's commands in execution order, one 64-byte compact_launch per kernel
// node (all a small kernel launch reads), each node's successors inside the partition (one flat array, CSR
// style) and its number of predecessors. A launch resets one atomic counter per node (a plain array of
// stores), runs the roots, and each finished node decrements its successors' counters; a node whose counter
// reaches zero is ready. The last successor that became ready runs right away on the same thread (a chain
// never leaves its thread); the others, written to the node's own slice of a scratch array, are spread by
// recursive halving: the upper half is spawned as one task and the lower half split again, so a thief steals
// half the work at once and splits it locally (O(log k) steals for k ready nodes, as in parallel_for).
// Halving stops at a grain that leaves at least 8 pieces per thread; a piece runs its nodes one after the
// other. A replay allocates nothing but its event and oneTBB's task objects for the work it actually spreads.
// An in-order partition (a chain) runs as a straight loop with no counters at all. O(V+E) per launch.
//
// Parallel or sequential: spreading nodes pays off when they carry work; for tiny kernels the counters and task
// handoffs cost more than the kernels, and running the partition in its (topological) order on one thread is
// faster. The list keeps the order the nodes were added in where every edge of the partition agrees with it (a
// program's own order keeps its data accesses in sequence), else the partition's. Which one wins depends on the kernels, which only running them tells, so the list measures: the first
// launch runs sequentially, the second in parallel, and later launches use the faster of the two (each one's
// time is a running mean). The slower one is tried again after 16 launches, then 32, ... up to 1,024, so that a
// change in the kernels' cost (data sizes) is noticed; an update starts the measuring over. One thread, or one
// node, always runs sequentially. ENCORE_NATIVE_SCHEDULE=parallel|sequential fixes the choice (read at finalize;
// tests use it to check that both keep every dependency).
//
// A launch runs on the backend's arena once its wait list has completed: one driver resets the counters, runs
// the roots and waits for the group, and completes the launch's event as its very last action (the runtime
// may start the next launch, or destroy the list, right after). A thread that waits for the launch's event
// claims it and drives the launch itself, inside the arena (launch_claim), so a launch-and-wait runs on warm
// caches; a launch nobody has claimed when the backend's launch starter gets to it (detail/launch_starter.hpp)
// is enqueued to the arena and driven by a worker. A partition of kernels only runs sequentially as one walk
// over its launch lines. Exceptions
// of a node go to the launching queue's error_sink; its successors still run (as in SYCL, a failed command's
// event completes).
//
//     auto list = backend.lower(0, g, parts.partitions[0]);
//     list->launch(queue, {})->wait();
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <oneapi/tbb/task_group.h>

#include "encore/backends/backend.hpp"
#include "encore/backends/detail/completion_event.hpp"
#include "encore/backends/detail/trace_recorder.hpp"
#include "encore/backends/native/detail/tbb_handoff.hpp"
#include "encore/backends/native/kernel_launch.hpp"

namespace encore::native {

class native_backend;

class task_list final : public backend_executable {
public:
    task_list(native_backend& backend, const graph& g, const partition& p);
    ~task_list() override;

    event_ptr launch(backend_queue& queue, std::span<const event_ptr> wait_list) override;
    void update(std::uint32_t node, const command& c) override;

    std::size_t size() const noexcept { return nodes_.size(); }

    enum class schedule : std::uint8_t { sequential, parallel };
    // How the last launch ran (for tests and traces).
    schedule last_schedule() const noexcept { return last_schedule_; }

private:
    // Hot and cold apart: a replay streams node_records and launch shapes; commands are read only for nodes
    // that are not kernels, and by update().
    struct node_record {
        std::uint32_t first_successor = 0;
        std::uint32_t successor_count = 0;
        std::uint32_t predecessor_count = 0; // inside the partition
        std::uint32_t shape = none;          // index into shapes_, for kernel nodes
    };
    static constexpr std::uint32_t none = ~std::uint32_t{0};
    friend struct detail::launch_claim;
    friend void detail::run_launch(detail::launch_claim&) noexcept;
    friend void detail::run_ready(task_list&, const std::uint32_t*, std::uint32_t, std::uint32_t) noexcept;

    // `trace`: the launch's label while a trace records (its session null otherwise): each node is then
    // timed.
    void run(encore::detail::completion_event& done, error_sink& errors,
             const encore::detail::trace_launch_label& trace) noexcept;
    void run_from(std::uint32_t n) noexcept;
    // Runs nodes first[0 .. count) (all ready), spawning halves while more than `grain` are left.
    void run_ready(const std::uint32_t* first, std::uint32_t count, std::uint32_t grain) noexcept;
    void spawn_ready(const std::uint32_t* first, std::uint32_t count, std::uint32_t grain);
    std::uint32_t grain_for(std::uint32_t count) const noexcept;
    void run_node(std::uint32_t n, work_item& scratch) noexcept;
    void execute_node(std::uint32_t n, work_item& scratch) noexcept;
    void execute_traced_node(std::uint32_t n, work_item& scratch) noexcept;
    schedule choose_schedule() noexcept;
    void record_time(schedule s, double ns) noexcept;
    void run_sequential() noexcept;
    void run_parallel() noexcept;

    native_backend& backend_;
    std::vector<node_record> nodes_;        // partition order
    std::vector<command> commands_;         // partition order
    std::vector<launch_shape> shapes_;      // kernel nodes, partition order; each borrows its command
    std::vector<compact_launch> launches_;  // the same nodes, one line each; each borrows its shape
    std::vector<std::uint32_t> successors_; // local indices
    std::vector<std::uint32_t> roots_;
    // Per launch: the successors a node made ready, in the node's slice [first_successor, +successor_count).
    std::unique_ptr<std::uint32_t[]> ready_;
    std::uint32_t concurrency_ = 1;
    // One cache line per counter: threads finishing neighbouring nodes would otherwise fight over one line.
    struct alignas(64) counter {
        std::atomic<std::uint32_t> value;
    };
    std::unique_ptr<counter[]> pending_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> local_of_; // (graph node, local index), sorted
    std::vector<std::uint32_t> graph_node_;                         // local index -> graph node
    bool in_order_ = false;
    // The schedule's measurements (launches never overlap, and update() runs between them: no atomics).
    enum class forced : std::uint8_t { no, sequential, parallel } forced_ = forced::no;
    double mean_ns_[2] = {-1, -1}; // per schedule; -1: not measured since finalize or the last update
    std::uint32_t explore_interval_ = 16;
    std::uint32_t until_explore_ = 16;
    schedule last_schedule_ = schedule::sequential;
    // Behind a pointer: task_group's destructor may throw, a backend_executable's may not. Never destroyed
    // with tasks pending: run() waits for the group before completing a launch.
    std::unique_ptr<tbb::task_group> group_ = std::make_unique<tbb::task_group>();
    error_sink* errors_ = nullptr; // of the launch in flight
    // The label of the launch in flight while a trace records; null otherwise.
    const encore::detail::trace_launch_label* trace_ = nullptr;
};

} // namespace encore::native

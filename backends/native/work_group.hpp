// work_group_runner — runs the work-items of nd_range work-groups on fibers, so that they can wait at a
// barrier.
//
// One runner serves one thread's share of a launch and runs its groups one after the other. Within a group,
// items start in order on one fiber; an item that reaches the barrier parks its fiber and the next item
// starts on another one (from the thread's pool of idle fibers, see detail/fiber.hpp). Once every item has
// started, all live items are parked at the same barrier, so the runner resumes them in order; each runs to
// the next barrier (and parks again) or to its end. Items that have returned count as arrived: the barrier
// waits for the items still running. Kernels without barriers therefore cost one fiber per group; a group of
// n items that all reach k barriers costs n fibers and n*k switches, O(n*k).
//
// Sub-groups (encore::sub_group_width items in local linear order) wait apart from each other: an item may park at a
// sub-group collective (work_item::exchange), and a sub-group whose live items all wait at one is released alone,
// before any work-group barrier. Items parked at both kinds, none of which can be released, is a divergent
// collective: the group fails with an error saying so (never a hang). An exchange writes the item's value into a
// block per scope (the group, or its sub-group), double-buffered: an item's next exchange in a scope uses the other
// block, so a fast item never overwrites values the slow ones of the last exchange have still to read.
//
// Memory: the items of a group share one block of local memory, and run on one thread, so everything an item
// wrote before the barrier is visible to every item after it. If an item throws, the group is cancelled:
// items parked at a barrier resume with an exception that unwinds them (caught by the runner), and run()
// rethrows the first exception. An item must not wait at the barrier from inside a catch block (the C++
// runtime's record of the exception being handled is per thread, shared by the fibers).
//
//     work_group_runner runner(shape);
//     for (std::size_t g = first; g < last; ++g) runner.run(g);
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <vector>

#include "encore/backends/native/detail/fiber.hpp"
#include "encore/backends/native/kernel_launch.hpp"

namespace encore::native {

class work_group_runner {
public:
    explicit work_group_runner(const launch_shape& shape);
    ~work_group_runner();
    work_group_runner(const work_group_runner&) = delete;
    work_group_runner& operator=(const work_group_runner&) = delete;

    // Runs every item of group `linear_group` on this thread; rethrows the first exception an item threw.
    void run(std::size_t linear_group);

private:
    using fiber = detail::fiber;

    // Every work fiber's life: take a runner, run its items, report finished, wait for the next runner.
    static void fiber_main(detail::transfer_t from_scheduler) noexcept;
    static void barrier(void* runner);
    static const std::byte* exchange(void* runner, std::size_t local_linear, std::size_t sub_group,
                                     const void* value, std::size_t bytes);

    work_item make_item(std::size_t local_linear) const;
    void run_items();            // in a fiber: start items until none is left
    // in a fiber: back to the scheduler until the barrier of `scope` (work_item::whole_group or a sub-group) is
    // released
    void park(std::size_t scope = work_item::whole_group);
    void switch_into(fiber&& f); // scheduler: run `f` until it parks (kept) or finishes (back to the pool)
    void release_round();        // scheduler: picks the parked fibers to resume next into releasing_
    std::size_t sub_group_size(std::size_t sub_group) const noexcept;

    struct parked_fiber {
        fiber f;
        std::size_t scope; // what it waits for: work_item::whole_group or a sub-group's index
    };

    const launch_shape& shape_;
    detail::index3 group_id_{0, 0, 0};
    std::size_t next_item_ = 0;
    bool cancelled_ = false;
    std::exception_ptr failure_;
    std::vector<parked_fiber> parked_, releasing_, still_parked_;
    std::size_t parking_scope_ = work_item::whole_group; // what the fiber switching back parks for

    // Sub-groups: items not yet returned and items waiting, per sub-group; the exchange blocks (two per scope:
    // the group's, then each sub-group's) and each item's count of exchanges per scope (its block's parity).
    std::size_t sub_groups_ = 1;
    std::vector<std::size_t> sub_group_live_, sub_group_waiting_;
    bool exchanged_ = false; // whether this group's items have exchanged yet (its first exchange zeroes the counts)
    std::vector<std::vector<std::byte>> exchange_blocks_;
    std::vector<std::uint32_t> exchange_counts_; // [2 * local linear id + (sub-group ? 1 : 0)]

    detail::fcontext_t scheduler_context_ = nullptr; // renewed each time a fiber gets control
    detail::context_identity scheduler_identity_;

    std::unique_ptr<std::byte[]> local_block_;
    std::vector<std::byte*> local_pointers_;
};

} // namespace encore::native

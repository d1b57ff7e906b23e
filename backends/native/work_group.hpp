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

    work_item make_item(std::size_t local_linear) const;
    void run_items();            // in a fiber: start items until none is left
    void park();                 // in a fiber: back to the scheduler until the barrier is released
    void switch_into(fiber&& f); // scheduler: run `f` until it parks (kept) or finishes (back to the pool)

    const launch_shape& shape_;
    detail::index3 group_id_{0, 0, 0};
    std::size_t next_item_ = 0;
    bool cancelled_ = false;
    std::exception_ptr failure_;
    std::vector<fiber> parked_, releasing_;

    detail::fcontext_t scheduler_context_ = nullptr; // renewed each time a fiber gets control
    detail::context_identity scheduler_identity_;

    std::unique_ptr<std::byte[]> local_block_;
    std::vector<std::byte*> local_pointers_;
};

} // namespace encore::native

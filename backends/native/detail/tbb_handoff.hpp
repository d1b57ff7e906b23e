// Every functor the native backend hands to oneTBB, in one place. Not for you.
//
// oneTBB copies a functor into a task on one thread and runs it on another. Debian's libtbb is not built with
// ThreadSanitizer, so TSan cannot see that hand-off (see backends/detail/sanitizer_annotations.hpp). Hence:
// - every functor here is trivially copyable (raw pointers and integers): no library code of ours or of
// libstdc++
//   reads task memory except the operator() bodies in tbb_handoff.cpp;
// - each operator() reads its fields, acquires the hand-off the submitting side released, and calls the real
//   work, defined with the rest of its concept;
// - tests/tsan.supp suppresses races whose innermost frame is in tbb_handoff.cpp, and nothing else of
// Encore's. Ownership that must travel with a task (an eager command, a launch) is a self-reference the task
// releases: the object keeps itself alive until its task has run.
//
//     ENCORE_TSAN_RELEASE(work);  arena.enqueue(eager_task{work});
#pragma once

#include <cstddef>
#include <cstdint>

#include <oneapi/tbb/blocked_range.h>

namespace encore::native {

class task_list;
struct launch_shape;

namespace detail {

struct eager_work;   // native_queue.cpp
struct launch_claim; // task_list.cpp

// The work behind each functor.
void run_eager(eager_work& work) noexcept;
struct ordered_start;
// An eager command a launch's driver claimed (start_order::claim_before), run on the driver's thread.
void run_claimed_eager(ordered_start& s) noexcept;
void run_launch(launch_claim& claim) noexcept;
void run_helped(launch_claim& claim) noexcept;
void run_ready(task_list& list, const std::uint32_t* first, std::uint32_t count,
               std::uint32_t grain) noexcept;
void run_range_chunk(const launch_shape& shape, std::size_t first, std::size_t last);
void run_group_chunk(const launch_shape& shape, std::size_t first, std::size_t last);

// task_arena::enqueue: one eager command.
struct eager_task {
    eager_work* work;
    void operator()() const;
};

// task_arena::enqueue: the driver of one graph-partition launch.
struct launch_task {
    launch_claim* claim;
    void operator()() const;
};

// task_arena::execute: a thread waiting for a launch's event drives the launch it claimed (oneTBB may run it on
// a worker of the arena rather than on the waiting thread).
struct help_task {
    launch_claim* claim;
    void operator()() const;
};

// task_group::run: nodes of a task list that became ready, first[0 .. count).
struct ready_task {
    task_list* list;
    const std::uint32_t* first;
    std::uint32_t count;
    std::uint32_t grain;
    void operator()() const;
};

// parallel_for bodies: items of a range launch, groups of an nd_range launch.
struct range_chunk {
    const launch_shape* shape;
    void operator()(const tbb::blocked_range<std::size_t>& chunk) const;
};
struct group_chunk {
    const launch_shape* shape;
    void operator()(const tbb::blocked_range<std::size_t>& chunk) const;
};

} // namespace detail
} // namespace encore::native

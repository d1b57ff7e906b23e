// How the native backend runs one kernel command: its work-items as C++ calls, in parallel with oneTBB.
//
// A range launch (no local size) is one parallel_for over the linearised items, with an auto_partitioner
// whose chunks are at least 32 items; launches of at most `inline_items` items run inline on the calling
// thread, where a parallel_for would cost more than the work. An nd_range launch runs work-groups in
// parallel, one group at a time per thread, each on fibers so that its items can wait at the group barrier
// (work_group.hpp); groups of one item need no fibers. Exceptions thrown by items leave run_kernel (oneTBB
// cancels the rest of the launch).
//
//     encore::native::run_kernel(kernel_command{k, {kernel_argument::from_pointer(data)}, range});
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "encore/backends/native/detail/index_space.hpp"
#include "encore/graph/command.hpp"

namespace encore {
struct device_properties;
}

namespace encore::native {

inline constexpr std::size_t inline_items = 64;

// What a launch derives from its command once: the index spaces and the layout of work-group local memory.
struct launch_shape {
    // Borrows `command`'s kernel and arguments: the shape must not outlive the command, nor see it move.
    explicit launch_shape(const kernel_command& command);

    const kernel* kernel_object;
    std::span<const kernel_argument> arguments;
    int dimensions = 1;
    bool small_linear_range = false; // range launch, one dimension, at most inline_items items: run inline
    std::size_t total = 1;           // work-items in all
    std::size_t first = 0;           // offset[0]
    detail::index3 global{1, 1, 1};
    detail::index3 offset{0, 0, 0};
    // nd_range launches only.
    detail::index3 local{0, 0, 0};
    detail::index3 groups{1, 1, 1}; // group_range (all 1 for a range launch)
    std::size_t group_count = 1;
    std::size_t local_count = 1;            // work-items per group
    std::vector<std::size_t> local_offsets; // per local_memory argument, into one block per group
    std::size_t local_bytes = 0;            // that block's size

    bool has_local_size() const noexcept { return local[0] != 0; }
};

namespace detail {
void barrier_in_range_launch(void*);
void run_kernel_general(const launch_shape& shape);
} // namespace detail

void run_kernel(const kernel_command& command);
inline void run_kernel(const launch_shape& shape) {
    detail::run_kernel_general(shape);
}
// One cache line per kernel node of a task list: all a small one-dimensional range launch reads (the
// commonest node), and the full shape for every other launch. A replay streams these, not the 3-line shapes.
struct compact_launch {
    explicit compact_launch(const launch_shape& shape);

    const kernel* kernel_object;
    const kernel_argument* argument_data;
    std::uint32_t argument_count;
    int dimensions;
    std::size_t total;
    std::size_t first;        // offset[0]
    const launch_shape* full; // borrowed from the task list
    bool small_linear_range;  // range launch in one dimension (zero offsets beyond it), <= inline_items
};
static_assert(sizeof(compact_launch) <= 64);

// The same with the shape derived beforehand (task lists derive it once, at lowering). Small one-dimensional
// ranges run right here, inline in the caller's loop, on `scratch`: a work_item the caller keeps across
// launches and that only this function writes, so that only the fields a range launch sets need setting.
inline void run_kernel(const compact_launch& c, work_item& scratch) {
    if (!c.small_linear_range) return detail::run_kernel_general(*c.full);
    scratch.dimensions = c.dimensions;
    scratch.global_range = {c.total, 1, 1};
    scratch.offset = {c.first, 0, 0};
    scratch.barrier = &detail::barrier_in_range_launch;
    c.kernel_object->run_linear(scratch, 0, c.total, {c.argument_data, c.argument_count});
}

// Throws encore::error(invalid_argument) for a kernel command the native device cannot run: local memory
// arguments in a range launch, or a work-group larger than max_work_group_size.
void check_kernel(const kernel_command& command, const device_properties& device);

} // namespace encore::native

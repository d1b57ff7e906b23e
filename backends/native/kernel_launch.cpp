#include "kernel_launch.hpp"

#include <algorithm>
#include <string>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include "encore/backends/backend.hpp"
#include "encore/backends/detail/sanitizer_annotations.hpp"
#include "encore/backends/native/detail/tbb_handoff.hpp"
#include "encore/backends/native/work_group.hpp"
#include "encore/graph/error.hpp"

namespace encore::native {

void detail::barrier_in_range_launch(void*) {
    throw error(
        errc::invalid_argument,
        "barrier() called by a work-item of a range launch; only nd_range launches (with a local size) "
        "have work-groups");
}

namespace {

constexpr std::size_t min_items_per_chunk = 32;

void barrier_of_one_item(void*) {}
// A group of one item exchanges with itself.
const std::byte* exchange_of_one_item(void*, std::size_t, std::size_t, const void* value, std::size_t bytes) {
    return bytes ? static_cast<const std::byte*>(value) : nullptr;
}

// Items [first, last) of a range launch, in linear order. The index lives in three scalars, not an index3:
// writing an array's elements one by one and reading it back whole stalls store forwarding on every item.
void run_range_items(const launch_shape& s, std::size_t first, std::size_t last) {
    const launch_shape& r = s;
    work_item it;
    it.dimensions = r.dimensions;
    it.global_range = r.global;
    it.offset = r.offset;
    it.barrier = &detail::barrier_in_range_launch;
    if (r.global[1] == 1 && r.global[2] == 1) { // one dimension: the common case, one store per item
        it.global_id = {0, r.offset[1], r.offset[2]};
        s.kernel_object->run_linear(it, first, last, s.arguments);
        return;
    }
    const auto start = detail::delinearize(first, r.global);
    std::size_t i0 = start[0], i1 = start[1], i2 = start[2];
    for (std::size_t i = first; i < last; ++i) {
        it.global_id[0] = r.offset[0] + i0;
        it.global_id[1] = r.offset[1] + i1;
        it.global_id[2] = r.offset[2] + i2;
        s.kernel_object->run(it, s.arguments);
        if (++i2 == r.global[2]) {
            i2 = 0;
            if (++i1 == r.global[1]) {
                i1 = 0;
                ++i0;
            }
        }
    }
}

// Groups [first, last) of an nd_range launch whose groups hold one item each and no local memory: no barrier can
// wait for anyone.
void run_single_item_groups(const launch_shape& s, std::size_t first, std::size_t last) {
    const launch_shape& r = s;
    work_item it;
    it.dimensions = r.dimensions;
    it.global_range = r.global;
    it.local_range = r.local;
    it.group_range = s.groups;
    it.offset = r.offset;
    it.barrier = &barrier_of_one_item;
    it.exchange = &exchange_of_one_item;
    const auto start = detail::delinearize(first, s.groups);
    std::size_t g0 = start[0], g1 = start[1], g2 = start[2];
    for (std::size_t g = first; g < last; ++g) {
        it.group_id[0] = g0;
        it.group_id[1] = g1;
        it.group_id[2] = g2;
        it.global_id[0] = r.offset[0] + g0;
        it.global_id[1] = r.offset[1] + g1;
        it.global_id[2] = r.offset[2] + g2;
        s.kernel_object->run(it, s.arguments);
        if (++g2 == s.groups[2]) {
            g2 = 0;
            if (++g1 == s.groups[1]) {
                g1 = 0;
                ++g0;
            }
        }
    }
}

void run_groups(const launch_shape& s, std::size_t first, std::size_t last) {
    // Groups of one item without local memory need no runner (a group's local memory is the runner's block).
    if (s.local_count == 1 && s.local_offsets.empty()) return run_single_item_groups(s, first, last);
    work_group_runner runner(s);
    for (std::size_t g = first; g < last; ++g)
        runner.run(g);
}

} // namespace

void detail::run_range_chunk(const launch_shape& shape, std::size_t first, std::size_t last) {
    run_range_items(shape, first, last);
}

void detail::run_group_chunk(const launch_shape& shape, std::size_t first, std::size_t last) {
    run_groups(shape, first, last);
}

launch_shape::launch_shape(const kernel_command& command)
    : kernel_object(command.kernel.get()), arguments(command.arguments), dimensions(command.range.dimensions),
      total(command.range.global_count()), first(command.range.offset[0]), global(command.range.global),
      offset(command.range.offset), local(command.range.local) {
    if (has_local_size()) {
        for (int d = 0; d < 3; ++d)
            groups[d] = global[d] / local[d];
        group_count = groups[0] * groups[1] * groups[2];
        local_count = local[0] * local[1] * local[2];
    }
    small_linear_range = !has_local_size() && global[1] == 1 && global[2] == 1 && offset[1] == 0 &&
                         offset[2] == 0 && total <= inline_items;
    for (const auto& a : arguments)
        if (a.type == kernel_argument::kind::local_memory) {
            local_offsets.push_back(local_bytes);
            local_bytes += (a.local_bytes + 63) / 64 * 64;
        }
}

compact_launch::compact_launch(const launch_shape& shape)
    : kernel_object(shape.kernel_object), argument_data(shape.arguments.data()),
      argument_count(static_cast<std::uint32_t>(shape.arguments.size())), dimensions(shape.dimensions),
      total(shape.total), first(shape.first), full(&shape), small_linear_range(shape.small_linear_range) {}

void run_kernel(const kernel_command& command) {
    detail::run_kernel_general(launch_shape(command));
}

void detail::run_kernel_general(const launch_shape& shape) {
    if (!shape.has_local_size()) {
        if (shape.total <= inline_items) return run_range_items(shape, 0, shape.total);
        ENCORE_TSAN_RELEASE(&shape);
        const encore::detail::tsan_acquire_on_exit collect(&shape);
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, shape.total, min_items_per_chunk),
                          detail::range_chunk{&shape}, tbb::auto_partitioner());
        return;
    }
    if (shape.group_count == 1 || shape.total <= inline_items) return run_groups(shape, 0, shape.group_count);
    // At least 32 items per chunk here too: single-item groups are as cheap as range items.
    std::size_t grain = std::max<std::size_t>(1, min_items_per_chunk / shape.local_count);
    ENCORE_TSAN_RELEASE(&shape);
    const encore::detail::tsan_acquire_on_exit collect(&shape);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, shape.group_count, grain),
                      detail::group_chunk{&shape}, tbb::auto_partitioner());
}

void check_kernel(const kernel_command& command, const device_properties& device) {
    const auto& r = command.range;
    // Built only for an error message: this runs on every eager submission.
    const auto name = [&] {
        return command.kernel ? "kernel '" + command.kernel->name() + "'" : std::string("kernel command");
    };
    bool has_local_arguments =
        std::any_of(command.arguments.begin(), command.arguments.end(),
                    [](const auto& a) { return a.type == kernel_argument::kind::local_memory; });
    if (has_local_arguments && !r.has_local_size())
        throw error(errc::invalid_argument,
                    name() +
                        " has local memory arguments but a range without a local size; local memory belongs "
                        "to work-groups, which only nd_range launches have");
    if (r.has_local_size()) {
        std::size_t items = r.local[0] * r.local[1] * r.local[2];
        if (items > device.max_work_group_size)
            throw error(errc::invalid_argument, name() + ": a work-group of " + std::to_string(items) +
                                                    " items exceeds the device's max_work_group_size of " +
                                                    std::to_string(device.max_work_group_size));
    }
}

} // namespace encore::native

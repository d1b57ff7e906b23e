#include "work_group.hpp"

#include <cstdint>

namespace encore::native {

namespace {
// What a fiber tells the scheduler when it switches back.
char parked_tag, finished_tag;

// Thrown from barrier() into an item whose group was cancelled, to unwind it.
struct group_cancelled {};

constexpr std::size_t local_alignment = 64;
} // namespace

work_group_runner::work_group_runner(const launch_shape& shape) : shape_(shape) {
    if (!shape.local_offsets.empty()) {
        local_block_ = std::make_unique_for_overwrite<std::byte[]>(shape.local_bytes + local_alignment);
        auto base = reinterpret_cast<std::uintptr_t>(local_block_.get());
        auto aligned = (base + local_alignment - 1) / local_alignment * local_alignment;
        auto* start = local_block_.get() + (aligned - base);
        for (auto offset : shape.local_offsets)
            local_pointers_.push_back(start + offset);
    }
}

work_group_runner::~work_group_runner() = default;

work_item work_group_runner::make_item(std::size_t local_linear) const {
    const launch_shape& r = shape_;
    work_item it;
    it.dimensions = r.dimensions;
    it.local_id = detail::delinearize(local_linear, r.local);
    it.group_id = group_id_;
    for (int d = 0; d < 3; ++d)
        it.global_id[d] = r.offset[d] + group_id_[d] * r.local[d] + it.local_id[d];
    it.global_range = r.global;
    it.local_range = r.local;
    it.group_range = shape_.groups;
    it.offset = r.offset;
    it.barrier = &work_group_runner::barrier;
    it.group_state = const_cast<work_group_runner*>(this);
    it.local_memory = std::span<std::byte* const>(local_pointers_);
    return it;
}

void work_group_runner::run(std::size_t linear_group) {
    group_id_ = detail::delinearize(linear_group, shape_.groups);
    next_item_ = 0;
    cancelled_ = false;
    failure_ = nullptr;
    scheduler_identity_.tsan_fiber = detail::tsan_current_fiber();

    // Start items; each fiber runs items until one parks it at a barrier, then the next fiber takes over.
    while (next_item_ < shape_.local_count && !cancelled_)
        switch_into(detail::fiber_pool::this_thread().take(&fiber_main));
    // Every item has started: the live ones all wait at the same barrier. Release them, barrier after
    // barrier.
    while (!parked_.empty()) {
        releasing_.swap(parked_);
        for (auto& f : releasing_)
            switch_into(std::move(f));
        releasing_.clear();
    }
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void work_group_runner::switch_into(fiber&& f) {
    detail::transfer_t back = detail::switch_context(f.context, this, f.identity(), nullptr);
    f.context = back.fctx;
    if (back.data == &parked_tag)
        parked_.push_back(std::move(f));
    else
        detail::fiber_pool::this_thread().give(std::move(f));
}

void work_group_runner::fiber_main(detail::transfer_t from_scheduler) noexcept {
    detail::context_identity scheduler;
    detail::enter_fiber(&scheduler);
    for (;;) {
        auto* self = static_cast<work_group_runner*>(from_scheduler.data);
        self->scheduler_context_ = from_scheduler.fctx;
        if (scheduler.stack_bottom) self->scheduler_identity_.stack_bottom = scheduler.stack_bottom;
        if (scheduler.stack_size) self->scheduler_identity_.stack_size = scheduler.stack_size;
        self->run_items();
        // Done: back to the scheduler, which pools this fiber; the next switch here brings another runner.
        from_scheduler = detail::switch_context(self->scheduler_context_, &finished_tag,
                                                self->scheduler_identity_, &scheduler);
    }
}

void work_group_runner::run_items() {
    while (!cancelled_ && next_item_ < shape_.local_count) {
        const work_item item = make_item(next_item_++);
        try {
            shape_.kernel_object->run(item, shape_.arguments);
        } catch (const group_cancelled&) {
        } catch (...) {
            if (!failure_) failure_ = std::current_exception();
            cancelled_ = true;
        }
    }
}

void work_group_runner::barrier(void* runner) {
    static_cast<work_group_runner*>(runner)->park();
}

void work_group_runner::park() {
    detail::transfer_t back =
        detail::switch_context(scheduler_context_, &parked_tag, scheduler_identity_, &scheduler_identity_);
    scheduler_context_ = back.fctx;
    if (cancelled_) throw group_cancelled{};
}

} // namespace encore::native

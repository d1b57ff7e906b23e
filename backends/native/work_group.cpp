#include "work_group.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "encore/graph/error.hpp"

namespace encore::native {

namespace {
// What a fiber tells the scheduler when it switches back.
char parked_tag, finished_tag;

// Thrown from barrier() into an item whose group was cancelled, to unwind it.
struct group_cancelled {};

constexpr std::size_t local_alignment = 64;
} // namespace

work_group_runner::work_group_runner(const launch_shape& shape)
    : shape_(shape), sub_groups_((shape.local_count + sub_group_width - 1) / sub_group_width),
      sub_group_live_(sub_groups_), sub_group_waiting_(sub_groups_) {
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
    it.exchange = &work_group_runner::exchange;
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
    for (std::size_t k = 0; k < sub_groups_; ++k)
        sub_group_live_[k] = sub_group_size(k);
    exchanged_ = false; // the group's first exchange zeroes the counts

    // Start items; each fiber runs items until one parks it at a barrier, then the next fiber takes over.
    while (next_item_ < shape_.local_count && !cancelled_)
        switch_into(detail::fiber_pool::this_thread().take(&fiber_main));
    // Every item has started: the live ones all wait, at the work-group barrier or at a sub-group's. Release
    // them, barrier after barrier.
    while (!parked_.empty()) {
        release_round();
        for (auto& p : releasing_)
            switch_into(std::move(p.f));
        releasing_.clear();
    }
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

std::size_t work_group_runner::sub_group_size(std::size_t sub_group) const noexcept {
    return std::min(sub_group_width, shape_.local_count - sub_group * sub_group_width);
}

void work_group_runner::release_round() {
    const bool all_at_group_barrier = std::all_of(parked_.begin(), parked_.end(), [](const parked_fiber& p) {
        return p.scope == work_item::whole_group;
    });
    if (all_at_group_barrier || cancelled_) { // a cancelled group's items all resume, to unwind
        releasing_.swap(parked_);
        return;
    }
    // Sub-groups whose live items all wait at a sub-group collective go on; the others stay parked.
    std::fill(sub_group_waiting_.begin(), sub_group_waiting_.end(), 0);
    for (const auto& p : parked_)
        if (p.scope != work_item::whole_group) ++sub_group_waiting_[p.scope];
    auto ready = [&](const parked_fiber& p) {
        return p.scope != work_item::whole_group && sub_group_waiting_[p.scope] == sub_group_live_[p.scope];
    };
    for (auto& p : parked_)
        (ready(p) ? releasing_ : still_parked_).push_back(std::move(p));
    parked_.swap(still_parked_);
    still_parked_.clear();
    if (!releasing_.empty()) return;
    // Nobody can go on: some items wait at the work-group barrier while others of their sub-group wait at a
    // sub-group collective. Fail the group, and resume everyone so that they unwind.
    std::size_t stuck = 0;
    while (sub_group_waiting_[stuck] == 0)
        ++stuck;
    failure_ = std::make_exception_ptr(error(
        errc::invalid_argument,
        "work-group " + std::to_string(group_id_[0]) + "," + std::to_string(group_id_[1]) + "," +
            std::to_string(group_id_[2]) + ": " + std::to_string(sub_group_waiting_[stuck]) + " of the " +
            std::to_string(sub_group_live_[stuck]) + " running work-items of sub-group " + std::to_string(stuck) +
            " wait at a sub-group collective while the others wait at a work-group barrier (a group function or "
            "barrier must be reached by every work-item of its group)"));
    cancelled_ = true;
    releasing_.swap(parked_);
}

void work_group_runner::switch_into(fiber&& f) {
    detail::transfer_t back = detail::switch_context(f.context, this, f.identity(), nullptr);
    f.context = back.fctx;
    if (back.data == &parked_tag)
        parked_.push_back({std::move(f), parking_scope_});
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
        const std::size_t local_linear = next_item_++;
        const work_item item = make_item(local_linear);
        try {
            shape_.kernel_object->run(item, shape_.arguments);
        } catch (const group_cancelled&) {
        } catch (...) {
            if (!failure_) failure_ = std::current_exception();
            cancelled_ = true;
        }
        --sub_group_live_[local_linear / sub_group_width];
    }
}

void work_group_runner::barrier(void* runner) {
    static_cast<work_group_runner*>(runner)->park();
}

const std::byte* work_group_runner::exchange(void* runner_state, std::size_t local_linear, std::size_t sub_group,
                                             const void* value, std::size_t bytes) {
    auto& self = *static_cast<work_group_runner*>(runner_state);
    const bool whole = sub_group == work_item::whole_group;
    if (bytes == 0) {
        self.park(sub_group);
        return nullptr;
    }
    if (!self.exchanged_) {
        self.exchange_counts_.assign(2 * self.shape_.local_count, 0);
        self.exchange_blocks_.resize(2 * (1 + self.sub_groups_));
        self.exchanged_ = true;
    }
    std::uint32_t& count = self.exchange_counts_[2 * local_linear + (whole ? 0 : 1)];
    const std::size_t block_index = 2 * (whole ? 0 : 1 + sub_group) + (count++ & 1);
    const std::size_t members = whole ? self.shape_.local_count : self.sub_group_size(sub_group);
    const std::size_t slot = whole ? local_linear : local_linear % sub_group_width;
    // The first member to arrive sizes the block; nobody reads it any more (double-buffering, above).
    std::vector<std::byte>& block = self.exchange_blocks_[block_index];
    if (block.size() < members * bytes) block.resize(members * bytes);
    std::memcpy(block.data() + slot * bytes, value, bytes);
    self.park(sub_group);
    return self.exchange_blocks_[block_index].data();
}

void work_group_runner::park(std::size_t scope) {
    parking_scope_ = scope;
    detail::transfer_t back =
        detail::switch_context(scheduler_context_, &parked_tag, scheduler_identity_, &scheduler_identity_);
    scheduler_context_ = back.fctx;
    if (cancelled_) throw group_cancelled{};
}

} // namespace encore::native

// Fiber stacks and stack switches for the native backend's work-groups. Not for you: see
// backends/native/work_group.hpp.
//
// Switches go through Boost.Context's fcontext layer (make_fcontext / jump_fcontext) rather than
// boost::context::fiber, because fiber switches inside its own headers where no sanitizer annotation can
// reach: here every switch is ours, and tells ASan which stack it lands on and TSan which fiber runs, so both
// sanitizers work on fiber code. Stacks are mmap'ed with a guard page below (an overflow faults instead of
// corrupting a neighbour). Fibers are never destroyed while their thread lives: a fiber whose work is done
// waits, suspended in its entry function's loop, in a per-thread pool until the next group needs one, so a
// launch creates no fiber after the first (and TSan's fiber records, which are expensive to create, are made
// once per fiber).
//
//     auto f = fiber_pool::this_thread().take(&entry);   // an idle fiber, or a new one starting at `entry`
//     ... switch_context(f.context, data, f.identity(), nullptr) ...
//     fiber_pool::this_thread().give(std::move(f));      // once it is suspended waiting for new work
#pragma once

#include <cstddef>
#include <vector>

#include <boost/context/detail/fcontext.hpp>

#include "encore/backends/detail/sanitizer_annotations.hpp"

namespace encore::native::detail {

using boost::context::detail::fcontext_t;
using boost::context::detail::transfer_t;

class fiber_stack {
public:
    fiber_stack() = default;
    explicit fiber_stack(std::size_t usable_bytes);
    ~fiber_stack();
    fiber_stack(fiber_stack&& other) noexcept;
    fiber_stack& operator=(fiber_stack&& other) noexcept;
    fiber_stack(const fiber_stack&) = delete;
    fiber_stack& operator=(const fiber_stack&) = delete;

    void* top() const noexcept { return static_cast<char*>(bottom_) + size_; } // stacks grow down from here
    void* bottom() const noexcept { return bottom_; }
    std::size_t size() const noexcept { return size_; }

private:
    void* mapping_ = nullptr; // guard page + usable stack
    std::size_t mapping_bytes_ = 0;
    void* bottom_ = nullptr;
    std::size_t size_ = 0;
};

// 256 KiB per work-item fiber (1 MiB under sanitizers, whose frames are larger); pages are only committed
// when touched, so a group of 1024 items that all wait at a barrier costs what their frames use.
std::size_t fiber_stack_bytes() noexcept;

// What a switch needs to know about where it goes, for the sanitizers.
struct context_identity {
    const void* stack_bottom = nullptr; // ASan: the stack the context runs on
    std::size_t stack_size = 0;
    void* tsan_fiber = nullptr; // TSan: its fiber handle
};

struct fiber {
    fcontext_t context = nullptr; // where to resume it
    fiber_stack stack;
    void* tsan_fiber = nullptr;
    context_identity identity() const noexcept { return {stack.bottom(), stack.size(), tsan_fiber}; }
};

class fiber_pool {
public:
    static fiber_pool& this_thread();
    ~fiber_pool();
    // An idle fiber; or a new one that will start in `entry` when first switched to. Every fiber of one pool
    // must share one entry function (it is what idle fibers resume in).
    fiber take(void (*entry)(transfer_t));
    void give(fiber&& f);

private:
    std::vector<fiber> idle_;
};

// Switches to `target` with `data`. When control comes back, returns what the switcher passed and, for ASan,
// records in `came_from` the stack it came from (if not null).
transfer_t switch_context(fcontext_t target, void* data, const context_identity& target_identity,
                          context_identity* came_from) noexcept;

// The first thing a new fiber's entry function does: completes the switch that started it.
void enter_fiber(context_identity* came_from) noexcept;

void* tsan_current_fiber() noexcept;
void* tsan_create_fiber() noexcept;
void tsan_destroy_fiber(void* fiber) noexcept;

} // namespace encore::native::detail

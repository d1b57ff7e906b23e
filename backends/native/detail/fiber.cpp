#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <utility>

#include "encore/graph/error.hpp"

#if ENCORE_ASAN_ENABLED
#include <sanitizer/common_interface_defs.h>
#endif

namespace encore::native::detail {

std::size_t fiber_stack_bytes() noexcept {
    return (ENCORE_ASAN_ENABLED || ENCORE_TSAN_ENABLED) ? std::size_t(1) << 20 : std::size_t(256) << 10;
}

fiber_stack::fiber_stack(std::size_t usable_bytes) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    size_ = (usable_bytes + page - 1) / page * page;
    mapping_bytes_ = size_ + page;
    mapping_ = ::mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (mapping_ == MAP_FAILED) {
        mapping_ = nullptr;
        throw error(errc::backend_failure, "native backend: cannot map a " + std::to_string(mapping_bytes_) +
                                               "-byte stack for a work-item fiber");
    }
    ::mprotect(mapping_, page, PROT_NONE); // the guard page
    bottom_ = static_cast<char*>(mapping_) + page;
}

fiber_stack::~fiber_stack() {
    if (mapping_) ::munmap(mapping_, mapping_bytes_);
}

fiber_stack::fiber_stack(fiber_stack&& other) noexcept
    : mapping_(std::exchange(other.mapping_, nullptr)),
      mapping_bytes_(std::exchange(other.mapping_bytes_, 0)), bottom_(std::exchange(other.bottom_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

fiber_stack& fiber_stack::operator=(fiber_stack&& other) noexcept {
    if (this != &other) {
        if (mapping_) ::munmap(mapping_, mapping_bytes_);
        mapping_ = std::exchange(other.mapping_, nullptr);
        mapping_bytes_ = std::exchange(other.mapping_bytes_, 0);
        bottom_ = std::exchange(other.bottom_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

fiber_pool& fiber_pool::this_thread() {
    thread_local fiber_pool pool;
    return pool;
}

fiber_pool::~fiber_pool() {
    // The idle fibers are suspended in their entry loop, with nothing on their stacks that needs destroying.
    for (auto& f : idle_)
        tsan_destroy_fiber(f.tsan_fiber);
}

fiber fiber_pool::take(void (*entry)(transfer_t)) {
    if (!idle_.empty()) {
        fiber f = std::move(idle_.back());
        idle_.pop_back();
        return f;
    }
    fiber f;
    f.stack = fiber_stack(fiber_stack_bytes());
    f.tsan_fiber = tsan_create_fiber();
    f.context = boost::context::detail::make_fcontext(f.stack.top(), f.stack.size(), entry);
    return f;
}

void fiber_pool::give(fiber&& f) {
    idle_.push_back(std::move(f));
}

transfer_t switch_context(fcontext_t target, void* data, const context_identity& target_identity,
                          context_identity* came_from) noexcept {
#if ENCORE_ASAN_ENABLED
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, target_identity.stack_bottom, target_identity.stack_size);
#endif
#if ENCORE_TSAN_ENABLED
    __tsan_switch_to_fiber(target_identity.tsan_fiber, 0);
#endif
    transfer_t back = boost::context::detail::jump_fcontext(target, data);
#if ENCORE_ASAN_ENABLED
    const void* bottom = nullptr;
    std::size_t size = 0;
    __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
    if (came_from) {
        came_from->stack_bottom = bottom;
        came_from->stack_size = size;
    }
#else
    static_cast<void>(came_from);
    static_cast<void>(target_identity);
#endif
    return back;
}

void enter_fiber(context_identity* came_from) noexcept {
#if ENCORE_ASAN_ENABLED
    __sanitizer_finish_switch_fiber(nullptr, &came_from->stack_bottom, &came_from->stack_size);
#else
    static_cast<void>(came_from);
#endif
}

void* tsan_current_fiber() noexcept {
#if ENCORE_TSAN_ENABLED
    return __tsan_get_current_fiber();
#else
    return nullptr;
#endif
}

void* tsan_create_fiber() noexcept {
#if ENCORE_TSAN_ENABLED
    return __tsan_create_fiber(0);
#else
    return nullptr;
#endif
}

void tsan_destroy_fiber(void* fiber) noexcept {
#if ENCORE_TSAN_ENABLED
    if (fiber) __tsan_destroy_fiber(fiber);
#else
    static_cast<void>(fiber);
#endif
}

} // namespace encore::native::detail

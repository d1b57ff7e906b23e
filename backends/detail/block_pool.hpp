// encore::detail::pool_allocator — blocks of one size kept for reuse, for objects made and dropped once per
// command (backend events).
//
// An eager submission makes an event and a later one drops it; next to a driver that allocates from other threads,
// the general-purpose allocator takes its slow paths for them (about 380 instructions a pair under PoCL, where this
// takes about 60). Blocks of one size and alignment are shared by every object that fits them, under a mutex
// (events may be dropped on any thread); up to `block_pool::kept` free blocks are kept, the rest go back to
// operator delete. The pools are never destroyed: events may outlive static destruction.
//
//     auto e = std::allocate_shared<my_event>(encore::detail::pool_allocator<my_event>{}, ...);
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <utility>

namespace encore::detail {

template <std::size_t Size, std::size_t Align> class block_pool {
public:
    static constexpr std::size_t kept = 4096;

    static block_pool& instance() {
        static block_pool* pool = new block_pool; // never destroyed (see above)
        return *pool;
    }

    void* allocate() {
        {
            std::lock_guard lock(mutex_);
            if (free_) {
                --free_count_;
                return std::exchange(free_, free_->next);
            }
        }
        return ::operator new(block_size, std::align_val_t{block_align});
    }

    // Free blocks held now (at most `kept`).
    std::size_t free_blocks() {
        std::lock_guard lock(mutex_);
        return free_count_;
    }

    void deallocate(void* p) noexcept {
        {
            std::lock_guard lock(mutex_);
            if (free_count_ < kept) {
                free_ = ::new (p) free_block{free_};
                ++free_count_;
                return;
            }
        }
        ::operator delete(p, block_size, std::align_val_t{block_align});
    }

private:
    struct free_block {
        free_block* next;
    };
    static constexpr std::size_t block_size = Size < sizeof(free_block) ? sizeof(free_block) : Size;
    static constexpr std::size_t block_align = Align < alignof(free_block) ? alignof(free_block) : Align;

    block_pool() = default;
    std::mutex mutex_;
    free_block* free_ = nullptr;
    std::size_t free_count_ = 0;
};

// A std allocator over block_pool for single objects (std::allocate_shared allocates one control block with the
// object in it); arrays go to operator new.
template <typename T> struct pool_allocator {
    using value_type = T;

    pool_allocator() noexcept = default;
    template <typename U> pool_allocator(const pool_allocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n != 1) return std::allocator<T>{}.allocate(n);
        return static_cast<T*>(block_pool<sizeof(T), alignof(T)>::instance().allocate());
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n != 1) return std::allocator<T>{}.deallocate(p, n);
        block_pool<sizeof(T), alignof(T)>::instance().deallocate(p);
    }
    template <typename U> friend bool operator==(const pool_allocator&, const pool_allocator<U>&) noexcept {
        return true;
    }
};

} // namespace encore::detail

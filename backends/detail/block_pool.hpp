// encore::detail::pool_allocator — blocks of one size kept for reuse, for objects made and dropped once per
// command (backend events).
//
// An eager submission makes an event and a later one drops it; next to a driver that allocates from other threads,
// the general-purpose allocator takes its slow paths for them (about 380 instructions a pair under PoCL, where this
// takes about 60). Blocks of one size and alignment are shared by every object that fits them. Each thread keeps
// up to `per_thread` free blocks of each pool it uses, taken and handed out without a lock; it fetches and
// returns `per_thread / 2` at a time from the pool's shared list, under its mutex (events may be dropped on any
// thread), and returns all of them when it ends. The shared list keeps up to `block_pool::kept` free blocks, the
// rest go back to operator delete. The pools live in libencore, which is never unloaded: a plugin's events may use
// them until the plugin goes, and the pools are never destroyed (events may outlive static destruction).
//
//     auto e = std::allocate_shared<my_event>(encore::detail::pool_allocator<my_event>{}, ...);
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>

namespace encore::detail {

class block_pool {
public:
    static constexpr std::size_t kept = 4096;
    static constexpr std::size_t per_thread = 64;

    // The process's pool of blocks of `size` bytes aligned to `align` (made at the first call).
    static block_pool& of(std::size_t size, std::size_t align);

    void* allocate();
    void deallocate(void* p) noexcept;
    // Free blocks held now by the shared list (at most `kept`) and by the calling thread (at most `per_thread`).
    std::size_t free_blocks();

    block_pool(const block_pool&) = delete;
    block_pool& operator=(const block_pool&) = delete;

private:
    friend struct thread_blocks;
    struct free_block {
        free_block* next;
    };
    // A chain of free blocks of this pool held by one thread.
    struct chain {
        free_block* head = nullptr;
        std::size_t count = 0;
    };
    block_pool(std::size_t size, std::size_t align);
    // The calling thread's chain of this pool, or nullptr (it caches sixteen other pools, or it is ending).
    chain* cached() noexcept;
    // Moves up to `count` blocks of the shared list onto `to`.
    void take(chain& to, std::size_t count);
    // Moves `count` blocks of `from` to the shared list; what passes `kept` goes to operator delete.
    void give(chain& from, std::size_t count) noexcept;

    const std::size_t size_, align_;
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
        return static_cast<T*>(pool().allocate());
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n != 1) return std::allocator<T>{}.deallocate(p, n);
        pool().deallocate(p);
    }
    template <typename U> friend bool operator==(const pool_allocator&, const pool_allocator<U>&) noexcept {
        return true;
    }

private:
    static block_pool& pool() {
        static block_pool& mine = block_pool::of(sizeof(T), alignof(T));
        return mine;
    }
};

} // namespace encore::detail

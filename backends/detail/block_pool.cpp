#include "block_pool.hpp"

#include <array>
#include <map>
#include <new>
#include <utility>

namespace encore::detail {

block_pool& block_pool::of(std::size_t size, std::size_t align) {
    static std::mutex table_mutex;
    static auto* table = new std::map<std::pair<std::size_t, std::size_t>, block_pool*>; // never destroyed
    std::lock_guard lock(table_mutex);
    auto& pool = (*table)[{size, align}];
    if (!pool) pool = new block_pool(size, align);
    return *pool;
}

block_pool::block_pool(std::size_t size, std::size_t align)
    : size_(size < sizeof(free_block) ? sizeof(free_block) : size),
      align_(align < alignof(free_block) ? alignof(free_block) : align) {}

// The calling thread's chains of the pools it uses: backends' events and command records, and the SYCL front end's
// kernel objects, one pool per size (a program's kernels come in a handful of sizes; a thread that uses more pools
// than it has chains takes and gives its blocks through the shared lists). Trivially destructible and
// initial-exec: libencore is loaded with the program (plugins link it), so the chains sit at a fixed offset of
// the thread's storage, reached without a call (the default model of a shared library calls __tls_get_addr at
// every use, which cost more than the lock this saves). The blocks go back to their pools when the thread ends
// (thread_blocks_release); blocks freed on the thread after that use the shared list.
struct thread_blocks {
    std::array<std::pair<block_pool*, block_pool::chain>, 16> chains{};
    bool ending = false;

    void release() noexcept {
        ending = true;
        for (auto& [pool, c] : chains)
            if (pool) pool->give(c, c.count);
    }
};
[[gnu::tls_model("initial-exec")]] constinit static thread_local thread_blocks this_thread_blocks;

namespace {
struct thread_blocks_release {
    bool armed = false;
    ~thread_blocks_release() { this_thread_blocks.release(); }
};
thread_local thread_blocks_release this_thread_release; // made at the thread's first cached block
} // namespace

block_pool::chain* block_pool::cached() noexcept {
    thread_blocks& mine = this_thread_blocks;
    if (mine.ending) return nullptr;
    for (auto& [pool, c] : mine.chains) {
        if (pool == this) return &c;
        if (!pool) {
            this_thread_release.armed = true; // registers its destructor for this thread
            pool = this;
            return &c;
        }
    }
    return nullptr;
}

void block_pool::take(chain& to, std::size_t count) {
    std::lock_guard lock(mutex_);
    for (; count > 0 && free_; --count, --free_count_, ++to.count)
        to.head = ::new (std::exchange(free_, free_->next)) free_block{to.head};
}

void block_pool::give(chain& from, std::size_t count) noexcept {
    free_block* rest = nullptr; // past `kept`: deleted outside the lock
    {
        std::lock_guard lock(mutex_);
        for (; count > 0 && from.head; --count, --from.count) {
            free_block* b = std::exchange(from.head, from.head->next);
            if (free_count_ < kept) {
                free_ = ::new (b) free_block{free_};
                ++free_count_;
            } else
                rest = ::new (b) free_block{rest};
        }
    }
    while (rest)
        ::operator delete(std::exchange(rest, rest->next), size_, std::align_val_t{align_});
}

void* block_pool::allocate() {
    if (chain* mine = cached()) {
        if (!mine->head) take(*mine, per_thread / 2);
        if (!mine->head) return ::operator new(size_, std::align_val_t{align_}); // the shared list is empty too
        --mine->count;
        return std::exchange(mine->head, mine->head->next);
    }
    {
        std::lock_guard lock(mutex_);
        if (free_) {
            --free_count_;
            return std::exchange(free_, free_->next);
        }
    }
    return ::operator new(size_, std::align_val_t{align_});
}

void block_pool::deallocate(void* p) noexcept {
    if (chain* mine = cached()) {
        if (mine->count == per_thread) give(*mine, per_thread / 2);
        mine->head = ::new (p) free_block{mine->head};
        ++mine->count;
        return;
    }
    chain one{::new (p) free_block{nullptr}, 1};
    give(one, 1);
}

std::size_t block_pool::free_blocks() {
    const chain* mine = cached();
    std::lock_guard lock(mutex_);
    return free_count_ + (mine ? mine->count : 0);
}

} // namespace encore::detail

#include "block_pool.hpp"

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

void* block_pool::allocate() {
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
    {
        std::lock_guard lock(mutex_);
        if (free_count_ < kept) {
            free_ = ::new (p) free_block{free_};
            ++free_count_;
            return;
        }
    }
    ::operator delete(p, size_, std::align_val_t{align_});
}

std::size_t block_pool::free_blocks() {
    std::lock_guard lock(mutex_);
    return free_count_;
}

} // namespace encore::detail

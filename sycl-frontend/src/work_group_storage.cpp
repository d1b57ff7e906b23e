#include "sycl/detail/work_group_storage.hpp"

#include <algorithm>
#include <memory>
#include <new>
#include <unordered_map>

namespace sycl {
inline namespace _V1 {
namespace detail {
namespace {

struct aligned_delete {
    std::size_t alignment;
    void operator()(std::byte* p) const noexcept { ::operator delete[](p, std::align_val_t(alignment)); }
};
using block = std::unique_ptr<std::byte[], aligned_delete>;

struct thread_blocks {
    std::unordered_map<const void*, block> blocks;
    const void* last_key = nullptr; // a kernel reads the same object again and again
    void* last_block = nullptr;
};
thread_local thread_blocks blocks_here;

} // namespace

void* work_group_storage(const void* key, std::size_t bytes, std::size_t alignment) {
    thread_blocks& t = blocks_here;
    if (key == t.last_key) return t.last_block;
    auto found = t.blocks.find(key);
    if (found == t.blocks.end()) {
        alignment = std::max(alignment, alignof(std::max_align_t));
        auto* memory = static_cast<std::byte*>(::operator new[](std::max<std::size_t>(bytes, 1), std::align_val_t(alignment)));
        found = t.blocks.emplace(key, block(memory, aligned_delete{alignment})).first;
    }
    t.last_key = key;
    t.last_block = found->second.get();
    return t.last_block;
}

} // namespace detail
} // namespace _V1
} // namespace sycl

#include "gpu_memory.hpp"

namespace encore::gpu {

void allocation_table::insert(void* user_pointer, const allocation& a) {
    std::lock_guard lock(mutex_);
    allocations_[reinterpret_cast<std::uintptr_t>(user_pointer)] = a;
}

std::optional<allocation> allocation_table::erase(void* user_pointer) {
    std::lock_guard lock(mutex_);
    auto it = allocations_.find(reinterpret_cast<std::uintptr_t>(user_pointer));
    if (it == allocations_.end()) return std::nullopt;
    allocation a = it->second;
    allocations_.erase(it);
    return a;
}

std::optional<allocation> allocation_table::find(const void* p) const {
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    std::lock_guard lock(mutex_);
    auto it = allocations_.upper_bound(address); // the first allocation after p; p is in the one before
    if (it == allocations_.begin()) return std::nullopt;
    --it;
    if (address >= it->first + it->second.bytes) return std::nullopt;
    return it->second;
}

std::optional<memory_kind> allocation_table::kind_of(const void* p) const {
    const auto a = find(p);
    return a ? std::optional(a->kind) : std::nullopt;
}

std::map<std::uintptr_t, allocation> allocation_table::take_all() {
    std::lock_guard lock(mutex_);
    return std::exchange(allocations_, {});
}

} // namespace encore::gpu

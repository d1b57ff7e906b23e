// encore::gpu::allocation_table — what a GPU backend allocated, so that free() refuses foreign pointers
// and commands can ask which kind of memory a pointer is in (a memset of pinned host memory runs as a kernel,
// a prefetch only means something for shared memory).
//
//     table.insert(p, {.base = p, .bytes = n, .device = 0, .kind = memory_kind::device});
//     auto kind = table.kind_of(p + 16); // interior pointers too
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

#include "encore/backends/backend.hpp"

namespace encore::gpu {

struct allocation {
    void* base = nullptr; // what the driver returned (before rounding up to a larger alignment)
    std::size_t bytes = 0;
    std::uint32_t device = 0;
    memory_kind kind = memory_kind::device;
};

class allocation_table {
public:
    void insert(void* user_pointer, const allocation& a);
    // The allocation `user_pointer` was handed out as; removes it. nullopt for any other pointer.
    std::optional<allocation> erase(void* user_pointer);
    // The allocation that contains `p` (interior pointers too), or nullopt.
    std::optional<allocation> find(const void* p) const;
    // Its kind.
    std::optional<memory_kind> kind_of(const void* p) const;
    // Everything still allocated (for the backend's destructor).
    std::map<std::uintptr_t, allocation> take_all();

private:
    mutable std::mutex mutex_;
    std::map<std::uintptr_t, allocation> allocations_; // user pointer -> allocation
};

} // namespace encore::gpu

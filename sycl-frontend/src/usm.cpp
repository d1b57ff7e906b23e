#include "sycl/usm.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "encore/runtime/memory.hpp"
#include "sycl/detail/engine_error.hpp"
#include "sycl/queue.hpp"

namespace sycl {
inline namespace _V1 {

namespace {

struct allocation {
    std::size_t bytes;
    usm::alloc kind;
    device owner;
    std::uint64_t context_id;
};

// The live USM allocations by start address, and the most recently freed ones in quarantine.
//
// Use after free is diagnosed only where it is certain: sycl::free does not give memory back at once but keeps it
// (allocated, unused) in a bounded FIFO quarantine, so no allocator (the system's, a backend's) can hand those
// addresses to anyone else meanwhile, and a pointer into a quarantined range can only be a dangling one. A range
// leaves the table when its memory really goes back to the backend. (Remembering ranges already given back made
// copies from ordinary host memory fail whenever malloc reused freed USM addresses.)
// Reads (every copy and fill checks its pointers) take a shared lock.
class allocation_table {
public:
    static constexpr std::size_t quarantine_count = 1024;
    static constexpr std::size_t quarantine_bytes = std::size_t{64} << 20;
    static constexpr std::size_t largest_quarantined = std::size_t{16} << 20; // larger ones go back at once

    void add(void* p, const allocation& a) {
        std::unique_lock lock(mutex_);
        live_.insert_or_assign(address(p), a);
    }
    // The allocation that contains `p`, if any, with its start.
    std::optional<std::pair<std::uintptr_t, allocation>> find(const void* p) const {
        std::shared_lock lock(mutex_);
        return find_locked(address(p));
    }
    // Takes `p` out of the live allocations; returns what must be given back to the backends now: `p` itself when
    // it is too large to keep, and whatever the quarantine pushes out.
    std::vector<std::pair<void*, allocation>> remove(void* p, const context& c) {
        std::unique_lock lock(mutex_);
        auto it = live_.find(address(p));
        if (it == live_.end()) {
            if (quarantined_locked(address(p)))
                throw exception(errc::invalid, "sycl::free: the pointer was freed already");
            throw exception(errc::invalid, "sycl::free: the pointer was not returned by a SYCL USM allocation" +
                                               std::string(find_locked(address(p)) ? " (it points inside one)" : ""));
        }
        if (it->second.context_id != c.engine_id())
            throw exception(errc::invalid, "sycl::free: the pointer was allocated in another context");
        allocation a = it->second;
        live_.erase(it);
        std::vector<std::pair<void*, allocation>> release;
        if (a.bytes > largest_quarantined) {
            release.emplace_back(p, a);
            return release;
        }
        quarantine_.emplace_back(p, a);
        quarantined_.emplace(address(p), a.bytes);
        quarantined_bytes_ += a.bytes;
        while (quarantine_.size() > quarantine_count || quarantined_bytes_ > quarantine_bytes) {
            quarantined_bytes_ -= quarantine_.front().second.bytes;
            quarantined_.erase(address(quarantine_.front().first));
            release.push_back(std::move(quarantine_.front()));
            quarantine_.pop_front();
        }
        return release;
    }
    // Empties the quarantine (an allocation failed: the memory it holds may be what is missing).
    std::vector<std::pair<void*, allocation>> drain() {
        std::unique_lock lock(mutex_);
        std::vector<std::pair<void*, allocation>> release(quarantine_.begin(), quarantine_.end());
        quarantine_.clear();
        quarantined_.clear();
        quarantined_bytes_ = 0;
        return release;
    }
    bool quarantined_locked(std::uintptr_t p) const {
        auto it = quarantined_.upper_bound(p);
        if (it == quarantined_.begin()) return false;
        --it;
        return p < it->first + std::max<std::size_t>(it->second, 1);
    }
    std::shared_mutex& mutex() const { return mutex_; }
    std::optional<std::pair<std::uintptr_t, allocation>> find_locked(std::uintptr_t p) const {
        auto it = live_.upper_bound(p);
        if (it == live_.begin()) return std::nullopt;
        --it;
        if (p >= it->first + std::max<std::size_t>(it->second.bytes, 1)) return std::nullopt;
        return *it;
    }

    static std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

private:
    mutable std::shared_mutex mutex_;
    std::map<std::uintptr_t, allocation> live_;
    std::deque<std::pair<void*, allocation>> quarantine_; // oldest first
    std::map<std::uintptr_t, std::size_t> quarantined_;   // the same ranges by start address, for lookups
    std::size_t quarantined_bytes_ = 0;
};

allocation_table& table() {
    static allocation_table instance;
    return instance;
}

void give_back(const std::vector<std::pair<void*, allocation>>& released) {
    for (const auto& [pointer, a] : released)
        detail::translate_errors([&] { encore::free(pointer, a.owner.engine()); });
}

encore::memory_kind engine_kind(usm::alloc kind) {
    switch (kind) {
    case usm::alloc::device: return encore::memory_kind::device;
    case usm::alloc::host: return encore::memory_kind::host;
    case usm::alloc::shared: return encore::memory_kind::shared;
    case usm::alloc::unknown: break;
    }
    throw exception(errc::invalid, "sycl::malloc: usm::alloc::unknown is not a kind of memory one can allocate");
}

void* allocate(std::size_t alignment, std::size_t bytes, const device& d, const context& c, usm::alloc kind) {
    auto engine = engine_kind(kind);
    if (!c.contains(d)) throw exception(errc::invalid, "sycl::malloc: the device does not belong to the context");
    if (alignment != 0 && (alignment & (alignment - 1)) != 0)
        return nullptr; // the specification's answer to an alignment that is not a power of two
    if (bytes == 0) return nullptr;
    void* p = nullptr;
    for (int attempt = 0; attempt < 2 && !p; ++attempt) {
        try {
            p = encore::malloc(bytes, d.engine(), engine, alignment);
        } catch (const encore::error&) {
            // Out of memory, or a size no allocation can have: give the quarantine back and try once more.
            if (attempt == 0) give_back(table().drain());
        }
    }
    if (!p) return nullptr;
    if (p) table().add(p, allocation{bytes, kind, d, c.engine_id()});
    return p;
}

} // namespace

void* aligned_alloc(std::size_t alignment, std::size_t bytes, const device& d, const context& c, usm::alloc kind,
                    const property_list&) {
    return allocate(alignment, bytes, d, c, kind);
}
void* aligned_alloc(std::size_t alignment, std::size_t bytes, const queue& q, usm::alloc kind,
                    const property_list& p) {
    return aligned_alloc(alignment, bytes, q.get_device(), q.get_context(), kind, p);
}
void* malloc(std::size_t bytes, const device& d, const context& c, usm::alloc kind, const property_list& p) {
    return aligned_alloc(0, bytes, d, c, kind, p);
}
void* malloc(std::size_t bytes, const queue& q, usm::alloc kind, const property_list& p) {
    return aligned_alloc(0, bytes, q, kind, p);
}

void* malloc_device(std::size_t bytes, const device& d, const context& c, const property_list& p) {
    return aligned_alloc(0, bytes, d, c, usm::alloc::device, p);
}
void* malloc_device(std::size_t bytes, const queue& q, const property_list& p) {
    return aligned_alloc(0, bytes, q, usm::alloc::device, p);
}
void* aligned_alloc_device(std::size_t alignment, std::size_t bytes, const device& d, const context& c,
                           const property_list& p) {
    return aligned_alloc(alignment, bytes, d, c, usm::alloc::device, p);
}
void* aligned_alloc_device(std::size_t alignment, std::size_t bytes, const queue& q, const property_list& p) {
    return aligned_alloc(alignment, bytes, q, usm::alloc::device, p);
}

// Host memory is the context's: Encore asks the context's first device's backend for it.
void* malloc_host(std::size_t bytes, const context& c, const property_list& p) {
    return aligned_alloc(0, bytes, c.get_devices().front(), c, usm::alloc::host, p);
}
void* malloc_host(std::size_t bytes, const queue& q, const property_list& p) {
    return aligned_alloc(0, bytes, q, usm::alloc::host, p);
}
void* aligned_alloc_host(std::size_t alignment, std::size_t bytes, const context& c, const property_list& p) {
    return aligned_alloc(alignment, bytes, c.get_devices().front(), c, usm::alloc::host, p);
}
void* aligned_alloc_host(std::size_t alignment, std::size_t bytes, const queue& q, const property_list& p) {
    return aligned_alloc(alignment, bytes, q, usm::alloc::host, p);
}

void* malloc_shared(std::size_t bytes, const device& d, const context& c, const property_list& p) {
    return aligned_alloc(0, bytes, d, c, usm::alloc::shared, p);
}
void* malloc_shared(std::size_t bytes, const queue& q, const property_list& p) {
    return aligned_alloc(0, bytes, q, usm::alloc::shared, p);
}
void* aligned_alloc_shared(std::size_t alignment, std::size_t bytes, const device& d, const context& c,
                           const property_list& p) {
    return aligned_alloc(alignment, bytes, d, c, usm::alloc::shared, p);
}
void* aligned_alloc_shared(std::size_t alignment, std::size_t bytes, const queue& q, const property_list& p) {
    return aligned_alloc(alignment, bytes, q, usm::alloc::shared, p);
}

void free(void* pointer, const context& c) {
    if (!pointer) return;
    give_back(table().remove(pointer, c));
}
void free(void* pointer, const queue& q) { free(pointer, q.get_context()); }

usm::alloc get_pointer_type(const void* pointer, const context& c) {
    auto found = table().find(pointer);
    if (!found || found->second.context_id != c.engine_id()) return usm::alloc::unknown;
    return found->second.kind;
}

device get_pointer_device(const void* pointer, const context& c) {
    auto found = table().find(pointer);
    if (!found || found->second.context_id != c.engine_id())
        throw exception(errc::invalid, "get_pointer_device: the pointer is not a USM allocation of this context");
    if (found->second.kind == usm::alloc::host) return c.get_devices().front(); // host memory has no device of its own
    return found->second.owner;
}

namespace detail {
void check_usm_range(const void* pointer, std::size_t bytes, const context& c, const char* call, const char* what) {
    auto& t = table();
    std::shared_lock lock(t.mutex());
    const auto p = allocation_table::address(pointer);
    auto found = t.find_locked(p);
    if (!found) {
        if (t.quarantined_locked(p))
            throw exception(errc::invalid, std::string(call) + ": the " + what + " points into USM memory that was freed");
        return;
    }
    const auto& [start, a] = *found;
    if (a.context_id != c.engine_id())
        throw exception(errc::invalid, std::string(call) + ": the " + what +
                                           " is a USM allocation of another context than the queue's");
    if (bytes > a.bytes - (p - start))
        throw exception(errc::invalid, std::string(call) + ": " + std::to_string(bytes) + " bytes from the " + what +
                                           " reach past the end of its USM allocation (" +
                                           std::to_string(a.bytes - (p - start)) + " bytes left)");
}
} // namespace detail

} // namespace _V1
} // namespace sycl

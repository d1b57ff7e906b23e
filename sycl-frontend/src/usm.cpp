#include "sycl/usm.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>

#include "encore/backends/memory.hpp"
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

// The live allocations by start address, and the most recent freed ranges (to name use after free).
class allocation_table {
public:
    void add(void* p, const allocation& a) {
        std::lock_guard lock(mutex_);
        auto start = address(p);
        live_.insert_or_assign(start, a);
        std::erase_if(freed_, [&](const auto& f) { return f.first < start + a.bytes && start < f.first + f.second; });
    }
    // The allocation that contains `p`, if any, with its start.
    std::optional<std::pair<std::uintptr_t, allocation>> find(const void* p) const {
        std::lock_guard lock(mutex_);
        return find_locked(address(p));
    }
    allocation remove(void* p, const context& c) {
        std::lock_guard lock(mutex_);
        auto it = live_.find(address(p));
        if (it == live_.end()) {
            if (was_freed(address(p)))
                throw exception(errc::invalid, "sycl::free: the pointer was freed already");
            throw exception(errc::invalid, "sycl::free: the pointer was not returned by a SYCL USM allocation" +
                                               std::string(find_locked(address(p)) ? " (it points inside one)" : ""));
        }
        if (it->second.context_id != c.engine_id())
            throw exception(errc::invalid, "sycl::free: the pointer was allocated in another context");
        allocation a = it->second;
        live_.erase(it);
        freed_.emplace_back(address(p), a.bytes);
        if (freed_.size() > remembered_frees) freed_.pop_front();
        return a;
    }
    bool was_freed(std::uintptr_t p) const {
        for (const auto& [start, bytes] : freed_)
            if (p >= start && p < start + bytes) return true;
        return false;
    }
    std::mutex& mutex() const { return mutex_; }
    std::optional<std::pair<std::uintptr_t, allocation>> find_locked(std::uintptr_t p) const {
        auto it = live_.upper_bound(p);
        if (it == live_.begin()) return std::nullopt;
        --it;
        if (p >= it->first + std::max<std::size_t>(it->second.bytes, 1)) return std::nullopt;
        return *it;
    }

    static std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

private:
    static constexpr std::size_t remembered_frees = 4096;
    mutable std::mutex mutex_;
    std::map<std::uintptr_t, allocation> live_;
    std::deque<std::pair<std::uintptr_t, std::size_t>> freed_;
};

allocation_table& table() {
    static allocation_table instance;
    return instance;
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
    try {
        p = encore::malloc(bytes, d.engine(), engine, alignment);
    } catch (const encore::error&) {
        return nullptr; // out of memory, or a size no allocation can have
    }
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
    allocation a = table().remove(pointer, c);
    detail::translate_errors([&] { encore::free(pointer, a.owner.engine()); });
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
    std::lock_guard lock(t.mutex());
    const auto p = allocation_table::address(pointer);
    auto found = t.find_locked(p);
    if (!found) {
        if (t.was_freed(p))
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

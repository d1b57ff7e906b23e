// Unified shared memory (SYCL 2020 section 4.8): malloc_device/host/shared, their aligned and typed variants,
// free, get_pointer_type, get_pointer_device and usm_allocator.
//
// Allocations belong to a context; the queue overloads use the queue's context (a queue made without one uses
// its platform's default context, so queues of one device share allocations). Like the specification, an
// allocation that cannot be made returns nullptr (so does a request for zero bytes). Encore keeps a table of
// live allocations, so misuse it can see throws sycl::exception(errc::invalid) instead of corrupting memory:
// freeing a pointer twice or one it never allocated, freeing through another context, and commands on memory
// already freed or reaching past the end of an allocation.
//
//     float* x = sycl::malloc_shared<float>(n, q);
//     q.fill(x, 1.0f, n).wait();
//     sycl::get_pointer_type(x, q.get_context()) == sycl::usm::alloc::shared
//     sycl::free(x, q);
#pragma once

#include <cstddef>
#include <limits>
#include <new>

#include "device.hpp"
#include "property_list.hpp"

namespace sycl {
inline namespace _V1 {

class queue;

namespace usm {
enum class alloc { host, device, shared, unknown };
}

void* malloc_device(std::size_t bytes, const device& d, const context& c, const property_list& = {});
void* malloc_device(std::size_t bytes, const queue& q, const property_list& = {});
void* aligned_alloc_device(std::size_t alignment, std::size_t bytes, const device& d, const context& c,
                           const property_list& = {});
void* aligned_alloc_device(std::size_t alignment, std::size_t bytes, const queue& q, const property_list& = {});

void* malloc_host(std::size_t bytes, const context& c, const property_list& = {});
void* malloc_host(std::size_t bytes, const queue& q, const property_list& = {});
void* aligned_alloc_host(std::size_t alignment, std::size_t bytes, const context& c, const property_list& = {});
void* aligned_alloc_host(std::size_t alignment, std::size_t bytes, const queue& q, const property_list& = {});

void* malloc_shared(std::size_t bytes, const device& d, const context& c, const property_list& = {});
void* malloc_shared(std::size_t bytes, const queue& q, const property_list& = {});
void* aligned_alloc_shared(std::size_t alignment, std::size_t bytes, const device& d, const context& c,
                           const property_list& = {});
void* aligned_alloc_shared(std::size_t alignment, std::size_t bytes, const queue& q, const property_list& = {});

void* malloc(std::size_t bytes, const device& d, const context& c, usm::alloc kind, const property_list& = {});
void* malloc(std::size_t bytes, const queue& q, usm::alloc kind, const property_list& = {});
void* aligned_alloc(std::size_t alignment, std::size_t bytes, const device& d, const context& c, usm::alloc kind,
                    const property_list& = {});
void* aligned_alloc(std::size_t alignment, std::size_t bytes, const queue& q, usm::alloc kind,
                    const property_list& = {});

// nullptr is ignored. Throws errc::invalid for a pointer this context did not allocate or already freed.
void free(void* pointer, const context& c);
void free(void* pointer, const queue& q);

// usm::alloc::unknown for memory that is not a live USM allocation of `c` (interior pointers count).
usm::alloc get_pointer_type(const void* pointer, const context& c);
// Throws errc::invalid for memory that is not a live USM allocation of `c`.
device get_pointer_device(const void* pointer, const context& c);

namespace detail {
// count * sizeof(T), or a value no allocation can satisfy when that overflows.
template <typename T> std::size_t bytes_of(std::size_t count) {
    return count > std::numeric_limits<std::size_t>::max() / sizeof(T) ? std::numeric_limits<std::size_t>::max()
                                                                        : count * sizeof(T);
}
} // namespace detail

// clang-format off
template <typename T> T* malloc_device(std::size_t count, const device& d, const context& c, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_device(alignof(T), detail::bytes_of<T>(count), d, c, p)); }
template <typename T> T* malloc_device(std::size_t count, const queue& q, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_device(alignof(T), detail::bytes_of<T>(count), q, p)); }
template <typename T> T* aligned_alloc_device(std::size_t alignment, std::size_t count, const device& d, const context& c, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_device(alignment, detail::bytes_of<T>(count), d, c, p)); }
template <typename T> T* aligned_alloc_device(std::size_t alignment, std::size_t count, const queue& q, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_device(alignment, detail::bytes_of<T>(count), q, p)); }
template <typename T> T* malloc_host(std::size_t count, const context& c, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_host(alignof(T), detail::bytes_of<T>(count), c, p)); }
template <typename T> T* malloc_host(std::size_t count, const queue& q, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_host(alignof(T), detail::bytes_of<T>(count), q, p)); }
template <typename T> T* aligned_alloc_host(std::size_t alignment, std::size_t count, const context& c, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_host(alignment, detail::bytes_of<T>(count), c, p)); }
template <typename T> T* aligned_alloc_host(std::size_t alignment, std::size_t count, const queue& q, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_host(alignment, detail::bytes_of<T>(count), q, p)); }
template <typename T> T* malloc_shared(std::size_t count, const device& d, const context& c, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_shared(alignof(T), detail::bytes_of<T>(count), d, c, p)); }
template <typename T> T* malloc_shared(std::size_t count, const queue& q, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_shared(alignof(T), detail::bytes_of<T>(count), q, p)); }
template <typename T> T* aligned_alloc_shared(std::size_t alignment, std::size_t count, const device& d, const context& c, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_shared(alignment, detail::bytes_of<T>(count), d, c, p)); }
template <typename T> T* aligned_alloc_shared(std::size_t alignment, std::size_t count, const queue& q, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc_shared(alignment, detail::bytes_of<T>(count), q, p)); }
template <typename T> T* malloc(std::size_t count, const device& d, const context& c, usm::alloc kind, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc(alignof(T), detail::bytes_of<T>(count), d, c, kind, p)); }
template <typename T> T* malloc(std::size_t count, const queue& q, usm::alloc kind, const property_list& p = {}) {
    return static_cast<T*>(aligned_alloc(alignof(T), detail::bytes_of<T>(count), q, kind, p)); }
// clang-format on

// A standard allocator over USM host or shared memory (device memory cannot back host containers).
template <typename T, usm::alloc Kind, std::size_t Alignment = 0> class usm_allocator {
    static_assert(Kind != usm::alloc::device, "usm_allocator cannot allocate device memory: the host cannot use it");
    static_assert(Kind != usm::alloc::unknown, "usm_allocator needs usm::alloc::host or usm::alloc::shared");

public:
    using value_type = T;
    using propagate_on_container_copy_assignment = std::true_type;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    template <typename U> struct rebind {
        using other = usm_allocator<U, Kind, Alignment>;
    };

    usm_allocator() = delete;
    usm_allocator(const context& c, const device& d, const property_list& = {}) : context_(c), device_(d) {}
    usm_allocator(const queue& q, const property_list& = {});
    template <typename U>
    usm_allocator(const usm_allocator<U, Kind, Alignment>& other) noexcept
        : context_(other.context_), device_(other.device_) {}

    T* allocate(std::size_t count) {
        constexpr std::size_t alignment = Alignment > alignof(T) ? Alignment : alignof(T);
        void* p = sycl::aligned_alloc(alignment, detail::bytes_of<T>(count), device_, context_, Kind);
        if (!p && count != 0) throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t) { sycl::free(p, context_); }

    template <typename U, usm::alloc K2, std::size_t A2>
    friend bool operator==(const usm_allocator& a, const usm_allocator<U, K2, A2>& b) noexcept {
        return a.same_memory_as(b);
    }

private:
    // A member, so that it may read another specialization's members (friend classes) where the friend
    // operator== may not.
    template <typename U, usm::alloc K2, std::size_t A2>
    bool same_memory_as(const usm_allocator<U, K2, A2>& other) const noexcept {
        return Kind == K2 && context_ == other.context_ && device_ == other.device_;
    }
    template <typename, usm::alloc, std::size_t> friend class usm_allocator;
    context context_;
    device device_;
};

namespace detail {
// Throws errc::invalid when [pointer, pointer + bytes) touches freed USM memory, reaches past the end of a
// live allocation, or lies in an allocation of a context other than `c`. Memory Encore did not allocate (plain
// host memory) passes. `call` and `what` name the call and the operand in the message.
void check_usm_range(const void* pointer, std::size_t bytes, const context& c, const char* call,
                     const char* what);
} // namespace detail

} // namespace _V1
} // namespace sycl

// What async_malloc made (sycl_ext_oneapi_async_memory_alloc) and the memory pools behind it. Not for you:
// use sycl/ext/oneapi/experimental/async_alloc/async_alloc.hpp.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

#include "sycl/context.hpp"
#include "sycl/device.hpp"
#include "sycl/ext/oneapi/experimental/async_alloc/memory_pool.hpp"
#include "sycl/handler.hpp"
#include "sycl/usm.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

struct memory_pool_impl : std::enable_shared_from_this<memory_pool_impl> {
    memory_pool_impl(context c, device d, usm::alloc k, ext::oneapi::experimental::memory_pool::settings s)
        : ctx(std::move(c)), dev(std::move(d)), kind(k), settings(s) {}
    ~memory_pool_impl(); // gives every kept block back to the device

    // A block of `bytes`: a kept one of that size, else new memory. Throws errc::memory_allocation past
    // maximum_size or when the device has no room.
    void* take(std::size_t bytes);
    // A block handed out by take() comes back: kept while the kept bytes stay within the threshold.
    void give_back(void* pointer, std::size_t bytes) noexcept;

    const context ctx;
    const device dev;
    const usm::alloc kind;
    mutable std::mutex mutex;
    ext::oneapi::experimental::memory_pool::settings settings; // threshold grows (increase_threshold_to)
    std::size_t used = 0;
    std::size_t kept = 0;
    std::multimap<std::size_t, void*> kept_blocks; // by size
};

// One allocation of async_malloc. Owned: its destruction frees the memory (to its pool, or to the device).
struct async_block {
    async_block(void* p, std::size_t n, usm::alloc k, context c, std::shared_ptr<memory_pool_impl> from,
                bool zero)
        : pointer(p), bytes(n), kind(k), ctx(std::move(c)), pool(std::move(from)), zero_init(zero) {}
    ~async_block();
    async_block(const async_block&) = delete;
    async_block& operator=(const async_block&) = delete;

    void* const pointer;
    const std::size_t bytes;
    const usm::alloc kind;
    const context ctx;
    const std::shared_ptr<memory_pool_impl> pool; // null: plain USM of the context
    const bool zero_init;
};

// queue_impl::finish for a command group that allocates or frees, submitted eagerly: the allocation is
// remembered for async_free (and its command zeroes it when the pool says so); the free becomes a host task
// that gives the memory back after the command group's dependencies. Throws errc::invalid for a pointer
// async_malloc did not make (or that was freed already).
void prepare_eager_async(handler::collected& c);

} // namespace detail
} // namespace _V1
} // namespace sycl

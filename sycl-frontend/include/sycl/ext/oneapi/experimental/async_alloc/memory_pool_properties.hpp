// The properties of a sycl_ext_oneapi_async_memory_alloc memory pool
// (experimental/async_alloc/memory_pool.hpp).
#pragma once

#include <cstddef>

#include "sycl/ext/oneapi/properties/properties.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

// Freed memory the pool keeps for reuse, in bytes, before it gives memory back to the device (default 0).
struct initial_threshold {
    explicit initial_threshold(std::size_t bytes) : value(bytes) {}
    std::size_t value;
};
// The most the pool may hold (in use and kept), in bytes; an allocation past it throws
// errc::memory_allocation.
struct maximum_size {
    explicit maximum_size(std::size_t bytes) : value(bytes) {}
    std::size_t value;
};
// Memory from the pool reads as zero when allocated (also each time a graph's allocation node runs).
struct zero_init {};
// Kernels only read the memory: accepted, no effect on Encore's backends.
struct read_only {};

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

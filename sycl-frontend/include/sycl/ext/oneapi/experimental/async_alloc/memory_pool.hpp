// sycl_ext_oneapi_async_memory_alloc: a memory pool, where async_malloc_from_pool takes memory and async_free
// gives it back for reuse (async_alloc.hpp). A pool is a shared handle: copies refer to the same pool.
//
// Encore's pool keeps freed blocks, up to the threshold in bytes, and hands a kept block of the same size out
// again; beyond the threshold, freed memory goes back to the device. maximum_size bounds what it holds.
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     syclex::memory_pool pool(q, sycl::usm::alloc::device, syclex::properties{syclex::initial_threshold(1 <<
//     20)}); int* p = static_cast<int*>(syclex::async_malloc_from_pool(q, 4096, pool));
//     ... q.parallel_for(...);  syclex::async_free(q, p);
#pragma once

#include <cstddef>
#include <memory>

#include "sycl/context.hpp"
#include "sycl/device.hpp"
#include "sycl/ext/oneapi/experimental/async_alloc/memory_pool_properties.hpp"
#include "sycl/queue.hpp"
#include "sycl/usm.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {
struct memory_pool_impl;
}
namespace ext::oneapi::experimental {

class memory_pool {
public:
    // Throws errc::invalid when the device is not in the context, or for usm::alloc::unknown.
    template <typename Properties = empty_properties_t>
    memory_pool(const context& c, const device& d, usm::alloc kind, Properties props = {})
        : memory_pool(c, d, kind, settings_of(props)) {}
    template <typename Properties = empty_properties_t>
    memory_pool(const queue& q, usm::alloc kind, Properties props = {})
        : memory_pool(q.get_context(), q.get_device(), kind, settings_of(props)) {}

    context get_context() const;
    device get_device() const;
    usm::alloc get_alloc_kind() const;
    std::size_t get_threshold() const;
    std::size_t get_reserved_size_current() const; // in use and kept
    std::size_t get_used_size_current() const;     // handed out and not freed
    // Raises the threshold (a smaller value leaves it as it is).
    void increase_threshold_to(std::size_t bytes);

    friend bool operator==(const memory_pool& a, const memory_pool& b) noexcept { return a.impl_ == b.impl_; }

    // Encore.
    struct settings {
        std::size_t threshold = 0;
        std::size_t maximum = 0; // 0: no bound
        bool zero_init = false;
        bool read_only = false;
    };
    const std::shared_ptr<detail::memory_pool_impl>& impl() const noexcept { return impl_; }

private:
    memory_pool(const context& c, const device& d, usm::alloc kind, settings s);
    template <typename Properties> static settings settings_of(const Properties& props) {
        static_assert(is_property_list_v<Properties>,
                      "memory_pool: the last argument must be a properties{...} list");
        settings s;
        if constexpr (Properties::template has_property<initial_threshold>())
            s.threshold = props.template get_property<initial_threshold>().value;
        if constexpr (Properties::template has_property<maximum_size>())
            s.maximum = props.template get_property<maximum_size>().value;
        s.zero_init = Properties::template has_property<zero_init>();
        s.read_only = Properties::template has_property<read_only>();
        return s;
    }
    std::shared_ptr<detail::memory_pool_impl> impl_;
};

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

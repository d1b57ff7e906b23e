// Buffer properties (DPC++'s <sycl/properties/buffer_properties.hpp>): SYCL 2020's use_host_ptr
// (sycl/property_list.hpp), use_mutex and context_bound, and DPC++'s common extensions, accepted as documented
// in docs/sycl-frontend.md.
//
//     std::mutex m;
//     sycl::buffer<int> b{data, n, sycl::property::buffer::use_mutex{m}};
#pragma once

#include <cstdint>
#include <mutex>

#include "sycl/device.hpp"
#include "sycl/property_list.hpp"

namespace sycl {
inline namespace _V1 {

namespace property::buffer {
// The buffer locks this mutex whenever it writes the user's host memory (at write-back), so the program may
// lock it to read that memory safely while the buffer lives.
class use_mutex {
public:
    explicit use_mutex(std::mutex& m) : mutex_(&m) {}
    std::mutex* get_mutex_ptr() const noexcept { return mutex_; }

private:
    std::mutex* mutex_;
};
// The buffer is used in this context only. Encore's buffers serve every context; the property is kept and
// get_context() answers it.
class context_bound {
public:
    explicit context_bound(sycl::context c) : context_(std::move(c)) {}
    sycl::context get_context() const { return context_; }

private:
    sycl::context context_;
};
// No-op: an FPGA memory channel.
class mem_channel {
public:
    explicit mem_channel(std::uint32_t channel) : channel_(channel) {}
    std::uint32_t get_channel() const noexcept { return channel_; }

private:
    std::uint32_t channel_;
};
} // namespace property::buffer

namespace ext::oneapi::property::buffer {
// No-op: Encore's buffer storage is already USM shared or host memory the devices can reach.
struct use_pinned_host_memory {};
} // namespace ext::oneapi::property::buffer

template <> struct is_property<property::buffer::use_mutex> : std::true_type {};
template <> struct is_property<property::buffer::context_bound> : std::true_type {};
template <> struct is_property<property::buffer::mem_channel> : std::true_type {};
template <> struct is_property<ext::oneapi::property::buffer::use_pinned_host_memory> : std::true_type {};

} // namespace _V1
} // namespace sycl

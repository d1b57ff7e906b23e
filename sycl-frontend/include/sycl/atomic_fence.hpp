// sycl::atomic_fence (SYCL 2020 section 4.15.1): a memory fence of an order and a scope, in device code and on the
// host. On a CUDA device: __threadfence_block for the work-group and narrower scopes, __threadfence for the device,
// __threadfence_system for the system; on the host a std::atomic_thread_fence (a native work-group's items are
// fibers of one thread, so any fence of the thread orders them). memory_order::relaxed fences nothing.
//
//     data[i] = value;
//     sycl::atomic_fence(sycl::memory_order::release, sycl::memory_scope::device);
//     sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device>(flag[0]).store(1);
#pragma once

#include <atomic>

#include "sycl/atomic_ref.hpp"
#include "sycl/detail/host_device.hpp"
#include "sycl/item.hpp"

namespace sycl {
inline namespace _V1 {

ENCORE_HOST_DEVICE inline void atomic_fence(memory_order order, memory_scope scope) {
    if (order == memory_order::relaxed) return;
#if defined(__CUDA_ARCH__)
    switch (scope) {
    case memory_scope::work_item:
    case memory_scope::sub_group:
    case memory_scope::work_group: __threadfence_block(); break;
    case memory_scope::device: __threadfence(); break;
    case memory_scope::system: __threadfence_system(); break;
    }
#elif defined(ENCORE_DEVICE_SPIR)
    static_cast<void>(scope); // OpenCL 1.2's fence orders the work-item's accesses for every observer
    detail::spir::mem_fence(detail::spir::global_fence | detail::spir::local_fence);
#else
    static_cast<void>(scope);
    std::atomic_thread_fence(detail::to_std(order));
#endif
}

} // namespace _V1
} // namespace sycl

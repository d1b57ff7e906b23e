// sycl_ext_oneapi_work_group_scratch_memory: work-group local memory whose size a launch gives at run time
// (the work_group_scratch_size launch property, sycl/ext/oneapi/kernel_properties/properties.hpp), reached in the
// kernel by get_work_group_scratch_memory().
//
// Encore makes the scratch memory the launch's last local allocation (after its local accessors and work-group
// memory), so it exists wherever local accessors do: on the native backend, and in kernels encore++ outlines for
// CUDA (the outliner gives a kernel that calls get_work_group_scratch_memory an entry that takes its local
// layout). The launch's total local memory is checked against the device's local_mem_size (errc::memory_allocation).
// A launch without the property has no scratch memory: the extension leaves the call undefined there; Encore
// answers the launch's last local allocation, or null when it has none.
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     syclex::launch_config cfg{sycl::nd_range<1>{{n}, {64}},
//                               syclex::properties{syclex::work_group_scratch_size{64 * sizeof(int)}}};
//     syclex::nd_launch(q, cfg, [=](sycl::nd_item<1> it) {
//         int* tile = static_cast<int*>(syclex::get_work_group_scratch_memory());
//         tile[it.get_local_id(0)] = in[it.get_global_id(0)];
//     });
#pragma once

#define SYCL_EXT_ONEAPI_WORK_GROUP_SCRATCH_MEMORY 1

#include "sycl/detail/host_device.hpp"
#include "sycl/ext/oneapi/kernel_properties/properties.hpp"
#include "sycl/item.hpp"

#if defined(__CUDACC__)
#include "encore/backends/cuda/device_work_item.hpp"
#endif

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

// In the kernel: this work-group's scratch memory (every call returns the same pointer).
ENCORE_HOST_DEVICE inline void* get_work_group_scratch_memory() noexcept {
#if defined(__CUDA_ARCH__)
    return ::encore::cuda::detail::last_local_memory();
#else
    const auto& local = sycl::detail::current_local_memory;
    return local.empty() ? nullptr : local.back();
#endif
}

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

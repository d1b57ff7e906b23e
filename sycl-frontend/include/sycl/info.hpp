// Information descriptors and aspects (SYCL 2020 sections 4.6.4.2, 4.6.4.3, appendix A): the queries programs
// commonly ask. Each descriptor's return_type is what get_info<descriptor>() returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace sycl {
inline namespace _V1 {

enum class backend { opencl, ext_oneapi_level_zero, ext_oneapi_cuda, ext_oneapi_hip, ext_oneapi_native_cpu };

enum class aspect {
    cpu,
    gpu,
    accelerator,
    custom,
    emulated,
    host_debuggable,
    fp16,
    fp64,
    atomic64,
    image,
    online_compiler,
    online_linker,
    queue_profiling,
    usm_device_allocations,
    usm_host_allocations,
    usm_atomic_host_allocations,
    usm_shared_allocations,
    usm_atomic_shared_allocations,
    usm_system_allocations,
    ext_oneapi_graph,
    ext_oneapi_limited_graph,
    ext_oneapi_async_memory_alloc,
};

namespace info {

enum class device_type : std::uint32_t { cpu, gpu, accelerator, custom, automatic, host, all };

namespace device {
// clang-format off
struct device_type { using return_type = info::device_type; };
struct name { using return_type = std::string; };
struct vendor { using return_type = std::string; };
struct driver_version { using return_type = std::string; };
struct version { using return_type = std::string; };
struct max_compute_units { using return_type = std::uint32_t; };
struct max_work_group_size { using return_type = std::size_t; };
struct global_mem_size { using return_type = std::uint64_t; };
struct local_mem_size { using return_type = std::uint64_t; };
struct mem_base_addr_align { using return_type = std::uint32_t; };
struct queue_profiling { using return_type = bool; };
// Deprecated in SYCL 2020 (aspects replace them), still widely used: each answers the aspect of the same name.
struct usm_device_allocations { using return_type = bool; };
struct usm_host_allocations { using return_type = bool; };
struct usm_shared_allocations { using return_type = bool; };
struct usm_system_allocations { using return_type = bool; };
// clang-format on
} // namespace device

namespace platform {
// clang-format off
struct name { using return_type = std::string; };
struct vendor { using return_type = std::string; };
struct version { using return_type = std::string; };
// clang-format on
} // namespace platform

} // namespace info
} // namespace _V1
} // namespace sycl

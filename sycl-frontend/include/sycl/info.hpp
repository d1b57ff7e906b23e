// Information descriptors and aspects (SYCL 2020 sections 4.6.4.2, 4.6.4.3, appendix A): the queries programs
// commonly ask. Each descriptor's return_type is what get_info<descriptor>() returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "range.hpp"

namespace sycl {
inline namespace _V1 {

class device;
class platform;
enum class memory_order; // atomic_ref.hpp
enum class memory_scope; // item.hpp

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
    ext_oneapi_per_event_profiling, // sycl_ext_oneapi_reusable_events: no device has it
};

namespace info {

enum class device_type : std::uint32_t { cpu, gpu, accelerator, custom, automatic, host, all };
enum class partition_property : int {
    no_partition,
    partition_equally,
    partition_by_counts,
    partition_by_affinity_domain
};
enum class partition_affinity_domain : int {
    not_applicable,
    numa,
    L4_cache,
    L3_cache,
    L2_cache,
    L1_cache,
    next_partitionable
};
enum class local_mem_type : int { none, local, global };
enum class fp_config : int {
    denorm,
    inf_nan,
    round_to_nearest,
    round_to_zero,
    round_to_inf,
    fma,
    correctly_rounded_divide_sqrt,
    soft_float
};
enum class global_mem_cache_type : int { none, read_only, read_write };
enum class execution_capability : unsigned int { exec_kernel, exec_native_kernel };

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
// The rest of SYCL 2020's table A.1 (src/device_info.cpp says where each answer comes from). Images and built-in
// kernels are not built: the image queries answer 0 (aspect::image does not hold), and built_in_kernel_ids is
// absent.
struct max_num_sub_groups { using return_type = std::uint32_t; };
struct sub_group_sizes { using return_type = std::vector<std::size_t>; };
struct sub_group_independent_forward_progress { using return_type = bool; };
struct vendor_id { using return_type = std::uint32_t; };
struct max_work_item_dimensions { using return_type = std::uint32_t; };
template <int Dimensions = 3> struct max_work_item_sizes { using return_type = range<Dimensions>; };
struct preferred_vector_width_char { using return_type = std::uint32_t; };
struct preferred_vector_width_short { using return_type = std::uint32_t; };
struct preferred_vector_width_int { using return_type = std::uint32_t; };
struct preferred_vector_width_long { using return_type = std::uint32_t; };
struct preferred_vector_width_float { using return_type = std::uint32_t; };
struct preferred_vector_width_double { using return_type = std::uint32_t; };
struct preferred_vector_width_half { using return_type = std::uint32_t; };
struct native_vector_width_char { using return_type = std::uint32_t; };
struct native_vector_width_short { using return_type = std::uint32_t; };
struct native_vector_width_int { using return_type = std::uint32_t; };
struct native_vector_width_long { using return_type = std::uint32_t; };
struct native_vector_width_float { using return_type = std::uint32_t; };
struct native_vector_width_double { using return_type = std::uint32_t; };
struct native_vector_width_half { using return_type = std::uint32_t; };
struct max_clock_frequency { using return_type = std::uint32_t; };
struct address_bits { using return_type = std::uint32_t; };
struct max_mem_alloc_size { using return_type = std::uint64_t; };
struct image_support { using return_type = bool; }; // deprecated
struct max_read_image_args { using return_type = std::uint32_t; };
struct max_write_image_args { using return_type = std::uint32_t; };
struct image2d_max_height { using return_type = std::size_t; };
struct image2d_max_width { using return_type = std::size_t; };
struct image3d_max_height { using return_type = std::size_t; };
struct image3d_max_width { using return_type = std::size_t; };
struct image3d_max_depth { using return_type = std::size_t; };
struct image_max_buffer_size { using return_type = std::size_t; };
struct image_max_array_size { using return_type = std::size_t; };
struct max_samplers { using return_type = std::uint32_t; };
struct max_parameter_size { using return_type = std::size_t; };
struct half_fp_config { using return_type = std::vector<info::fp_config>; };
struct single_fp_config { using return_type = std::vector<info::fp_config>; };
struct double_fp_config { using return_type = std::vector<info::fp_config>; };
struct global_mem_cache_type { using return_type = info::global_mem_cache_type; };
struct global_mem_cache_line_size { using return_type = std::uint32_t; };
struct global_mem_cache_size { using return_type = std::uint64_t; };
struct max_constant_buffer_size { using return_type = std::uint64_t; }; // deprecated
struct max_constant_args { using return_type = std::uint32_t; };        // deprecated
struct local_mem_type { using return_type = info::local_mem_type; };
struct error_correction_support { using return_type = bool; };
struct host_unified_memory { using return_type = bool; }; // deprecated
struct atomic_memory_order_capabilities { using return_type = std::vector<memory_order>; };
struct atomic_fence_order_capabilities { using return_type = std::vector<memory_order>; };
struct atomic_memory_scope_capabilities { using return_type = std::vector<memory_scope>; };
struct atomic_fence_scope_capabilities { using return_type = std::vector<memory_scope>; };
struct profiling_timer_resolution { using return_type = std::size_t; };
struct is_endian_little { using return_type = bool; };      // deprecated
struct is_available { using return_type = bool; };
struct is_compiler_available { using return_type = bool; }; // deprecated
struct is_linker_available { using return_type = bool; };   // deprecated
struct execution_capabilities { using return_type = std::vector<info::execution_capability>; }; // deprecated
struct built_in_kernels { using return_type = std::vector<std::string>; };                       // deprecated
struct platform { using return_type = sycl::platform; };
struct profile { using return_type = std::string; }; // deprecated
struct backend_version { using return_type = std::string; };
struct aspects { using return_type = std::vector<aspect>; };
struct extensions { using return_type = std::vector<std::string>; }; // deprecated
struct printf_buffer_size { using return_type = std::size_t; };      // deprecated
struct preferred_interop_user_sync { using return_type = bool; };    // deprecated
struct parent_device { using return_type = sycl::device; };
struct partition_max_sub_devices { using return_type = std::uint32_t; };
struct partition_properties { using return_type = std::vector<info::partition_property>; };
struct partition_affinity_domains { using return_type = std::vector<info::partition_affinity_domain>; };
struct partition_type_property { using return_type = info::partition_property; };
struct partition_type_affinity_domain { using return_type = info::partition_affinity_domain; };
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

// Aspect traits (SYCL 2020 4.6.4.3), answered for every device an Encore program can meet: Encore compiles one
// host binary for all backends, so an aspect that some backend has may be met (any_device_has), and only the
// aspects every backend has are certain (all_devices_have).
template <aspect A>
struct any_device_has
    : std::bool_constant<A != aspect::custom && A != aspect::emulated && A != aspect::fp16 && A != aspect::image &&
                         A != aspect::online_compiler && A != aspect::online_linker> {};
template <aspect A>
struct all_devices_have
    : std::bool_constant<A == aspect::usm_device_allocations || A == aspect::usm_host_allocations ||
                         A == aspect::usm_shared_allocations || A == aspect::ext_oneapi_graph ||
                         A == aspect::ext_oneapi_limited_graph || A == aspect::ext_oneapi_async_memory_alloc> {};
template <aspect A> inline constexpr bool any_device_has_v = any_device_has<A>::value;
template <aspect A> inline constexpr bool all_devices_have_v = all_devices_have<A>::value;

} // namespace _V1
} // namespace sycl

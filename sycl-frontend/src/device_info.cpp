// The device information descriptors of SYCL 2020's table A.1 beyond the common ones in device.cpp, and the
// sub-device interface.
//
// Where each answer comes from:
// - what the engine records about the device (encore::device_properties): memory sizes, work-group size;
// - what Encore itself implements, the same on every backend: 3-D ranges, atomic_ref's orders and scopes, no
//   images, no partitioning, no extensions by string;
// - on the native backend the device is the host CPU, so the host answers the hardware questions (clock,
// cache,
//   endianness, floating point); on other backends, where the engine records no such value, the answer is the
//   smallest the specification allows, or 0 where it sets none ("not reported").
#include <algorithm>
#include <bit>
#include <chrono>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

#include "sycl/atomic_ref.hpp"
#include "sycl/device.hpp"

namespace sycl {
inline namespace _V1 {

namespace {

bool on_native(const device& d) {
    return d.get_backend() == backend::ext_oneapi_native_cpu;
}

// The PCI vendor id of the vendor the backend names (0: unknown).
std::uint32_t vendor_id_of(const std::string& vendor) {
    auto names = [&](const char* s) { return vendor.find(s) != std::string::npos; };
    if (names("NVIDIA")) return 0x10de;
    if (names("GenuineIntel") || names("Intel")) return 0x8086;
    if (names("AuthenticAMD")) return 0x1022; // AMD's CPUs
    if (names("AMD") || names("Advanced Micro Devices")) return 0x1002;
    return 0;
}

// The host CPU's highest clock in MHz: cpufreq's limit when the kernel exposes it, else /proc/cpuinfo's
// current "cpu MHz", else 0.
std::uint32_t host_clock_mhz() {
    std::ifstream limit("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    std::uint64_t khz = 0;
    if (limit >> khz && khz > 0) return static_cast<std::uint32_t>(khz / 1000);
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
        if (line.rfind("cpu MHz", 0) == 0)
            if (auto colon = line.find(':'); colon != std::string::npos)
                return static_cast<std::uint32_t>(std::stod(line.substr(colon + 1)));
    return 0;
}

long host_sysconf(int name) {
    long v = ::sysconf(name);
    return v > 0 ? v : 0;
}

std::vector<info::fp_config> ieee_config(bool divide_sqrt) {
    std::vector<info::fp_config> c{info::fp_config::denorm,           info::fp_config::inf_nan,
                                   info::fp_config::round_to_nearest, info::fp_config::round_to_zero,
                                   info::fp_config::round_to_inf,     info::fp_config::fma};
    if (divide_sqrt) c.push_back(info::fp_config::correctly_rounded_divide_sqrt);
    return c;
}

} // namespace

bool device::has_extension(const std::string&) const {
    return false;
}

std::vector<device> device::refuse_partition(const char* property, bool empty) const {
    if (empty)
        throw exception(errc::invalid, std::string("device::create_sub_devices<") + property +
                                           ">: the request names no sub-device (a count of 0 or no counts)");
    throw exception(errc::feature_not_supported,
                    std::string("device::create_sub_devices<") + property + ">: device '" +
                        engine_.properties().name +
                        "' cannot be partitioned (info::device::partition_properties is empty)");
}

#define ENCORE_DEVICE_INFO(descriptor, expression)                                                           \
    template <> info::device::descriptor::return_type device::get_info<info::device::descriptor>() const {   \
        const auto& p = engine_.properties();                                                                \
        (void)p;                                                                                             \
        return expression;                                                                                   \
    }

ENCORE_DEVICE_INFO(vendor_id, vendor_id_of(p.vendor))
// Every backend launches 1-, 2- and 3-D ranges; the engine records one limit, the items of a work-group in
// all dimensions together, so that is the limit of each dimension too (a backend with tighter per-dimension
// limits refuses such a launch when it is submitted).
ENCORE_DEVICE_INFO(max_work_item_dimensions, 3u)
template <> range<1> device::get_info<info::device::max_work_item_sizes<1>>() const {
    return range<1>(engine_.properties().max_work_group_size);
}
template <> range<2> device::get_info<info::device::max_work_item_sizes<2>>() const {
    const auto n = engine_.properties().max_work_group_size;
    return range<2>(n, n);
}
template <> range<3> device::get_info<info::device::max_work_item_sizes<3>>() const {
    const auto n = engine_.properties().max_work_group_size;
    return range<3>(n, n, n);
}
// Sub-groups (sycl/sub_group.hpp): 32 work-items wide wherever Encore runs C++ kernels (the native backend and
// CUDA, where they are warps); other devices run no C++ kernel and list no size. Native sub-groups wait for each
// other at collectives (fibers of one thread), so none makes independent progress; CUDA's warps promise none
// either.
static bool runs_encore_sub_groups(const encore::device_properties& p) {
    return p.host_kernels || p.architecture.rfind("sm_", 0) == 0;
}
ENCORE_DEVICE_INFO(sub_group_sizes, runs_encore_sub_groups(p) ? std::vector<std::size_t>{encore::sub_group_width}
                                                               : std::vector<std::size_t>{})
ENCORE_DEVICE_INFO(max_num_sub_groups,
                   runs_encore_sub_groups(p)
                       ? static_cast<std::uint32_t>((p.max_work_group_size + encore::sub_group_width - 1) /
                                                    encore::sub_group_width)
                       : 0u)
ENCORE_DEVICE_INFO(sub_group_independent_forward_progress, false)
// Encore promises no vector width (vec is not built): 1 for every type the device computes in, 0 for half
// without fp16 and double without fp64 (the specification's rule).
ENCORE_DEVICE_INFO(preferred_vector_width_char, 1u)
ENCORE_DEVICE_INFO(preferred_vector_width_short, 1u)
ENCORE_DEVICE_INFO(preferred_vector_width_int, 1u)
ENCORE_DEVICE_INFO(preferred_vector_width_long, 1u)
ENCORE_DEVICE_INFO(preferred_vector_width_float, 1u)
ENCORE_DEVICE_INFO(preferred_vector_width_double, has(aspect::fp64) ? 1u : 0u)
ENCORE_DEVICE_INFO(preferred_vector_width_half, has(aspect::fp16) ? 1u : 0u)
ENCORE_DEVICE_INFO(native_vector_width_char, 1u)
ENCORE_DEVICE_INFO(native_vector_width_short, 1u)
ENCORE_DEVICE_INFO(native_vector_width_int, 1u)
ENCORE_DEVICE_INFO(native_vector_width_long, 1u)
ENCORE_DEVICE_INFO(native_vector_width_float, 1u)
ENCORE_DEVICE_INFO(native_vector_width_double, has(aspect::fp64) ? 1u : 0u)
ENCORE_DEVICE_INFO(native_vector_width_half, has(aspect::fp16) ? 1u : 0u)
ENCORE_DEVICE_INFO(max_clock_frequency, on_native(*this) ? host_clock_mhz() : 0u)
ENCORE_DEVICE_INFO(address_bits,
                   static_cast<std::uint32_t>(sizeof(void*) * 8)) // USM pointers are host pointers
ENCORE_DEVICE_INFO(max_mem_alloc_size, static_cast<std::uint64_t>(p.global_memory_bytes))
// No images (aspect::image does not hold): the image limits are 0.
ENCORE_DEVICE_INFO(image_support, false)
ENCORE_DEVICE_INFO(max_read_image_args, 0u)
ENCORE_DEVICE_INFO(max_write_image_args, 0u)
ENCORE_DEVICE_INFO(image2d_max_height, std::size_t{0})
ENCORE_DEVICE_INFO(image2d_max_width, std::size_t{0})
ENCORE_DEVICE_INFO(image3d_max_height, std::size_t{0})
ENCORE_DEVICE_INFO(image3d_max_width, std::size_t{0})
ENCORE_DEVICE_INFO(image3d_max_depth, std::size_t{0})
ENCORE_DEVICE_INFO(image_max_buffer_size, std::size_t{0})
ENCORE_DEVICE_INFO(image_max_array_size, std::size_t{0})
ENCORE_DEVICE_INFO(max_samplers, 0u)
// Native kernels are C++ callables with no argument limit; 4096 bytes is what CUDA and HIP guarantee, 1024
// the specification's least (other backends).
ENCORE_DEVICE_INFO(max_parameter_size,
                   std::size_t{on_native(*this) || get_backend() == backend::ext_oneapi_cuda ||
                                       get_backend() == backend::ext_oneapi_hip
                                   ? 4096u
                                   : 1024u})
// IEEE 754 on the host (native); elsewhere the specification's least for float, and double only with fp64.
ENCORE_DEVICE_INFO(half_fp_config, has(aspect::fp16) ? ieee_config(false) : std::vector<info::fp_config>{})
ENCORE_DEVICE_INFO(single_fp_config,
                   (on_native(*this) ? ieee_config(true)
                                     : std::vector<info::fp_config>{info::fp_config::round_to_nearest,
                                                                    info::fp_config::inf_nan}))
ENCORE_DEVICE_INFO(double_fp_config,
                   has(aspect::fp64) ? ieee_config(on_native(*this)) : std::vector<info::fp_config>{})
ENCORE_DEVICE_INFO(global_mem_cache_type, on_native(*this) ? info::global_mem_cache_type::read_write
                                                           : info::global_mem_cache_type::none)
ENCORE_DEVICE_INFO(global_mem_cache_line_size,
                   on_native(*this) ? static_cast<std::uint32_t>(host_sysconf(_SC_LEVEL1_DCACHE_LINESIZE))
                                    : 0u)
ENCORE_DEVICE_INFO(global_mem_cache_size,
                   on_native(*this)
                       ? static_cast<std::uint64_t>(std::max(host_sysconf(_SC_LEVEL3_CACHE_SIZE),
                                                             host_sysconf(_SC_LEVEL2_CACHE_SIZE)))
                       : std::uint64_t{0})
// A constant_buffer accessor is an ordinary device accessor in Encore: all of memory, and (deprecated) the
// specification's least count of arguments.
ENCORE_DEVICE_INFO(max_constant_buffer_size, static_cast<std::uint64_t>(p.global_memory_bytes))
ENCORE_DEVICE_INFO(max_constant_args, 8u)
// Work-group local memory is a dedicated memory on GPUs, ordinary memory elsewhere.
ENCORE_DEVICE_INFO(local_mem_type, is_gpu() ? info::local_mem_type::local : info::local_mem_type::global)
ENCORE_DEVICE_INFO(error_correction_support, false) // not reported by any backend: the safe answer
ENCORE_DEVICE_INFO(host_unified_memory, on_native(*this))
// atomic_ref takes every order and scope on every backend (host atomics natively; the front end's kernels run
// there). Encore has no sycl::atomic_fence; the fence answers describe the same hardware.
ENCORE_DEVICE_INFO(atomic_memory_order_capabilities,
                   (std::vector<memory_order>{memory_order::relaxed, memory_order::acquire,
                                              memory_order::release, memory_order::acq_rel,
                                              memory_order::seq_cst}))
ENCORE_DEVICE_INFO(atomic_fence_order_capabilities,
                   get_info<info::device::atomic_memory_order_capabilities>())
ENCORE_DEVICE_INFO(atomic_memory_scope_capabilities,
                   (std::vector<memory_scope>{memory_scope::work_item, memory_scope::sub_group,
                                              memory_scope::work_group, memory_scope::device,
                                              memory_scope::system}))
ENCORE_DEVICE_INFO(atomic_fence_scope_capabilities,
                   get_info<info::device::atomic_memory_scope_capabilities>())
// Host timestamps are std::chrono::steady_clock nanoseconds (completion_event.hpp); other backends do not
// report their timer's resolution.
ENCORE_DEVICE_INFO(profiling_timer_resolution,
                   on_native(*this) ? static_cast<std::size_t>(std::max<std::intmax_t>(
                                          1, std::chrono::steady_clock::period::num * 1'000'000'000 /
                                                 std::chrono::steady_clock::period::den))
                                    : std::size_t{0})
ENCORE_DEVICE_INFO(is_endian_little,
                   std::endian::native == std::endian::little) // every backend shares the host's
ENCORE_DEVICE_INFO(is_available, true)                         // Encore lists only devices it can use
ENCORE_DEVICE_INFO(is_compiler_available, has(aspect::online_compiler))
ENCORE_DEVICE_INFO(is_linker_available, has(aspect::online_linker))
ENCORE_DEVICE_INFO(execution_capabilities,
                   std::vector<info::execution_capability>{info::execution_capability::exec_kernel})
ENCORE_DEVICE_INFO(built_in_kernels, std::vector<std::string>{})
ENCORE_DEVICE_INFO(platform, get_platform())
ENCORE_DEVICE_INFO(profile, std::string("FULL_PROFILE"))
ENCORE_DEVICE_INFO(backend_version, p.driver_version)
ENCORE_DEVICE_INFO(extensions, std::vector<std::string>{})
ENCORE_DEVICE_INFO(printf_buffer_size,
                   std::size_t{1} << 20) // printf writes directly on the host: no buffer to fill
ENCORE_DEVICE_INFO(preferred_interop_user_sync, false) // no interop objects to share
ENCORE_DEVICE_INFO(partition_max_sub_devices, 0u)
ENCORE_DEVICE_INFO(partition_properties, std::vector<info::partition_property>{})
ENCORE_DEVICE_INFO(partition_affinity_domains, std::vector<info::partition_affinity_domain>{})
ENCORE_DEVICE_INFO(partition_type_property, info::partition_property::no_partition)
ENCORE_DEVICE_INFO(partition_type_affinity_domain, info::partition_affinity_domain::not_applicable)
#undef ENCORE_DEVICE_INFO

template <> std::vector<aspect> device::get_info<info::device::aspects>() const {
    std::vector<aspect> out;
    for (int a = static_cast<int>(aspect::cpu); a <= static_cast<int>(aspect::ext_oneapi_per_event_profiling);
         ++a)
        if (has(static_cast<aspect>(a))) out.push_back(static_cast<aspect>(a));
    return out;
}

template <> device device::get_info<info::device::parent_device>() const {
    throw exception(errc::invalid, "device::get_info<info::device::parent_device>: device '" +
                                       engine_.properties().name + "' is not a sub-device");
}

} // namespace _V1
} // namespace sycl

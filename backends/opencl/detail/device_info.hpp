// What one OpenCL device offers Encore, read once from clGetDeviceInfo: which USM it has, which
// command-buffer extension version it reports, whether it takes IL. Not for you: encore::opencl::capabilities
// (opencl_program.hpp) is the public view, the plugin reads the same record.
//
// Versions come from CL_DEVICE_EXTENSIONS_WITH_VERSION (OpenCL 3.0): the command-buffer ABI is chosen from
// what the device reports at run time (0.9.0-0.9.4: provisional signatures; 0.9.5 and later: the final ones,
// with a properties parameter on every recording call), never from the header Encore was built with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api.hpp"

namespace encore::opencl::detail {

// How USM allocations are made, best first.
enum class usm_mode : std::uint8_t {
    intel,      // cl_intel_unified_shared_memory: device, host and shared allocations
    svm_fine,   // fine-grain buffer SVM: host and shared kinds are host-accessible SVM
    svm_coarse, // coarse-grain SVM only: device allocations only (the host cannot touch them unmapped)
    none,       // OpenCL 1.2 device: no USM
};
std::string_view to_string(usm_mode mode) noexcept;

struct device_capabilities {
    usm_mode usm = usm_mode::none;
    cl_device_svm_capabilities svm = 0;
    cl_version command_buffer = 0;   // cl_khr_command_buffer's reported version; 0: not offered
    cl_version mutable_dispatch = 0; // cl_khr_command_buffer_mutable_dispatch's; 0: not offered
    cl_mutable_dispatch_fields_khr mutable_fields = 0; // CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR
    cl_device_command_buffer_capabilities_khr command_buffer_capabilities = 0;
    std::string il_version;    // CL_DEVICE_IL_VERSION ("SPIR-V_1.2 ..."), empty: no IL
    bool spir = false;         // cl_khr_spir: takes SPIR 1.2 bitcode
    // CL_DEVICE_SUB_GROUP_SIZES_INTEL (cl_intel_required_subgroup_size); empty: the device does not say
    std::vector<std::uint32_t> sub_group_sizes;
    bool out_of_order = false; // out-of-order host queues
    bool profiling = false;    // CL_QUEUE_PROFILING_ENABLE
    bool host_unified_memory = false;
};

device_capabilities query_capabilities(cl_device_id d);
// Whether kernel nodes of this device's command buffers are updated in place: cl_khr_command_buffer with
// cl_khr_command_buffer_mutable_dispatch that updates arguments, pointers as SVM (not Intel USM, which the
// extension has no form for), and ENCORE_OPENCL_MUTABLE_DISPATCH not 0.
bool updates_kernels_in_place(const device_capabilities& c);
// "0.9.0"
std::string version_string(cl_version v);
// One line for traces: "USM through fine-grain SVM; cl_khr_command_buffer 0.9.0; no IL".
std::string summary(const device_capabilities& c);

} // namespace encore::opencl::detail

#include "device_info.hpp"

#include <cstdlib>
#include <cstring>
#include <vector>

namespace encore::opencl::detail {

std::string_view to_string(usm_mode mode) noexcept {
    switch (mode) {
    case usm_mode::intel:
        return "cl_intel_unified_shared_memory";
    case usm_mode::svm_fine:
        return "fine-grain SVM";
    case usm_mode::svm_coarse:
        return "coarse-grain SVM (device allocations only)";
    case usm_mode::none:
        return "none";
    }
    return "none";
}

std::string version_string(cl_version v) {
    return std::to_string(CL_VERSION_MAJOR(v)) + "." + std::to_string(CL_VERSION_MINOR(v)) + "." +
           std::to_string(CL_VERSION_PATCH(v));
}

device_capabilities query_capabilities(cl_device_id d) {
    const api& cl = api::get();
    device_capabilities c;
    std::size_t bytes = 0;
    std::vector<cl_name_version> extensions;
    if (cl.clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &bytes) == CL_SUCCESS && bytes) {
        extensions.resize(bytes / sizeof(cl_name_version));
        if (cl.clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, bytes, extensions.data(), nullptr) !=
            CL_SUCCESS)
            extensions.clear();
    }
    bool intel_usm = false, sub_group_sizes = false;
    for (const auto& e : extensions) {
        if (std::strcmp(e.name, "cl_intel_required_subgroup_size") == 0) sub_group_sizes = true;
        if (std::strcmp(e.name, "cl_khr_command_buffer") == 0) c.command_buffer = e.version;
        if (std::strcmp(e.name, "cl_khr_command_buffer_mutable_dispatch") == 0)
            c.mutable_dispatch = e.version;
        if (std::strcmp(e.name, "cl_intel_unified_shared_memory") == 0) intel_usm = true;
    }
    if (extensions.empty()) { // before OpenCL 3.0: names only, so no command-buffer version to trust
        const std::string names = device_string(d, CL_DEVICE_EXTENSIONS);
        intel_usm = names.find("cl_intel_unified_shared_memory") != std::string::npos;
        sub_group_sizes = names.find("cl_intel_required_subgroup_size") != std::string::npos;
    }
    if (c.command_buffer)
        c.command_buffer_capabilities = device_value<cl_device_command_buffer_capabilities_khr>(
            d, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
    if (c.command_buffer && c.mutable_dispatch)
        c.mutable_fields =
            device_value<cl_mutable_dispatch_fields_khr>(d, CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR);
    c.svm = device_value<cl_device_svm_capabilities>(d, CL_DEVICE_SVM_CAPABILITIES);
    if (intel_usm)
        c.usm = usm_mode::intel;
    else if (c.svm & (CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM))
        c.usm = usm_mode::svm_fine;
    else if (c.svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
        c.usm = usm_mode::svm_coarse;
    // ENCORE_OPENCL_USM=coarse-svm: USM as on a device with coarse-grain SVM only (NVIDIA's), for the tests.
    if (const char* mode = std::getenv("ENCORE_OPENCL_USM");
        mode && std::strcmp(mode, "coarse-svm") == 0 && (c.svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
        c.usm = usm_mode::svm_coarse;
    c.il_version = device_string(d, CL_DEVICE_IL_VERSION);
    c.spir = device_string(d, CL_DEVICE_EXTENSIONS).find("cl_khr_spir") != std::string::npos;
    if (sub_group_sizes &&
        cl.clGetDeviceInfo(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &bytes) == CL_SUCCESS && bytes) {
        std::vector<std::size_t> sizes(bytes / sizeof(std::size_t));
        if (cl.clGetDeviceInfo(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes, sizes.data(), nullptr) ==
            CL_SUCCESS)
            for (auto size : sizes)
                c.sub_group_sizes.push_back(static_cast<std::uint32_t>(size));
    }
    const auto queue = device_value<cl_command_queue_properties>(d, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    c.out_of_order = (queue & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    c.profiling = (queue & CL_QUEUE_PROFILING_ENABLE) != 0;
    c.host_unified_memory = device_value<cl_bool>(d, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE;
    return c;
}

bool updates_kernels_in_place(const device_capabilities& c) {
    const char* flag = std::getenv("ENCORE_OPENCL_MUTABLE_DISPATCH");
    if (flag && std::strcmp(flag, "0") == 0) return false;
    return c.command_buffer && c.mutable_dispatch && (c.mutable_fields & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR) &&
           c.usm != usm_mode::intel;
}

std::string summary(const device_capabilities& c) {
    std::string s = "USM through " + std::string(to_string(c.usm));
    s += c.command_buffer ? "; cl_khr_command_buffer " + version_string(c.command_buffer)
                          : "; no cl_khr_command_buffer";
    if (c.mutable_dispatch)
        s += "; cl_khr_command_buffer_mutable_dispatch " + version_string(c.mutable_dispatch);
    s += c.il_version.empty() ? "; no IL" : "; IL " + c.il_version;
    return s;
}

} // namespace encore::opencl::detail

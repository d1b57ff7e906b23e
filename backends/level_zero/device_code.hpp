// encore::level_zero::device_code — what an encore::kernel hands the Level Zero backend so that it can launch
// it.
//
// encore::kernel::device_code("level_zero") returns a pointer to one of these (or nullptr: the kernel has no
// Level Zero code, and submitting it to a Level Zero queue throws errc::kernel_not_supported naming it).
// Module kernels (level_zero_module.hpp) make one: the module's native binary for one device (what
// zeModuleGetNativeBinary returned, or the native binary the program gave), that device's name, and the
// kernel's name. The backend creates the ze_module from the binary once per device and keeps it. Kernels
// encore++ outlined for spir64 (sycl/detail/kernel_wrapper.hpp) make one without a binary: the program's SPIR-V,
// which the backend builds for each device that takes SPIR-V through the kernel/program cache, and a work_item
// entry whose arguments are the OpenCL backend's (backends/opencl/spir_entry_arguments.hpp). Plain data
// (no Level Zero header needed); it lives as long as the kernel that returns it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "encore/backends/opencl/device_code.hpp" // opencl::spir_entry

namespace encore::level_zero {

struct device_code {
    std::uint64_t module_id = 0;           // unique for the life of the process
    const unsigned char* binary = nullptr; // the native binary for `device_name`
    std::size_t binary_bytes = 0;
    const char* device_name = nullptr; // ze_device_properties_t::name of the device it was built for
    const char* entry = nullptr;       // the kernel's name in the module
    // An entry encore++ outlined (no binary, no device name; outlined.geometry_dimensions not 0): `module_id` is
    // its image's id (counted apart from module ids), and the module its SPIR-V.
    opencl::spir_entry outlined;
};

} // namespace encore::level_zero

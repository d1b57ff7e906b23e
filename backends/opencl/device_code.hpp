// encore::opencl::device_code — what an encore::kernel hands the OpenCL backend so that it can launch the
// kernel.
//
// encore::kernel::device_code("opencl") returns a pointer to one of these (or nullptr: the kernel has no
// OpenCL code, and submitting it to an OpenCL queue throws errc::kernel_not_supported naming it). Program
// kernels (opencl_program.hpp) make one: the program binary built for one device
// (clGetProgramInfo(CL_PROGRAM_BINARIES)), the device's name, and the kernel's name in the program. The
// backend creates the cl_program from the binary once per device and keeps it; the command's kernel_arguments
// are the kernel's parameters, in order. Plain data (no CL header needed); it lives as long as the kernel
// that returns it.
//
//     const auto* code = static_cast<const encore::opencl::device_code*>(k.device_code("opencl"));
#pragma once

#include <cstddef>
#include <cstdint>

namespace encore::opencl {

struct device_code {
    std::uint64_t program_id = 0;          // unique for the life of the process
    const unsigned char* binary = nullptr; // the program binary for `device_name`
    std::size_t binary_bytes = 0;
    const char* device_name = nullptr; // CL_DEVICE_NAME of the device it was built for
    const char* entry = nullptr;       // the kernel's name in the program
};

} // namespace encore::opencl

// encore::opencl::device_code — what an encore::kernel hands the OpenCL backend so that it can launch the
// kernel.
//
// encore::kernel::device_code("opencl") returns a pointer to one of these (or nullptr: the kernel has no
// OpenCL code, and submitting it to an OpenCL queue throws errc::kernel_not_supported naming it). Program
// kernels (opencl_program.hpp) make one: the program binary built for one device
// (clGetProgramInfo(CL_PROGRAM_BINARIES)), the device's name, and the kernel's name in the program. The
// backend creates the cl_program from the binary once per device and keeps it; the command's kernel_arguments
// are the kernel's parameters, in order. Kernels encore++ outlined for spir64 (sycl/detail/kernel_wrapper.hpp)
// make one without a binary: the program's portable forms (SPIR-V, SPIR 1.2 bitcode), which the backend builds
// for each device through the kernel/program cache, and a work_item entry that takes the kernel object's bytes and
// the launch's encore::gpu::geometry<D> by value, and its local memory where the kernel has local accessors
// (docs/compiler.md, "The SPIR-V target"). Plain data (no CL header
// needed); it lives as long as the kernel that returns it.
//
//     const auto* code = static_cast<const encore::opencl::device_code*>(k.device_code("opencl"));
#pragma once

#include <cstddef>
#include <cstdint>

namespace encore::opencl {

// An entry encore++ outlined for spir64, as the OpenCL and Level Zero backends launch it (their device_code
// carries one; spir_entry_arguments.hpp makes its arguments): the image's SPIR-V module, and an entry whose
// parameters are `functor_bytes` bytes at `functor` (the kernel object) and a gpu::geometry<geometry_dimensions> of
// the command's range. Where the kernel object holds local accessors (at the byte positions `local_accessors`) the
// entry takes a third parameter, the work-group's local memory: one block holding the command's local allocations,
// laid out as on a GPU (backends/gpu/local_memory.hpp), and the launch writes each accessor's offset in it into its
// copy of the object. The command's kernel_arguments are its local allocations only.
struct spir_entry {
    const unsigned char* spirv = nullptr;
    std::size_t spirv_bytes = 0;
    const void* functor = nullptr;
    std::size_t functor_bytes = 0;
    std::uint8_t geometry_dimensions = 0; // not 0: an outlined work_item entry
    const std::uint32_t* local_accessors = nullptr;
    std::size_t local_accessor_count = 0;
};

struct device_code {
    // Unique for the life of the process among programs, and among encore++'s images (an outlined entry's is its
    // image's id: the two are counted apart).
    std::uint64_t program_id = 0;
    const unsigned char* binary = nullptr; // the program binary for `device_name`
    std::size_t binary_bytes = 0;
    const char* device_name = nullptr; // CL_DEVICE_NAME of the device it was built for
    const char* entry = nullptr;       // the kernel's name in the program

    // An entry encore++ outlined (no binary, no device name; outlined.geometry_dimensions not 0): `program_id`
    // names the image; its SPIR-V module is built where the device takes IL, else `spir` (the same module as SPIR
    // 1.2 bitcode) where it has cl_khr_spir.
    spir_entry outlined;
    const unsigned char* spir = nullptr;
    std::size_t spir_bytes = 0;
};

} // namespace encore::opencl

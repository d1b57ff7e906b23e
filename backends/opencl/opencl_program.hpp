// encore::opencl::build_program, program and get_kernel — OpenCL C source or SPIR-V built at run time for one
// OpenCL device, and kernels taken from it by name, as encore::kernels whose arguments are the command's
// kernel_arguments (libencore-opencl).
//
// build_program is the one build step, and it goes through the kernel/program cache: it compiles the
// source (clCreateProgramWithSource) or the IL (clCreateProgramWithIL, on devices whose CL_DEVICE_IL_VERSION
// names SPIR-V) for the device and returns the device's binary (CL_PROGRAM_BINARIES), the kernel names and
// the log. The backend creates its cl_program from that binary on first use. Kernel parameters, in order:
// scalars (their bytes), pointers (USM: clSetKernelArgSVMPointer / clSetKernelArgMemPointerINTEL), local
// memory (kernel_argument::local(bytes) -> a `local` pointer parameter). A range launch leaves the work-group
// size to the driver; an nd_range launch uses its work-group. SYCL dimension d-1 (the fastest) is OpenCL
// dimension 0, as in DPC++. A program kernel has no host form: on the native backend it throws
// errc::feature_not_supported.
//
//     auto d = /* an encore::device of the opencl backend */;
//     auto p = encore::opencl::program::load(encore::opencl::build_program(d,
//     encore::opencl::program_source::opencl_c(
//         "kernel void scale(float a, global float* x) { x[get_global_id(0)] *= a; }")));
//     auto scale = encore::opencl::get_kernel(p, "scale");
//     q.submit(encore::kernel_command{scale, {from_scalar(2.f), from_pointer(x)}, encore::range(n)});
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "encore/runtime/device.hpp"
#include "encore/graph/kernel.hpp"

namespace encore::opencl {

struct program_source {
    enum class language : unsigned char { opencl_c, spirv, spir };
    language kind = language::opencl_c;
    std::string text;              // OpenCL C
    std::vector<unsigned char> il; // SPIR-V module, or SPIR bitcode

    static program_source opencl_c(std::string text);
    // For devices whose CL_DEVICE_IL_VERSION names SPIR-V (clCreateProgramWithIL).
    static program_source spirv(std::vector<unsigned char> il);
    // SPIR 1.2: LLVM bitcode for the spir64 target (`clang-15 -target spir64 -emit-llvm -c -cl-std=CL1.2`, with
    // the kernel argument metadata clang emits by default), for devices with cl_khr_spir
    // (clCreateProgramWithBinary, built with "-x spir -spir-std=1.2"). Debian's PoCL takes this and no SPIR-V.
    static program_source spir(std::vector<unsigned char> bitcode);
};

struct program_binary {
    std::string device_name;    // CL_DEVICE_NAME it was built for
    std::string driver_version; // CL_DRIVER_VERSION
    std::vector<unsigned char> bytes;
    std::vector<std::string> kernel_names; // CL_PROGRAM_KERNEL_NAMES
    std::string log;                       // the build log (warnings), possibly empty
};

// Builds `source` for `d` (a device of the opencl backend) with `options` (clBuildProgram options such as
// "-cl-std=CL3.0", "-DN=4"), through the kernel/program cache (docs/cache.md): a repeated build of the same
// key (device name, platform and driver versions, language, options, source) costs no compiler run. Throws
// encore::error: build_failure with the build log when the source does not compile (or the bitcode is not
// SPIR); invalid_argument when `d` is not an OpenCL device or the source is empty; feature_not_supported when
// the device takes no IL (SPIR-V), has no cl_khr_spir (SPIR) or has no compiler; backend_failure when OpenCL is
// missing or fails otherwise.
program_binary build_program(const device& d, const program_source& source,
                             std::span<const std::string> options = {});

class program {
public:
    // Throws errc::invalid_argument for an empty binary.
    static std::shared_ptr<const program> load(program_binary binary);

    std::uint64_t id() const noexcept { return id_; }
    const program_binary& binary() const noexcept { return binary_; }
    const std::string& build_log() const noexcept { return binary_.log; }
    bool has_kernel(const std::string& name) const;

    explicit program(program_binary binary);

private:
    program_binary binary_;
    std::uint64_t id_;
};

// The kernel `name` of `p`. Throws errc::invalid_argument when the program has no such kernel.
std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const program> p, std::string name);

// What an OpenCL device offers (the plugin decides with the same record).
struct capabilities {
    std::string usm;                    // "fine-grain SVM", "cl_intel_unified_shared_memory", ...
    bool command_buffers = false;       // cl_khr_command_buffer
    std::string command_buffer_version; // "0.9.0"; empty without the extension
    bool mutable_dispatch = false;      // cl_khr_command_buffer_mutable_dispatch
    bool updates_in_place = false; // kernel nodes of command buffers updated through it (else recorded again);
                                   // false with ENCORE_OPENCL_MUTABLE_DISPATCH=0
    std::string il_version;             // empty: no SPIR-V
    bool spir = false;                  // cl_khr_spir: takes SPIR 1.2 bitcode (program_source::spir)
};
// Throws errc::invalid_argument when `d` is not an OpenCL device.
capabilities capabilities_of(const device& d);

} // namespace encore::opencl

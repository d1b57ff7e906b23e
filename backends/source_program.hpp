// encore::source_program — a program a backend built at run time from source text or IL, and its kernels by
// name.
//
// What SYCL's kernel compiler (sycl_ext_oneapi_kernel_compiler) stands on: backend::build_program compiles
// OpenCL C or SPIR-V (the OpenCL backend) or CUDA C++ (the CUDA backend, through NVRTC) for one of its
// devices, through the kernel/program cache, and the program hands out engine kernels whose arguments are set
// one by one. Backends that build nothing from source say so (backend::builds is false; build_program throws
// feature_not_supported).
//
//     auto d = encore::device::default_device();
//     if (d.owner().builds(encore::source_language::opencl_c)) {
//         auto p = d.owner().build_program(d.index(), encore::source_language::opencl_c, as_bytes(text), {});
//         auto scale = p->get_kernel("scale");
//     }
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "encore/graph/kernel.hpp"

namespace encore {

enum class source_language : std::uint8_t { opencl_c, spirv, cuda };
std::string_view to_string(source_language language) noexcept; // "OpenCL C", "SPIR-V", "CUDA C++"

class source_program {
public:
    virtual ~source_program() = default;
    virtual bool has_kernel(const std::string& name) const = 0;
    // Throws encore::error(invalid_argument) when the program has no kernel `name`.
    virtual std::shared_ptr<const kernel> get_kernel(const std::string& name) const = 0;
    // The compiler's messages for a build that succeeded (warnings), possibly empty.
    virtual const std::string& build_log() const noexcept = 0;
};

} // namespace encore

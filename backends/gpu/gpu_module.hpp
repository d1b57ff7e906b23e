// encore::gpu::module and get_kernel — a GPU program image (PTX text, a CUDA cubin, an AMD code object) and the
// kernels taken from it by name, as encore::kernels whose arguments are the command's kernel_arguments. CUDA
// (backends/cuda/cuda_module.hpp) and HIP (backends/hip/hip_module.hpp) name these; the format says which API's
// backend runs the image (PTX, cubin: "cuda"; code object: "hip").
//
// A module is plain data until a GPU queue or graph uses one of its kernels: the backend then loads the image once
// per device (cuModuleLoadData / hipModuleLoadData) and keeps it for the life of the backend. A module kernel has
// no host form: on the native backend it throws errc::feature_not_supported. The entry must be
// `extern "C" __global__ void name(...)` with one parameter per kernel_argument, in order; scalar arguments pass
// their bytes, pointer arguments the pointer.
//
//     auto m = encore::gpu::module::load(encore::cuda::build_program(source));
//     auto saxpy = encore::gpu::get_kernel(m, "saxpy");
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "encore/graph/kernel.hpp"

namespace encore::gpu {

struct program_binary {
    enum class format : unsigned char { ptx, cubin, code_object };
    format kind = format::ptx;
    std::vector<char> bytes; // PTX text ends with a NUL; cubins and code objects are ELF files
    std::string log;         // the compiler's log (warnings), possibly empty
};

class module {
public:
    // Throws errc::invalid_argument for an empty image, or a cubin / code object that is not a 64-bit ELF file.
    static std::shared_ptr<const module> load(program_binary binary);
    // PTX text (with or without a trailing NUL).
    static std::shared_ptr<const module> from_ptx(std::string ptx);

    std::uint64_t id() const noexcept { return id_; }
    const void* image() const noexcept { return binary_.bytes.data(); }
    program_binary::format format() const noexcept { return binary_.kind; }
    const std::string& build_log() const noexcept { return binary_.log; }
    // "cuda" or "hip": the backend whose kernels these are.
    std::string_view api() const noexcept;
    // Whether it has a kernel named `name`: a `.entry name(` line of PTX, a `.text.name` section of a cubin, a
    // function symbol of a code object. A damaged image answers false.
    bool has_kernel(const std::string& name) const;

    explicit module(program_binary binary);

private:
    program_binary binary_;
    std::uint64_t id_;
};

// The kernel `name` of `m`. Throws errc::invalid_argument when the module has no such kernel.
std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const module> m, std::string name);

} // namespace encore::gpu

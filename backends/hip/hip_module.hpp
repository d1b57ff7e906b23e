// encore::hip::module and get_kernel — kernels taken by name from an AMD code object (what build_program returns,
// or one built offline by hipcc --genco), as encore::kernels whose arguments are the command's kernel_arguments.
//
// As on CUDA (backends/cuda/cuda_module.hpp): a module is plain data until a HIP queue or graph uses one of its
// kernels; the backend then loads it once per device (hipModuleLoadData). A module kernel has no host form. The
// entry must be `extern "C" __global__ void name(...)` with one parameter per kernel_argument, in order.
//
//     auto m = encore::hip::module::load(encore::hip::build_program(source, {"--offload-arch=gfx90a"}));
//     auto saxpy = encore::hip::get_kernel(m, "saxpy");
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "encore/backends/hip/hiprtc_program.hpp"
#include "encore/graph/kernel.hpp"

namespace encore::hip {

class module {
public:
    // Throws errc::invalid_argument for an empty image or one that is not a 64-bit ELF file.
    static std::shared_ptr<const module> load(program_binary binary);

    std::uint64_t id() const noexcept { return id_; }
    const void* image() const noexcept { return binary_.bytes.data(); }
    const std::string& build_log() const noexcept { return binary_.log; }
    // Whether the code object defines a function symbol `name` (each kernel is one).
    bool has_kernel(const std::string& name) const;

    explicit module(program_binary binary);

private:
    program_binary binary_;
    std::uint64_t id_;
};

// The kernel `name` of `m`. Throws errc::invalid_argument when the code object has no such kernel.
std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const module> m, std::string name);

} // namespace encore::hip

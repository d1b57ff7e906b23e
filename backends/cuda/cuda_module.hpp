// encore::cuda::module and get_kernel — kernels taken by name from a PTX or cubin image (what build_program
// returns, or PTX written by hand), as encore::kernels whose arguments are the command's kernel_arguments.
//
// A module is plain data until a CUDA queue or graph uses one of its kernels: the backend then loads the image
// once per device into the device's primary context (cuModuleLoadData) and keeps it for the life of the
// backend. A module kernel has no host form: on the native backend it throws errc::feature_not_supported.
// The entry must be `extern "C" __global__ void name(...)` with one parameter per kernel_argument, in order;
// scalar arguments pass their bytes, pointer arguments the pointer. A range launch's block divides the range
// (see cuda_kernel_launch.hpp), so the kernel needs no bounds check; an nd_range launch uses its work-group.
//
//     auto m = encore::cuda::module::load(encore::cuda::build_program(source));
//     auto saxpy = encore::cuda::get_kernel(m, "saxpy");
//     q.submit(encore::kernel_command{saxpy, {from_scalar(2.f), from_pointer(x), from_pointer(y)}, range(n)});
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "encore/backends/cuda/nvrtc_program.hpp"
#include "encore/graph/kernel.hpp"

namespace encore::cuda {

class module {
public:
    static std::shared_ptr<const module> load(program_binary binary);
    // PTX text (with or without a trailing NUL).
    static std::shared_ptr<const module> from_ptx(std::string ptx);

    std::uint64_t id() const noexcept { return id_; }
    const void* image() const noexcept { return binary_.bytes.data(); }
    program_binary::format format() const noexcept { return binary_.kind; }
    const std::string& build_log() const noexcept { return binary_.log; }
    // Whether it has a kernel named `name`: a `.entry name(` line of PTX, a `.text.name` section of a cubin.
    bool has_kernel(const std::string& name) const;

    explicit module(program_binary binary);

private:
    program_binary binary_;
    std::uint64_t id_;
};

// The kernel `name` of `m`. Throws errc::invalid_argument when a PTX module has no such entry.
std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const module> m, std::string name);

} // namespace encore::cuda

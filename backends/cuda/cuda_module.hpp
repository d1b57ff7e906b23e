// encore::cuda::module and get_kernel — kernels taken by name from a PTX or cubin image (what build_program
// returns, or PTX written by hand): the GPU layer's module (backends/gpu/gpu_module.hpp), which also holds HIP's
// code objects.
//
// A range launch's block divides the range (see backends/gpu/gpu_kernel_launch.hpp), so the kernel needs no bounds
// check; an nd_range launch uses its work-group.
//
//     auto m = encore::cuda::module::load(encore::cuda::build_program(source));
//     auto saxpy = encore::cuda::get_kernel(m, "saxpy");
//     q.submit(encore::kernel_command{saxpy, {from_scalar(2.f), from_pointer(x), from_pointer(y)}, range(n)});
#pragma once

#include "encore/backends/cuda/nvrtc_program.hpp"
#include "encore/backends/gpu/gpu_module.hpp"

namespace encore::cuda {

using gpu::get_kernel;
using gpu::module;

} // namespace encore::cuda

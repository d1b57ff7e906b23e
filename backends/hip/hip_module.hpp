// encore::hip::module and get_kernel — kernels taken by name from an AMD code object (what build_program returns,
// or one built offline by hipcc --genco): the GPU layer's module (backends/gpu/gpu_module.hpp), as on CUDA. Each
// kernel is a function symbol of the code object; `extern "C" __global__ void name(...)`, one parameter per
// kernel_argument, in order.
//
//     auto m = encore::hip::module::load(encore::hip::build_program(source, {"--offload-arch=gfx90a"}));
//     auto saxpy = encore::hip::get_kernel(m, "saxpy");
#pragma once

#include "encore/backends/gpu/gpu_module.hpp"
#include "encore/backends/hip/hiprtc_program.hpp"

namespace encore::hip {

using gpu::get_kernel;
using gpu::module;

} // namespace encore::hip

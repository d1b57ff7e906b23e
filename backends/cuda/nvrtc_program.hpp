// encore::cuda::build_program — CUDA C++ source compiled at run time by NVRTC, the one build step of
// run-time kernels, behind the kernel/program cache (encore/cache/program_cache.hpp).
//
// NVRTC is loaded when first needed (libnvrtc.so.13 or .12 from the loader's path, else from
// /usr/local/cuda/lib64), so programs that never compile at run time do not need it. Without an `-arch`
// option the result is PTX for compute_75, which the driver compiles for the GPU it runs on; with
// `-arch=sm_XX` it is a cubin for that GPU. Kernels must be `extern "C" __global__` (or be named by their
// mangled names); cuda_module.hpp takes them by name.
//
//     auto binary = encore::cuda::build_program(R"(extern "C" __global__ void twice(int* p) { p[threadIdx.x] *= 2; })");
//     auto twice = encore::cuda::get_kernel(encore::cuda::module::load(std::move(binary)), "twice");
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "encore/backends/gpu/gpu_module.hpp"

namespace encore::cuda {

// PTX or a cubin (format), and NVRTC's log.
using gpu::program_binary;

// Goes through the kernel/program cache (docs/cache.md): the same source, options and NVRTC version give the
// stored binary without compiling. Throws encore::error: errc::build_failure with NVRTC's log when the source does
// not compile, errc::backend_failure when NVRTC cannot be loaded or fails otherwise.
program_binary build_program(std::string_view source, std::span<const std::string> options = {},
                             std::string_view name = "encore_program.cu");

} // namespace encore::cuda

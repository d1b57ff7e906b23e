// encore::hip::build_program — HIP C++ source compiled at run time by hiprtc into an AMD code object, behind the
// kernel/program cache (encore/cache/program_cache.hpp), as encore::cuda::build_program does with NVRTC.
//
// hiprtc is part of the HIP runtime (libamdhip64), loaded when first needed. The target is the
// `--offload-arch=gfxNNN` option (also `--gpu-architecture=`); without one, hiprtc compiles for the current
// device, which the key then names as "current device". Kernels must be `extern "C" __global__`; hip_module.hpp
// takes them by name.
//
//     auto binary = encore::hip::build_program(source, {"--offload-arch=gfx90a"});
//     auto twice = encore::hip::get_kernel(encore::hip::module::load(std::move(binary)), "twice");
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "encore/backends/gpu/gpu_module.hpp"

namespace encore::hip {

// A code object (format::code_object) and hiprtc's log.
using gpu::program_binary;

// Throws encore::error: errc::build_failure with hiprtc's log when the source does not compile (or compiles to no
// code object), errc::backend_failure when the HIP runtime cannot be loaded or hiprtc fails otherwise.
program_binary build_program(std::string_view source, std::span<const std::string> options = {},
                             std::string_view name = "encore_program.hip");

} // namespace encore::hip

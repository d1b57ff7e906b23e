// encore::cuda::device_code — the CUDA backend's name for encore::gpu::device_code (backends/gpu/device_code.hpp),
// what kernels with CUDA code return from encore::kernel::device_code("cuda").
#pragma once

#include "encore/backends/gpu/device_code.hpp"

namespace encore::cuda {

using gpu::calling_convention;
using gpu::device_code;
using gpu::launch_geometry;

} // namespace encore::cuda

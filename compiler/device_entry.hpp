// encore::device_entry — what the entries encore-outliner writes (compiler/outliner/device_source.cpp) call to
// rebuild their work-item and set up their local memory, on whichever device they are compiled for: CUDA (nvcc:
// backends/cuda/device_work_item.hpp) or SPIR-V (encore++'s spir64 compile: backends/opencl/spir_work_item.hpp).
// Included by generated device sources only.
#pragma once

#include <sycl/detail/host_device.hpp>

#if defined(ENCORE_DEVICE_SPIR)
#include "encore/backends/opencl/spir_work_item.hpp"
namespace encore::device_entry {
using encore::opencl::detail::bound_object;
using encore::opencl::detail::local_block;
using encore::opencl::detail::make_work_item;
} // namespace encore::device_entry
#else
#include "encore/backends/cuda/device_work_item.hpp"
namespace encore::device_entry {
using encore::cuda::detail::enter_local_memory;
using encore::cuda::detail::make_exact_work_item;
using encore::cuda::detail::make_work_item;
} // namespace encore::device_entry
#endif

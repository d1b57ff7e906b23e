// sycl::detail::spir — the OpenCL built-ins encore++'s spir64 device code calls for what CUDA code gets from nvcc:
// the work-group barrier and memory fences. Declared in C++ under their OpenCL C mangled names (asm labels), which
// llvm-spirv and the OpenCL drivers know, so no OpenCL name enters the program's namespaces.
// Not for you: include <sycl/sycl.hpp>.
#pragma once

#if !defined(ENCORE_DEVICE_SPIR)
#error "sycl/detail/spir_builtins.hpp is for encore++'s spir64 device compile"
#endif

namespace sycl {
inline namespace _V1 {
namespace detail::spir {

// OpenCL's cl_mem_fence_flags.
inline constexpr unsigned local_fence = 1, global_fence = 2;

// Every work-item of the work-group waits here; `flags`: the memory its accesses before are ordered for.
__attribute__((device)) void barrier(unsigned flags) __asm__("_Z7barrierj");
__attribute__((device)) void mem_fence(unsigned flags) __asm__("_Z9mem_fencej");

// The group barrier SYCL's group_barrier and nd_item::barrier mean: global and local memory ordered.
__attribute__((host, device)) inline void group_barrier() { barrier(local_fence | global_fence); }

} // namespace detail::spir
} // namespace _V1
} // namespace sycl

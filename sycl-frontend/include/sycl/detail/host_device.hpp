// ENCORE_HOST_DEVICE and ENCORE_DEVICE_LAMBDA: what lets SYCL kernels compiled by nvcc run on CUDA devices.
// Not for you: include <sycl/sycl.hpp>.
//
// In a translation unit compiled by nvcc (`--extended-lambda --expt-relaxed-constexpr`), the members of the index
// space, item and accessor views that kernels call are `__host__ __device__`, and ENCORE_DEVICE_LAMBDA marks a
// kernel lambda for the GPU (and the host); everywhere else both macros are empty, so host builds do not change.
//
//     h.parallel_for(sycl::range<1>{n}, [=] ENCORE_DEVICE_LAMBDA (sycl::id<1> i) { c[i] = a[i] + b[i]; });
#pragma once

#if defined(__CUDACC__)
#define ENCORE_HOST_DEVICE __host__ __device__
#define ENCORE_DEVICE_LAMBDA __host__ __device__
#elif defined(__HIP__) && defined(__SPIRV__)
// Clang 15 compiling device code for spirv64 in HIP mode (encore++'s SPIR-V route, docs/compiler.md "The SPIR-V
// target"): the same marks, as Clang's attributes (no HIP headers are included there).
#define ENCORE_HOST_DEVICE __attribute__((host, device))
#define ENCORE_DEVICE_LAMBDA __attribute__((host, device))
#define ENCORE_DEVICE_SPIR 1
#elif defined(__ENCORE_OUTLINER__)
// encore-outliner's parse (compiler/outliner): the mark stays in the AST, so it knows which functions are
// device-callable already.
#define ENCORE_HOST_DEVICE __attribute__((annotate("encore_host_device")))
#define ENCORE_DEVICE_LAMBDA
#else
#define ENCORE_HOST_DEVICE
#define ENCORE_DEVICE_LAMBDA
#endif

// ENCORE_DEVICE_CODE: a device compile, nvcc's device pass or encore++'s spir64 compile, where every work-item of a
// launch is a thread of its own (on the host, one thread may run a whole work-group).
#if defined(__CUDA_ARCH__) || defined(ENCORE_DEVICE_SPIR)
#define ENCORE_DEVICE_CODE 1
#endif

// SYCL_EXTERNAL (SYCL 2020 section 5.10.1): a function that device code may call. Encore compiles device code from
// the translation unit that launches the kernel, so the function's body must be visible there (encore-outliner says
// so otherwise); the mark makes it device-callable where it is defined in a header.
#if !defined(SYCL_EXTERNAL)
#define SYCL_EXTERNAL ENCORE_HOST_DEVICE
#endif

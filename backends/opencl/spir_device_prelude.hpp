// What encore++'s spir64 device compile includes before the device source (-include): the CUDA keywords the
// outliner writes (__global__ entries, __device__ call operators and device_globals, __shared__ variables), as
// Clang's attributes in HIP device mode for spirv64, where no HIP or CUDA header is included (docs/compiler.md,
// "The SPIR-V target"). __device__ also marks host: the outlined call operators must stay callable where the front
// end's host templates check them (std::is_invocable in sycl/detail/kernel_wrapper.hpp), and in a device-only
// compile nothing is emitted for the host anyway.
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((host, device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))

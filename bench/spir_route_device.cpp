// bench/spir_route's kernels as encore++'s spir64 target is to compile them (docs/compiler.md, "The SPIR-V
// target"): Clang 15 HIP device code for spirv64, entries taking the kernel object and geometry<1> by value (and
// the work-group's local block), to SPIR-V and back to SPIR 1.2 bitcode with the generic-pointer atomics linked in.
// The same kernels in OpenCL C are in spir_route.cpp.
#include <cstddef>

#include "encore/backends/gpu/device_code.hpp"
#include "spir_route_kernels.hpp"

__attribute__((device)) std::size_t get_global_id(unsigned int dimension);
__attribute__((device)) std::size_t get_local_id(unsigned int dimension);
__attribute__((device)) std::size_t get_group_id(unsigned int dimension);
__attribute__((device)) std::size_t get_local_size(unsigned int dimension);
__attribute__((device)) void barrier(unsigned int flags);

extern "C" __attribute__((global)) void saxpy(saxpy_kernel k, encore::gpu::geometry<1> g) {
    const std::size_t i = get_global_id(0);
    if (i < g.global[0]) k(i + g.offset[0]);
}

extern "C" __attribute__((global)) void reverse_groups(reverse_kernel k, encore::gpu::geometry<1> g,
                                                        __attribute__((address_space(3))) unsigned char* block) {
    int* tile = (int*)block;
    const std::size_t l = get_local_id(0), size = get_local_size(0), i = get_group_id(0) * size + l;
    tile[l] = k.in[i];
    barrier(1);
    k.out[i] = tile[size - 1 - l];
}

extern "C" __attribute__((global)) void histogram(histogram_kernel k, encore::gpu::geometry<1> g) {
    const std::size_t i = get_global_id(0);
    if (i < g.global[0]) k(i + g.offset[0]);
}

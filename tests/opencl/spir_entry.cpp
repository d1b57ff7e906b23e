// Entries shaped as encore++'s outlined kernels (compiler/outliner/device_source.cpp): the kernel object by value
// (its captures as fields, its body a host-and-device call operator), the launch's encore::gpu::geometry<D>, and
// for a kernel with local memory the work-group's block. Compiled the way encore++'s spir64 target is to be
// (docs/compiler.md, "The SPIR-V target"): Clang 15 in HIP device mode for spirv64, whose host code (here
// `describe`, which throws) is parsed but never compiled for the device; llvm-spirv-15 to SPIR-V and back to SPIR
// 1.2 bitcode; llvm-link with compiler/spir/generic_atomics.bc. tests/opencl/meson.build runs those steps and
// opencl_spirv_test.cpp ("encore++'s SPIR route") runs the entries on PoCL.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "encore/backends/gpu/device_code.hpp"

// OpenCL's work-item functions and barrier: their C++ names mangle as OpenCL C's (_Z13get_global_idj).
__attribute__((device)) std::size_t get_global_id(unsigned int dimension);
__attribute__((device)) std::size_t get_local_id(unsigned int dimension);
__attribute__((device)) std::size_t get_group_id(unsigned int dimension);
__attribute__((device)) std::size_t get_local_size(unsigned int dimension);
__attribute__((device)) void barrier(unsigned int flags);
constexpr unsigned local_fence = 1; // CLK_LOCAL_MEM_FENCE

#include "spir_entry_kernels.hpp"

// Host code in the same translation unit, as in a SYCL program's source: never compiled for the device.
std::string describe(const scale_kernel& k) {
    if (!k.out) throw std::invalid_argument("no output");
    return "scale by " + std::to_string(k.factor);
}

// out[i] = factor * i over the range (rounded up to whole work-groups: the geometry says where it ends).
extern "C" __attribute__((global)) void __encore_kernel_scale(scale_kernel k, encore::gpu::geometry<1> g) {
    const std::size_t i = get_global_id(0);
    if (i < g.global[0]) k(i + g.offset[0]);
}

// Each work-group reverses its slice through local memory, then its first work-item adds the slice's sum to a
// 32-bit total, raises a 64-bit maximum, and counts the group with a compare-and-exchange loop.
extern "C" __attribute__((global)) void __encore_kernel_group_sum(group_sum_kernel k, encore::gpu::geometry<1> g,
                                                                   __attribute__((address_space(3)))
                                                                   unsigned char* block) {
    int* tile = (int*)block; // the generic view of local memory (a C cast: C++ casts keep the address space)
    const std::size_t l = get_local_id(0), size = get_local_size(0);
    const std::size_t i = get_group_id(0) * size + l;
    tile[l] = k.data[i];
    barrier(local_fence);
    k.data[i] = tile[size - 1 - l];
    if (l == 0) {
        int sum = 0;
        long largest = 0;
        for (std::size_t j = 0; j < size; ++j) {
            sum += tile[j];
            largest = tile[j] > largest ? tile[j] : largest;
        }
        k.add_sum(sum);
        k.raise_largest(largest * static_cast<long>(g.global[0]));
        k.count_group();
    }
}

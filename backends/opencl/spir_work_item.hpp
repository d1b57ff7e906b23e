// encore::opencl::detail::make_work_item — how an entry encore++ outlines for spir64 rebuilds an encore::work_item
// from OpenCL's work-item functions: the same numbers as the CUDA entry's (backends/cuda/device_work_item.hpp),
// with SYCL's last dimension on OpenCL's dimension 0, as the OpenCL backend launches every kernel
// (opencl_commands.cpp, geometry_of). Ids are get_global_id less get_global_offset, so the launch's global offset
// reaches the kernel through its geometry alone (Level Zero launches have none), and they are right however the
// driver splits a range launch into work-groups.
//
// Unlike CUDA's, no work-item is past the range's end: the OpenCL backend enqueues the range's own global size, and
// Level Zero's group size divides it (zeKernelSuggestGroupSize for a range, the nd_range's own for an nd_range,
// whose global size SYCL requires to be a multiple of it). So there is no bounds check: on PoCL the branch of one
// cost saxpy four times its time (its work-group loop was no longer vectorized; docs/compiler.md, "Measured").
//
// Only for encore++'s spir64 device compile (Clang 15, HIP device mode for spirv64: ENCORE_DEVICE_SPIR, see
// sycl/detail/host_device.hpp and docs/compiler.md "The SPIR-V target").
#pragma once

#if !defined(ENCORE_DEVICE_SPIR)
#error "backends/opencl/spir_work_item.hpp is for encore++'s spir64 device compile"
#endif

#include <cstddef>
#include <cstdint>

#include "encore/backends/gpu/device_code.hpp"
#include "encore/graph/kernel.hpp"

// OpenCL's work-item functions, declared in C++ at global scope: their names mangle as OpenCL C's
// (_Z13get_global_idj), which llvm-spirv and the OpenCL drivers know.
__attribute__((device)) std::size_t get_global_id(unsigned int dimension);
__attribute__((device)) std::size_t get_global_offset(unsigned int dimension);
__attribute__((device)) std::size_t get_local_id(unsigned int dimension);
__attribute__((device)) std::size_t get_group_id(unsigned int dimension);
__attribute__((device)) std::size_t get_local_size(unsigned int dimension);
__attribute__((device)) std::size_t get_num_groups(unsigned int dimension);

namespace encore::opencl::detail {

// Fills `it` for this work-item of a launch of `Dimensions` dimensions. Always true (no work-item is past the
// range's end, above); it returns what CUDA's does, so one entry source serves both.
template <int Dimensions, typename Geometry>
__attribute__((device)) inline bool make_work_item(const Geometry& g, encore::work_item& it) {
    it.dimensions = Dimensions;
#pragma unroll
    for (unsigned d = 0; d < Dimensions; ++d) {
        const unsigned axis = Dimensions - 1 - d;
        const std::size_t id = get_global_id(axis) - get_global_offset(axis);
        it.global_id[d] = id + g.offset[d];
        it.local_id[d] = get_local_id(axis);
        it.group_id[d] = get_group_id(axis);
        it.global_range[d] = g.global[d];
        it.local_range[d] = get_local_size(axis);
        it.group_range[d] = get_num_groups(axis);
        it.offset[d] = g.offset[d];
    }
    return true;
}

// The work-group's local memory as an entry takes it (an OpenCL local-memory argument: address space 3).
using local_block = __attribute__((address_space(3))) unsigned char*;

// An entry's kernel object with its local accessors pointed into `block`: a copy of the object the entry took (which
// is not written: PoCL 3.1 marks it read-only in its work-group function, and crashed when an entry wrote into it),
// in which the launch's local_binding of each accessor (at byte `at[i]`: backends/gpu/local_memory.hpp) becomes the
// generic address of its allocation, which sycl::local_accessor reads in SPIR-V device code. An empty accessor (no
// allocation) is left as it is: its kernel must not touch it.
template <typename K> class bound_object {
public:
    template <std::size_t N>
    __attribute__((device)) bound_object(const K& k, local_block block, const std::uint32_t (&at)[N]) {
        __builtin_memcpy(bytes_, &k, sizeof(K));
#pragma unroll
        for (std::size_t i = 0; i < N; ++i) {
            gpu::local_binding binding;
            __builtin_memcpy(&binding, bytes_ + at[i], sizeof binding);
            if (binding.allocation == 0xffffffffu) continue;
            unsigned char* const memory = (unsigned char*)(block) + binding.offset;
            static_assert(sizeof memory == sizeof binding, "a local accessor's address takes its binding's bytes");
            __builtin_memcpy(bytes_ + at[i], &memory, sizeof memory);
        }
    }
    __attribute__((device)) const K& get() const { return *reinterpret_cast<const K*>(bytes_); }

private:
    alignas(K) unsigned char bytes_[sizeof(K)];
};

} // namespace encore::opencl::detail

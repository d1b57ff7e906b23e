// encore::cuda::detail::make_work_item — how a __global__ entry rebuilds an encore::work_item from CUDA's
// built-in indices, and finds its work-group's local memory in the block's dynamic shared memory (a local
// accessor holds its offset there, written by the launch; local_memory(i) finds allocation i through the block's
// table, for get_work_group_scratch_memory). Written once for both users: nvcc single-source kernels (single_source.hpp's
// work_item_entry) and the entries encore-outliner generates (compiler/outliner/device_source.cpp). SYCL's
// last dimension is CUDA's x.
//
// Only for nvcc translation units.
#pragma once

#if !defined(__CUDACC__)
#error "backends/cuda/device_work_item.hpp must be compiled by nvcc"
#endif

#include <cstddef>
#include <cstdint>

#include "encore/backends/gpu/device_code.hpp"
#include "encore/graph/kernel.hpp"

namespace encore::cuda::detail {

__device__ inline unsigned axis_value(const uint3& v, unsigned axis) {
    return axis == 0 ? v.x : axis == 1 ? v.y : v.z;
}
__device__ inline unsigned axis_value(const dim3& v, unsigned axis) {
    return axis == 0 ? v.x : axis == 1 ? v.y : v.z;
}

// The block's dynamic shared memory (the launch sizes it: gpu_kernel_launch.cpp) and the offsets of the
// kernel's local allocations in it, copied from the launch's local_layout by the entry (enter_local_memory).
__device__ inline unsigned char* dynamic_shared_memory() {
    extern __shared__ __align__(16) unsigned char encore_dynamic_shared[];
    return encore_dynamic_shared;
}
__device__ inline std::uint32_t* local_offsets() {
    __shared__ std::uint32_t offsets[gpu::max_local_allocations];
    return offsets;
}
__device__ inline std::uint32_t& local_count() {
    __shared__ std::uint32_t count;
    return count;
}
__device__ inline void* local_memory(std::uint32_t allocation) {
    return dynamic_shared_memory() + local_offsets()[allocation];
}
// The launch's last local allocation (work_group_scratch_size's scratch memory), or null when it has none.
__device__ inline void* last_local_memory() {
    const std::uint32_t count = local_count();
    return count == 0 ? nullptr : local_memory(count - 1);
}

// The entry of a kernel that calls get_work_group_scratch_memory calls it first, in every thread of the block (it
// waits at a block barrier). Constant indices: a parameter indexed at run time would be copied to the stack by
// every thread.
__device__ inline void enter_local_memory(const gpu::local_layout& l) {
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
#pragma unroll
        for (unsigned i = 0; i < gpu::max_local_allocations; ++i)
            if (i < l.count) local_offsets()[i] = l.offset[i];
        local_count() = l.count;
    }
    __syncthreads();
}

// Fills `it` for this CUDA thread of a launch of `Dimensions` dimensions; false for a thread past the range's
// end (the grid covers the range rounded up to whole blocks), which must not run the kernel. With the number of
// dimensions known, every index is a constant, so `it` lives in registers (with the dimensions read at run time
// it was a 328-byte stack frame per thread, which made a saxpy 26 times slower than hand-written CUDA).
// `Geometry`: a launch_geometry, or the geometry<Dimensions> of an entry outlined by encore++.
template <int Dimensions, typename Geometry> __device__ inline bool make_work_item(const Geometry& g, encore::work_item& it) {
    it.dimensions = Dimensions;
    bool inside = true;
#pragma unroll
    for (unsigned d = 0; d < Dimensions; ++d) {
        const unsigned axis = Dimensions - 1 - d;
        const unsigned group = axis_value(blockIdx, axis);
        const unsigned local = axis_value(threadIdx, axis);
        const unsigned group_size = axis_value(blockDim, axis);
        const std::size_t id = static_cast<std::size_t>(group) * group_size + local;
        inside = inside && id < g.global[d];
        it.global_id[d] = id + g.offset[d];
        it.local_id[d] = local;
        it.group_id[d] = group;
        it.global_range[d] = g.global[d];
        it.local_range[d] = group_size;
        it.group_range[d] = axis_value(gridDim, axis);
        it.offset[d] = g.offset[d];
    }
    return inside;
}

// The work-item of a launch whose grid covers the range exactly, from the built-in indices alone (no offset): what
// an argument_list entry of encore-outliner's (a free-function kernel) builds, since its launch has no geometry
// parameter. nd_range launches are exact, and so are range launches of argument_list kernels (the block divides the
// range: gpu_kernel_launch.cpp).
template <int Dimensions> __device__ inline void make_exact_work_item(encore::work_item& it) {
    gpu::geometry<Dimensions> g;
#pragma unroll
    for (unsigned d = 0; d < Dimensions; ++d) {
        const unsigned axis = Dimensions - 1 - d;
        g.global[d] = static_cast<std::uint64_t>(axis_value(gridDim, axis)) * axis_value(blockDim, axis);
        g.offset[d] = 0;
    }
    make_work_item<Dimensions>(g, it);
}

// The same, the number of dimensions read from the launch (single-source kernels, whose entry does not know it).
__device__ inline bool make_work_item(const gpu::launch_geometry& g, encore::work_item& it) {
    switch (g.dimensions) {
    case 1: return make_work_item<1>(g, it);
    case 2: return make_work_item<2>(g, it);
    default: return make_work_item<3>(g, it);
    }
}

} // namespace encore::cuda::detail

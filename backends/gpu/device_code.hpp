// encore::gpu::device_code — what an encore::kernel hands a GPU backend (CUDA, HIP) so that it can launch the
// kernel.
//
// encore::kernel::device_code("cuda") (or "hip") returns a pointer to one of these (or nullptr: the kernel has
// no code for that API, and submitting it to such a queue throws errc::kernel_not_supported naming it). Two
// kinds of kernel produce one, each with its calling convention:
// - run-time compiled / module kernels (backends/gpu/gpu_module.hpp: NVRTC, hiprtc, code objects):
//   `extern "C" __global__ void f(T0, T1, ...)` in an image; the command's kernel_arguments are the parameters,
//   in order.
// - single-source kernels compiled by nvcc (backends/cuda/single_source.hpp): `template <class F> __global__
//   void entry(F f, launch_geometry g)`; the callable is copied by value as the first parameter and the
//   entry rebuilds an encore::work_item from CUDA's built-in indices. The entry is found by `resolve`, or, for
//   kernels outlined by encore++ (`extern "C" __global__ void __encore_kernel_...(K k, geometry<D> g
//   [, local_layout l] [, void* scratch])`),
//   by `entry` in `image` like a module kernel.
// The record is plain data (no GPU header needed) and must live as long as the kernel that returns it.
//
//     const auto* code = static_cast<const encore::gpu::device_code*>(k.device_code("cuda"));
#pragma once

#include <cstddef>
#include <cstdint>

namespace encore::gpu {

enum class calling_convention : std::uint8_t {
    argument_list, // the kernel_arguments, in order (scalars and pointers by value)
    work_item,     // (F callable, launch_geometry) — see single_source.hpp
};

// The most work-group local allocations (local accessors) one work_item kernel may have on a GPU.
inline constexpr std::uint32_t max_local_allocations = 16;

// The launch as a work_item entry sees it, in SYCL's order: dimension `dimensions - 1` is the GPU's x axis.
struct launch_geometry {
    std::uint32_t dimensions = 1;
    std::uint64_t global[3] = {1, 1, 1};
    std::uint64_t offset[3] = {0, 0, 0};
};

// The launch as an entry outlined by encore++ for a kernel of D dimensions sees it: the same numbers without the
// unused dimensions (16 bytes for one dimension instead of launch_geometry's 56: parameter bytes cost time in
// every launch of a small kernel).
template <int D> struct geometry {
    std::uint64_t global[D];
    std::uint64_t offset[D];
};

// Where a kernel's local allocations are: allocation i starts `offset[i]` bytes into the block's dynamic shared
// memory. Only entries of kernels with local accessors take it (device_code::local_layout), so the others do not
// carry its bytes.
struct local_layout {
    std::uint32_t count = 0;
    std::uint32_t offset[max_local_allocations] = {};
};

struct device_code {
    calling_convention convention = calling_convention::argument_list;

    // argument_list: a module image (PTX text, NUL-terminated, a cubin, an AMD code object) and the entry's
    // name in it. The
    // backend loads each image once per device into the device's primary context, keyed by `image_id`
    // (unique for the life of the process, see next_image_id()).
    std::uint64_t image_id = 0;
    const void* image = nullptr;
    const char* entry = nullptr;
    // Images of encore++ (compiler/kernel_descriptor.hpp's device_image): the architectures `image` has machine
    // code for ("sm_90,sm_80"), and the same kernels as portable code (PTX, NUL-terminated, `portable_bytes`
    // without the last NUL; with -fsycl-device-code-split=off one module per source, separated by NULs, which the
    // backend links together). On a device of another architecture the backend compiles the portable code through the
    // kernel/program cache (key: the code, the device's architecture and the driver's version) and loads that:
    // once per device and process, and from the persistent cache in later processes.
    const char* architectures = nullptr;
    const void* portable = nullptr;
    std::size_t portable_bytes = 0;

    // work_item: returns the entry's CUfunction (as void*; CUDA only) in the context current on the calling
    // thread (the device's primary context), or nullptr with a reason in `*why`. Compiled in the program's own
    // translation unit, so it sees the program's CUDA runtime registrations. Null for an outlined kernel: its
    // entry is `entry` in `image`.
    void* (*resolve)(const char** why) = nullptr;
    const void* functor = nullptr; // the callable, passed by value as the entry's first parameter
    std::size_t functor_bytes = 0;
    // When either is not 0, the entry takes a third parameter, `void* scratch`: device memory of its own for each
    // launch (gpu_kernel_launch.hpp). Its first `scratch_bytes` are zero when the launch starts and the kernel
    // must leave them zero when it ends (a reduction's count of finished blocks); then come
    // `scratch_bytes_per_block` bytes for each block of the grid, not initialized (the blocks' partial results).
    std::size_t scratch_bytes = 0;
    std::size_t scratch_bytes_per_block = 0;
    // The entry takes the scratch parameter even without scratch (it is null then).
    bool scratch_parameter = false;
    // Memory set to zero right before the kernel runs (eagerly: memsets on its stream; in a graph: memset nodes
    // before its node): the results of reductions that start from their identity and that the kernel adds into.
    struct zero_range {
        void* pointer = nullptr;
        std::size_t bytes = 0;
    };
    const zero_range* zero_first = nullptr;
    std::size_t zero_first_count = 0;
    // When not null: an entry of the same image launched after the kernel's, on one block of 256 threads, as
    // `finish(F callable, void* scratch, unsigned groups)` (`groups`: the number of blocks of the kernel's launch).
    // A reduction's results are written by it (sycl/detail/device_reduction.hpp).
    const char* finish_entry = nullptr;
    // work_item entries outlined by encore++: the entry takes a geometry<D> of this many dimensions (not 0)
    // instead of a launch_geometry.
    std::uint8_t geometry_dimensions = 0;
    // work_item entries of kernels that reach their local memory through the block's table (encore++'s entries of
    // kernels calling get_work_group_scratch_memory): the entry takes a local_layout after the geometry (and before
    // the scratch). argument_list entries of free-function kernels with local memory (encore++): each local memory
    // parameter comes as its size in bytes (a 64-bit value), and a local_layout of every local allocation follows
    // the parameters.
    bool local_layout = false;
    // work_item entries outlined by encore++: the launch takes local memory arguments, and binds the local
    // accessors of the functor, which start at these byte positions (`local_accessor_count` of them): each begins
    // with a local_binding, whose offset the launch writes into its copy of the functor.
    bool binds_local_accessors = false;
    const std::uint32_t* local_accessors = nullptr;
    std::size_t local_accessor_count = 0;
};

// The first bytes of a local accessor in a functor (sycl/local_accessor.hpp): where its allocation starts in the
// block's dynamic shared memory (written by the launch), and which of the launch's local allocations it is.
struct local_binding {
    std::uint32_t offset;
    std::uint32_t allocation;
};

} // namespace encore::gpu

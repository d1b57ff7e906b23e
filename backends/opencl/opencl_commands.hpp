// How the OpenCL backend runs each encore::command: eagerly on a command queue (enqueue), and what a graph
// partition may hold (check_for_graph). Command buffers and launch plans record the same forms.
//
// Each command, eagerly / in a command buffer / in a launch plan:
// - kernel: clEnqueueNDRangeKernel on the kernel's shared cl_kernel (under its lock) / clCommandNDRangeKernelKHR
//   on a cl_kernel of the node's own / clEnqueueNDRangeKernel on a cl_kernel of the node's own.
// - memcpy: clEnqueueSVMMemcpy or clEnqueueMemcpyINTEL / clCommandSVMMemcpyKHR (0.9.4 on), before that
//   clCommandCopyBufferKHR on cl_mem views / the eager calls.
// - memset, fill: clEnqueueSVMMemFill or clEnqueueMemFillINTEL for patterns of 1, 2, 4, ... 128 bytes at an address
//   aligned to them, the fill kernel for other patterns up to 256 bytes / clCommandSVMMemFillKHR or
//   clCommandFillBufferKHR on a view, or the fill kernel / the eager calls.
// - copy (encore::buffer): clEnqueueSVMMemcpy between the buffers' host storage / clCommandCopyBufferKHR on
//   CL_MEM_USE_HOST_PTR views (devices with host-unified memory) / clEnqueueSVMMemcpy.
// - prefetch, mem_advise: a marker after the wait list (hints: OpenCL has no advice, and SVM needs no migration
//   for correctness) / a barrier on the node's predecessors (ordering only) / nothing (the in-order queue).
// - barrier, empty: a marker after the wait list (nothing when it is empty) / a barrier on the predecessors /
//   nothing.
// - native_graph: feature_not_supported (OpenCL has no native recording), in graphs as well.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "encore/backends/opencl/detail/api.hpp"
#include "encore/graph/command.hpp"

namespace encore::opencl {

class opencl_backend;

// The launch geometry in OpenCL's order (dimension 0 is SYCL's last, the fastest).
struct launch_geometry {
    cl_uint dimensions = 1;
    std::array<std::size_t, 3> global{1, 1, 1};
    std::array<std::size_t, 3> local{0, 0, 0};
    std::array<std::size_t, 3> offset{0, 0, 0};
    bool has_local = false;
    const std::size_t* local_or_null() const noexcept { return has_local ? local.data() : nullptr; }
    const std::size_t* offset_or_null() const noexcept {
        return offset[0] || offset[1] || offset[2] ? offset.data() : nullptr;
    }
};
launch_geometry geometry_of(const opencl_backend& backend, std::uint32_t device, const kernel_command& k);

// How one kernel argument reaches OpenCL: a pointer of this backend's memory as an SVM or USM pointer
// (`pointer`); scalars, local memory (a size, no value) and null pointers (a null cl_mem: the null every driver
// takes, where some refuse a null SVM or USM pointer) as clSetKernelArg's size and value. Throws invalid_argument
// for a pointer this backend did not allocate, feature_not_supported for a memory object, naming argument `index`
// of kernel `kernel_name`.
struct argument_form {
    const void* pointer = nullptr; // not null: set as an SVM/USM pointer
    std::size_t size = 0;
    const void* value = nullptr;
};
argument_form form_of(const opencl_backend& backend, const kernel_argument& a, const std::string& kernel_name,
                      std::size_t index);

// Sets every argument of `k` on `kernel` (form_of; its errors).
void set_arguments(opencl_backend& backend, std::uint32_t device, cl_kernel kernel, const kernel_command& k);
// The same on a shared kernel, under its lock: nothing when the arguments are those set last.
struct shared_kernel;
void set_arguments(opencl_backend& backend, std::uint32_t device, shared_kernel& kernel,
                   const kernel_command& k);

// Fills: patterns of 1 to 256 bytes (else feature_not_supported naming the size). The driver fills (SVM/USM
// fill, fill-buffer commands) take a power of two up to 128 bytes at an address aligned to it; other patterns
// run the backend's fill kernel (`encore_fill`, built once per device).
inline constexpr std::size_t max_fill_pattern = 256;
void check_fill(std::size_t pattern_bytes, const char* what);
bool driver_fills(const void* destination, std::size_t pattern_bytes) noexcept;
// Sets the fill kernel's arguments on `kernel` for filling `bytes` bytes from `destination` with `pattern`,
// and returns its geometry.
launch_geometry prepare_fill_kernel(opencl_backend& backend, std::uint32_t device, cl_kernel kernel,
                                    void* destination, std::span<const std::byte> pattern, std::size_t bytes);

// Enqueues kernel command `k` on `queue` after `waits` (its kernel shared by every eager submission of it, its
// arguments set where they changed); returns its event.
cl_event enqueue_kernel(opencl_backend& backend, std::uint32_t device, cl_command_queue queue,
                        const kernel_command& k, std::span<const cl_event> waits);
// Enqueues `c` on `queue` after `waits`; returns its event, or nullptr when the command does nothing and has
// no wait (the caller answers with a completed event).
cl_event enqueue(opencl_backend& backend, std::uint32_t device, cl_command_queue queue, const command& c,
                 std::span<const cl_event> waits);

// Throws what lowering `c` into a graph of `device` would (before anything is recorded or changed).
void check_for_graph(opencl_backend& backend, std::uint32_t device, const command& c);

} // namespace encore::opencl

// encore::opencl::allocation_table — the OpenCL backend's USM allocations, and the cl_mem views of them that
// command buffers need.
//
// USM is cl_intel_unified_shared_memory where a device has it, else SVM (detail::usm_mode): device
// allocations are coarse-grain SVM (fine-grain where that is all the device has), host and shared allocations
// fine-grain SVM; a device with coarse-grain SVM only refuses host and shared allocations
// (errc::feature_not_supported: the host could not touch them without mapping). cl_khr_command_buffer 0.9.0
// records copies and fills on cl_mem only, so an SVM allocation gets, on first need, one buffer over its
// whole range (clCreateBuffer with CL_MEM_USE_HOST_PTR on the SVM pointer: the buffer uses the SVM storage,
// OpenCL 2.0), and a command on (pointer, bytes) becomes (that buffer, offset). The view is released with the
// allocation.
//
//     table.insert(p, {p, bytes, p, bytes, device, memory_kind::shared});
//     auto where = table.find(p + 16, 64);   // the allocation holding [p + 16, p + 80), or nullopt
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/opencl/detail/api.hpp"

namespace encore::opencl {

struct allocation {
    void* base = nullptr;       // what the driver returned (and frees)
    std::size_t base_bytes = 0; // what it allocated from base
    void* start = nullptr; // what the user got: base, or past it for an alignment the driver does not give
    std::size_t bytes = 0; // what the user asked for, from start
    std::uint32_t device = 0;
    memory_kind kind = memory_kind::device;
    cl_mem view = nullptr; // the cl_mem over [base, base + base_bytes), made on first need
};

class allocation_table {
public:
    void insert(void* p, allocation a);
    // Removes and returns the allocation that starts at `p`; nullopt for any other pointer.
    std::optional<allocation> erase(void* p);
    // The allocation that holds [p, p + bytes) (bytes may be 0), or nullopt.
    std::optional<allocation> find(const void* p, std::size_t bytes = 0) const;
    // The cl_mem view of the allocation holding [p, p + bytes) and p's offset in it (from base); `make`
    // creates the view the first time. nullopt when no allocation holds the range.
    std::optional<std::pair<cl_mem, std::size_t>>
    view_of(const void* p, std::size_t bytes, const std::function<cl_mem(const allocation&)>& make);
    std::vector<allocation> take_all();

private:
    std::map<std::uintptr_t, allocation>::const_iterator holding(const void* p, std::size_t bytes) const;
    mutable std::mutex mutex_;
    std::map<std::uintptr_t, allocation> by_address_;
};

// cl_intel_unified_shared_memory's entry points of one platform (clGetExtensionFunctionAddressForPlatform).
struct intel_usm_functions {
    clHostMemAllocINTEL_fn host_alloc = nullptr;
    clDeviceMemAllocINTEL_fn device_alloc = nullptr;
    clSharedMemAllocINTEL_fn shared_alloc = nullptr;
    clMemBlockingFreeINTEL_fn blocking_free = nullptr;
    clSetKernelArgMemPointerINTEL_fn set_kernel_arg = nullptr;
    clEnqueueMemcpyINTEL_fn memcpy = nullptr;
    clEnqueueMemFillINTEL_fn fill = nullptr;

    // False when the platform lacks one of them.
    bool load(cl_platform_id platform);
};

} // namespace encore::opencl

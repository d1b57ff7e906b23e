// encore::opencl::command_buffer_functions — cl_khr_command_buffer's entry points of one platform, called
// with the signatures of the version the device reports.
//
// The extension changed its recording calls while provisional: up to 0.9.4 (PoCL 3.1 reports 0.9.0) barrier,
// copy and fill take no properties; from 0.9.5 on (and in the final 1.0) every recording call takes a
// `const cl_command_properties_khr*` after the queue. clCommandNDRangeKernelKHR always had one; the SVM
// commands (clCommandSVMMemcpyKHR / clCommandSVMMemFillKHR) exist from 0.9.4, with properties from 0.9.5.
// load() takes the version from CL_DEVICE_EXTENSIONS_WITH_VERSION, so a newer header cannot pick the wrong
// call: the pointers are kept untyped and cast to the reported version's signature at each call.
//
// cl_khr_command_buffer_mutable_dispatch (load_mutable_dispatch) changed clUpdateMutableCommandsKHR the same
// way: up to 0.9.1 it takes one cl_mutable_base_config_khr whose list holds the dispatch configurations (each
// starting with a structure type and a `next` pointer); from 0.9.2 on it takes arrays of configuration types
// and configurations, and a dispatch configuration has neither field. update_dispatch() builds the one the
// reported version reads.
//
//     command_buffer_functions f;
//     if (f.load(platform, caps.command_buffer)) f.barrier(cb, 1, &before, &after);
#pragma once

#include <cstddef>
#include <span>

#include "encore/backends/opencl/detail/api.hpp"

namespace encore::opencl {

// One mutable-dispatch update: the command, the arguments it changes (scalars and local memory; SVM pointers),
// and its new work-item sizes (work_dim 0 and null arrays: unchanged).
struct dispatch_update {
    cl_mutable_command_khr command = nullptr;
    std::span<const cl_mutable_dispatch_arg_khr> arguments;
    std::span<const cl_mutable_dispatch_arg_khr> svm_arguments;
    cl_uint work_dim = 0;
    const std::size_t* global_offset = nullptr;
    const std::size_t* global_size = nullptr;
    const std::size_t* local_size = nullptr;
};

struct command_buffer_functions {
    cl_version version = 0;
    bool final_signatures = false; // 0.9.5 or later

    clCreateCommandBufferKHR_fn create = nullptr;
    clFinalizeCommandBufferKHR_fn finalize = nullptr;
    clReleaseCommandBufferKHR_fn release = nullptr;
    clEnqueueCommandBufferKHR_fn enqueue = nullptr;
    clCommandNDRangeKernelKHR_fn ndrange = nullptr; // the same arity in every version

    // False when the platform lacks one of the calls every version has.
    bool load(cl_platform_id platform, cl_version reported);
    bool has_svm_commands() const noexcept { return svm_memcpy_ && svm_fill_; }
    // clUpdateMutableCommandsKHR of the reported cl_khr_command_buffer_mutable_dispatch version; false when the
    // platform lacks it.
    bool load_mutable_dispatch(cl_platform_id platform, cl_version reported);
    cl_int update_dispatch(cl_command_buffer_khr cb, const dispatch_update& u) const;

    cl_int barrier(cl_command_buffer_khr cb, cl_uint waits, const cl_sync_point_khr* wait_list,
                   cl_sync_point_khr* sync_point) const;
    cl_int copy_buffer(cl_command_buffer_khr cb, cl_mem source, cl_mem destination, std::size_t source_offset,
                       std::size_t destination_offset, std::size_t bytes, cl_uint waits,
                       const cl_sync_point_khr* wait_list, cl_sync_point_khr* sync_point) const;
    cl_int fill_buffer(cl_command_buffer_khr cb, cl_mem buffer, const void* pattern,
                       std::size_t pattern_bytes, std::size_t offset, std::size_t bytes, cl_uint waits,
                       const cl_sync_point_khr* wait_list, cl_sync_point_khr* sync_point) const;
    cl_int svm_memcpy(cl_command_buffer_khr cb, void* destination, const void* source, std::size_t bytes,
                      cl_uint waits, const cl_sync_point_khr* wait_list, cl_sync_point_khr* sync_point) const;
    cl_int svm_fill(cl_command_buffer_khr cb, void* destination, const void* pattern,
                    std::size_t pattern_bytes, std::size_t bytes, cl_uint waits,
                    const cl_sync_point_khr* wait_list, cl_sync_point_khr* sync_point) const;

private:
    void* barrier_ = nullptr;
    void* copy_ = nullptr;
    void* fill_ = nullptr;
    void* svm_memcpy_ = nullptr;
    void* svm_fill_ = nullptr;
    void* update_ = nullptr;
    cl_version mutable_version_ = 0;
};

} // namespace encore::opencl

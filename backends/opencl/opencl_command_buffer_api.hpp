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
//     command_buffer_functions f;
//     if (f.load(platform, caps.command_buffer)) f.barrier(cb, 1, &before, &after);
#pragma once

#include "encore/backends/opencl/detail/api.hpp"

namespace encore::opencl {

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
};

} // namespace encore::opencl

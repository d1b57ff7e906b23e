// The OpenCL entry points, loaded from the ICD loader (libOpenCL.so.1) with dlopen, and checked calls and
// RAII owners of OpenCL handles. Not for you: the plugin and libencore-opencl use it.
//
// Neither library links libOpenCL: the CL headers give the types (decltype of each prototype), api::load()
// gives the functions, so a machine without a loader loads the plugin, which says why it has no device.
// check(result, "clBuildProgram") throws encore::error(errc::backend_failure, "clBuildProgram:
// CL_BUILD_PROGRAM_FAILURE
// (-11)").
//
//     std::string why;
//     const encore::opencl::detail::api* cl = encore::opencl::detail::api::load(why);  // nullptr + why
//     without loader cl_uint n = 0; check(cl->clGetPlatformIDs(0, nullptr, &n), "clGetPlatformIDs");
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "encore/backends/detail/unique_handle.hpp"

namespace encore::opencl::detail {

// Core functions (OpenCL 1.2 .. 2.1) the backend calls; X(name) once each.
#define ENCORE_OPENCL_FUNCTIONS(X)                                                                           \
    X(clGetPlatformIDs)                                                                                      \
    X(clGetPlatformInfo)                                                                                     \
    X(clGetDeviceIDs)                                                                                        \
    X(clGetDeviceInfo)                                                                                       \
    X(clCreateContext)                                                                                       \
    X(clReleaseContext)                                                                                      \
    X(clCreateCommandQueueWithProperties)                                                                    \
    X(clReleaseCommandQueue)                                                                                 \
    X(clFlush)                                                                                               \
    X(clFinish)                                                                                              \
    X(clCreateBuffer)                                                                                        \
    X(clReleaseMemObject)                                                                                    \
    X(clSVMAlloc)                                                                                            \
    X(clSVMFree)                                                                                             \
    X(clCreateProgramWithSource)                                                                             \
    X(clCreateProgramWithBinary)                                                                             \
    X(clBuildProgram)                                                                                        \
    X(clGetProgramInfo)                                                                                      \
    X(clGetProgramBuildInfo)                                                                                 \
    X(clReleaseProgram)                                                                                      \
    X(clCreateKernel)                                                                                        \
    X(clReleaseKernel)                                                                                       \
    X(clSetKernelArg)                                                                                        \
    X(clSetKernelArgSVMPointer)                                                                              \
    X(clGetKernelInfo)                                                                                       \
    X(clGetKernelWorkGroupInfo)                                                                              \
    X(clEnqueueNDRangeKernel)                                                                                \
    X(clEnqueueSVMMemcpy)                                                                                    \
    X(clEnqueueSVMMemFill)                                                                                   \
    X(clEnqueueSVMMap)                                                                                       \
    X(clEnqueueSVMUnmap)                                                                                     \
    X(clEnqueueCopyBuffer)                                                                                   \
    X(clEnqueueMarkerWithWaitList)                                                                           \
    X(clEnqueueBarrierWithWaitList)                                                                          \
    X(clCreateUserEvent)                                                                                     \
    X(clSetUserEventStatus)                                                                                  \
    X(clWaitForEvents)                                                                                       \
    X(clGetEventInfo)                                                                                        \
    X(clGetEventProfilingInfo)                                                                               \
    X(clSetEventCallback)                                                                                    \
    X(clRetainEvent)                                                                                         \
    X(clReleaseEvent)                                                                                        \
    X(clGetExtensionFunctionAddressForPlatform)

// Loaded when present (OpenCL 2.1): a loader without it builds no SPIR-V.
#define ENCORE_OPENCL_OPTIONAL_FUNCTIONS(X) X(clCreateProgramWithIL)

struct api {
#define ENCORE_OPENCL_DECLARE(name) decltype(&::name) name = nullptr;
    ENCORE_OPENCL_FUNCTIONS(ENCORE_OPENCL_DECLARE)
    ENCORE_OPENCL_OPTIONAL_FUNCTIONS(ENCORE_OPENCL_DECLARE)
#undef ENCORE_OPENCL_DECLARE

    // The process's one instance: dlopen of libOpenCL.so.1 (never closed: callbacks of the driver may run
    // until exit). nullptr with the reason in `why_not` when the loader or a core function is missing.
    static const api* load(std::string& why_not);
    // The loaded instance; throws errc::backend_failure when there is none.
    static const api& get();
};

// "CL_OUT_OF_RESOURCES (-5)".
std::string describe(cl_int result);
[[noreturn]] void fail(cl_int result, std::string_view call, std::string_view context = {});
inline void check(cl_int result, std::string_view call, std::string_view context = {}) {
    if (result != CL_SUCCESS) fail(result, call, context);
}

// Owners of one OpenCL object each (released through the loaded api).
template <typename Handle> void release_handle(Handle h) noexcept;
template <> void release_handle<cl_context>(cl_context h) noexcept;
template <> void release_handle<cl_command_queue>(cl_command_queue h) noexcept;
template <> void release_handle<cl_mem>(cl_mem h) noexcept;
template <> void release_handle<cl_program>(cl_program h) noexcept;
template <> void release_handle<cl_kernel>(cl_kernel h) noexcept;
template <> void release_handle<cl_event>(cl_event h) noexcept;
template <typename Handle> using unique_handle = encore::detail::unique_handle<Handle, &release_handle<Handle>>;

using context_handle = unique_handle<cl_context>;
using queue_handle = unique_handle<cl_command_queue>;
using mem_handle = unique_handle<cl_mem>;
using program_handle = unique_handle<cl_program>;
using kernel_handle = unique_handle<cl_kernel>;
using event_handle = unique_handle<cl_event>;

// clGetDeviceInfo of a string / a fixed-size value.
std::string device_string(cl_device_id d, cl_device_info what);
template <typename T> T device_value(cl_device_id d, cl_device_info what, T fallback = T{}) {
    T value{};
    if (api::get().clGetDeviceInfo(d, what, sizeof value, &value, nullptr) != CL_SUCCESS) return fallback;
    return value;
}
std::string platform_string(cl_platform_id p, cl_platform_info what);

// Every device of every platform, in the loader's order: Encore's device numbers. Empty with a reason when
// there is no platform.
struct platform_device {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
};
std::vector<platform_device> enumerate_devices(std::string& why_none);

} // namespace encore::opencl::detail

// encore::level_zero::detail::api — the Level Zero loader (libze_loader.so.1), opened with dlopen, and its
// calls. Not for you: the plugin and libencore-level_zero call through it, so neither links the loader and a
// machine without it still loads Encore (the plugin then says why in the ENCORE_TRACE trace).
//
// Also here: check() (a ze_result_t that is not ZE_RESULT_SUCCESS becomes encore::error naming the call), the
// RAII handles of every object the backend creates, and the list of (driver, device) pairs both libraries
// number devices by.
//
//     std::string why;
//     const api* ze = api::load(why);        // nullptr without the loader or when zeInit fails
//     check(ze->zeContextCreate(driver, &desc, &context), "zeContextCreate");
#pragma once

#include <level_zero/ze_api.h>

#include <string>
#include <vector>

#include "encore/backends/detail/unique_handle.hpp"
#include "encore/graph/error.hpp"

namespace encore::level_zero::detail {

#define ENCORE_ZE_FUNCTIONS(X)                                                                               \
    X(zeInit)                                                                                                \
    X(zeDeviceGetModuleProperties)                                                                           \
    X(zeDriverGet) X(zeDriverGetProperties) X(zeDriverGetApiVersion) X(zeDeviceGet) X(zeDeviceGetProperties) \
        X(zeDeviceGetComputeProperties) X(zeDeviceGetMemoryProperties) X(zeDeviceGetGlobalTimestamps)        \
            X(zeContextCreate) X(zeContextDestroy) X(zeMemAllocDevice) X(zeMemAllocHost) X(zeMemAllocShared) \
                X(zeMemFree) X(zeCommandQueueCreate) X(zeCommandQueueDestroy) X(                             \
                    zeCommandQueueExecuteCommandLists) X(zeCommandQueueSynchronize) X(zeCommandListCreate)   \
                    X(zeCommandListCreateImmediate) X(zeCommandListDestroy) X(zeCommandListClose)            \
                        X(zeCommandListReset) X(zeCommandListAppendBarrier) X(zeCommandListAppendMemoryCopy) \
                            X(zeCommandListAppendMemoryFill) X(zeCommandListAppendMemoryPrefetch)            \
                                X(zeCommandListAppendEventReset) X(zeCommandListAppendQueryKernelTimestamps) \
                                    X(zeCommandListAppendLaunchKernel) X(zeFenceCreate) X(zeFenceDestroy)    \
                                        X(zeFenceHostSynchronize) X(zeFenceQueryStatus) X(zeFenceReset) X(   \
                                            zeEventPoolCreate) X(zeEventPoolDestroy) X(zeEventCreate)        \
                                            X(zeEventDestroy) X(zeEventHostSignal) X(zeEventHostSynchronize) \
                                                X(zeEventQueryStatus) X(zeEventHostReset)                    \
                                                    X(zeEventQueryKernelTimestamp) X(zeModuleCreate)         \
                                                        X(zeModuleDestroy) X(zeModuleGetNativeBinary)        \
                                                            X(zeModuleGetKernelNames)                        \
                                                                X(zeModuleBuildLogGetString)                 \
                                                                    X(zeModuleBuildLogDestroy)               \
                                                                        X(zeKernelCreate) X(zeKernelDestroy) \
                                                                            X(zeKernelSetGroupSize) X(       \
                                                                                zeKernelSuggestGroupSize)    \
                                                                                X(zeKernelSetArgumentValue)

struct api {
#define ENCORE_ZE_MEMBER(name) decltype(&::name) name = nullptr;
    ENCORE_ZE_FUNCTIONS(ENCORE_ZE_MEMBER)
#undef ENCORE_ZE_MEMBER

    // Opens the loader and calls zeInit once per process; nullptr and `why_not` when either fails.
    static const api* load(std::string& why_not);
    // The loaded api; throws errc::backend_failure when load() has not succeeded.
    static const api& get();
};

// "ZE_RESULT_ERROR_INVALID_ARGUMENT (0x78000004)".
std::string describe(ze_result_t r);
// Throws encore::error(backend_failure) naming `call`, `what` and the result when r is not ZE_RESULT_SUCCESS.
void check(ze_result_t r, const char* call, const std::string& what = {});

struct driver_device {
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
};
// Every device of every driver, in the loader's order: Encore's device numbers. Empty with `why_not` set when
// there is none.
std::vector<driver_device> enumerate_devices(const api& ze, std::string& why_not);

inline ze_result_t destroy_context(ze_context_handle_t h) {
    return api::get().zeContextDestroy(h);
}
inline ze_result_t destroy_queue(ze_command_queue_handle_t h) {
    return api::get().zeCommandQueueDestroy(h);
}
inline ze_result_t destroy_list(ze_command_list_handle_t h) {
    return api::get().zeCommandListDestroy(h);
}
inline ze_result_t destroy_fence(ze_fence_handle_t h) {
    return api::get().zeFenceDestroy(h);
}
inline ze_result_t destroy_pool(ze_event_pool_handle_t h) {
    return api::get().zeEventPoolDestroy(h);
}
inline ze_result_t destroy_event(ze_event_handle_t h) {
    return api::get().zeEventDestroy(h);
}
inline ze_result_t destroy_module(ze_module_handle_t h) {
    return api::get().zeModuleDestroy(h);
}
inline ze_result_t destroy_kernel(ze_kernel_handle_t h) {
    return api::get().zeKernelDestroy(h);
}
inline ze_result_t destroy_build_log(ze_module_build_log_handle_t h) {
    return api::get().zeModuleBuildLogDestroy(h);
}

using context_handle = encore::detail::unique_handle<ze_context_handle_t, &destroy_context>;
using queue_handle = encore::detail::unique_handle<ze_command_queue_handle_t, &destroy_queue>;
using list_handle = encore::detail::unique_handle<ze_command_list_handle_t, &destroy_list>;
using fence_handle = encore::detail::unique_handle<ze_fence_handle_t, &destroy_fence>;
using pool_handle = encore::detail::unique_handle<ze_event_pool_handle_t, &destroy_pool>;
using event_handle = encore::detail::unique_handle<ze_event_handle_t, &destroy_event>;
using module_handle = encore::detail::unique_handle<ze_module_handle_t, &destroy_module>;
using kernel_handle = encore::detail::unique_handle<ze_kernel_handle_t, &destroy_kernel>;
using build_log_handle = encore::detail::unique_handle<ze_module_build_log_handle_t, &destroy_build_log>;

// The text of a build log ("" when there is none).
std::string build_log_text(const api& ze, ze_module_build_log_handle_t log);

} // namespace encore::level_zero::detail

#include "api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "encore/graph/error.hpp"

namespace encore::opencl::detail {

namespace {

struct loaded {
    api functions;
    std::string why_not;
    bool ok = false;
};

loaded& instance() {
    static loaded l = [] {
        loaded result;
        // ENCORE_OPENCL_LIBRARY: another OpenCL library to load (a path or a name), e.g. a layer in front of
        // the loader; by default the ICD loader.
        const char* chosen = std::getenv("ENCORE_OPENCL_LIBRARY");
        const std::string name = chosen && *chosen ? chosen : "libOpenCL.so.1";
        void* library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            const char* why = dlerror();
            result.why_not = why ? why : name + ": cannot be loaded";
            return result;
        }
        bool complete = true;
#define ENCORE_OPENCL_RESOLVE(name_)                                                                         \
    result.functions.name_ = reinterpret_cast<decltype(&::name_)>(dlsym(library, #name_));                   \
    if (!result.functions.name_ && complete) {                                                               \
        complete = false;                                                                                    \
        result.why_not = name + " has no " #name_ " (an OpenCL 2.0 loader is needed)";                       \
    }
        ENCORE_OPENCL_FUNCTIONS(ENCORE_OPENCL_RESOLVE)
#undef ENCORE_OPENCL_RESOLVE
#define ENCORE_OPENCL_RESOLVE_OPTIONAL(name)                                                                 \
    result.functions.name = reinterpret_cast<decltype(&::name)>(dlsym(library, #name));
        ENCORE_OPENCL_OPTIONAL_FUNCTIONS(ENCORE_OPENCL_RESOLVE_OPTIONAL)
#undef ENCORE_OPENCL_RESOLVE_OPTIONAL
        result.ok = complete;
        return result;
    }();
    return l;
}

} // namespace

const api* api::load(std::string& why_not) {
    loaded& l = instance();
    if (!l.ok) {
        why_not = l.why_not;
        return nullptr;
    }
    return &l.functions;
}

const api& api::get() {
    loaded& l = instance();
    if (!l.ok) throw error(errc::backend_failure, "OpenCL is not available: " + l.why_not);
    return l.functions;
}

std::string describe(cl_int result) {
    const char* name = nullptr;
    switch (result) {
    case CL_SUCCESS:
        name = "CL_SUCCESS";
        break;
    case CL_DEVICE_NOT_FOUND:
        name = "CL_DEVICE_NOT_FOUND";
        break;
    case CL_DEVICE_NOT_AVAILABLE:
        name = "CL_DEVICE_NOT_AVAILABLE";
        break;
    case CL_COMPILER_NOT_AVAILABLE:
        name = "CL_COMPILER_NOT_AVAILABLE";
        break;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
        name = "CL_MEM_OBJECT_ALLOCATION_FAILURE";
        break;
    case CL_OUT_OF_RESOURCES:
        name = "CL_OUT_OF_RESOURCES";
        break;
    case CL_OUT_OF_HOST_MEMORY:
        name = "CL_OUT_OF_HOST_MEMORY";
        break;
    case CL_BUILD_PROGRAM_FAILURE:
        name = "CL_BUILD_PROGRAM_FAILURE";
        break;
    case CL_INVALID_VALUE:
        name = "CL_INVALID_VALUE";
        break;
    case CL_INVALID_DEVICE:
        name = "CL_INVALID_DEVICE";
        break;
    case CL_INVALID_CONTEXT:
        name = "CL_INVALID_CONTEXT";
        break;
    case CL_INVALID_COMMAND_QUEUE:
        name = "CL_INVALID_COMMAND_QUEUE";
        break;
    case CL_INVALID_MEM_OBJECT:
        name = "CL_INVALID_MEM_OBJECT";
        break;
    case CL_INVALID_BINARY:
        name = "CL_INVALID_BINARY";
        break;
    case CL_INVALID_BUILD_OPTIONS:
        name = "CL_INVALID_BUILD_OPTIONS";
        break;
    case CL_INVALID_PROGRAM:
        name = "CL_INVALID_PROGRAM";
        break;
    case CL_INVALID_PROGRAM_EXECUTABLE:
        name = "CL_INVALID_PROGRAM_EXECUTABLE";
        break;
    case CL_INVALID_KERNEL_NAME:
        name = "CL_INVALID_KERNEL_NAME";
        break;
    case CL_INVALID_KERNEL:
        name = "CL_INVALID_KERNEL";
        break;
    case CL_INVALID_ARG_INDEX:
        name = "CL_INVALID_ARG_INDEX";
        break;
    case CL_INVALID_ARG_VALUE:
        name = "CL_INVALID_ARG_VALUE";
        break;
    case CL_INVALID_ARG_SIZE:
        name = "CL_INVALID_ARG_SIZE";
        break;
    case CL_INVALID_KERNEL_ARGS:
        name = "CL_INVALID_KERNEL_ARGS";
        break;
    case CL_INVALID_WORK_DIMENSION:
        name = "CL_INVALID_WORK_DIMENSION";
        break;
    case CL_INVALID_WORK_GROUP_SIZE:
        name = "CL_INVALID_WORK_GROUP_SIZE";
        break;
    case CL_INVALID_WORK_ITEM_SIZE:
        name = "CL_INVALID_WORK_ITEM_SIZE";
        break;
    case CL_INVALID_GLOBAL_OFFSET:
        name = "CL_INVALID_GLOBAL_OFFSET";
        break;
    case CL_INVALID_EVENT_WAIT_LIST:
        name = "CL_INVALID_EVENT_WAIT_LIST";
        break;
    case CL_INVALID_EVENT:
        name = "CL_INVALID_EVENT";
        break;
    case CL_INVALID_OPERATION:
        name = "CL_INVALID_OPERATION";
        break;
    case CL_INVALID_BUFFER_SIZE:
        name = "CL_INVALID_BUFFER_SIZE";
        break;
    case CL_INVALID_GLOBAL_WORK_SIZE:
        name = "CL_INVALID_GLOBAL_WORK_SIZE";
        break;
    case CL_INVALID_PROPERTY:
        name = "CL_INVALID_PROPERTY";
        break;
    case CL_INVALID_QUEUE_PROPERTIES:
        name = "CL_INVALID_QUEUE_PROPERTIES";
        break;
    case CL_PLATFORM_NOT_FOUND_KHR:
        name = "CL_PLATFORM_NOT_FOUND_KHR";
        break;
    case CL_INVALID_COMMAND_BUFFER_KHR:
        name = "CL_INVALID_COMMAND_BUFFER_KHR";
        break;
    case CL_INVALID_SYNC_POINT_WAIT_LIST_KHR:
        name = "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR";
        break;
    case CL_INCOMPATIBLE_COMMAND_QUEUE_KHR:
        name = "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR";
        break;
    case CL_INVALID_MUTABLE_COMMAND_KHR:
        name = "CL_INVALID_MUTABLE_COMMAND_KHR";
        break;
    default:
        name = "an OpenCL error";
        break;
    }
    return std::string(name) + " (" + std::to_string(result) + ")";
}

void fail(cl_int result, std::string_view call, std::string_view context) {
    std::string message = std::string(call) + ": " + describe(result);
    if (!context.empty()) message += " [" + std::string(context) + "]";
    throw error(errc::backend_failure, message);
}

template <> void release_handle<cl_context>(cl_context h) noexcept {
    api::get().clReleaseContext(h);
}
template <> void release_handle<cl_command_queue>(cl_command_queue h) noexcept {
    api::get().clReleaseCommandQueue(h);
}
template <> void release_handle<cl_mem>(cl_mem h) noexcept {
    api::get().clReleaseMemObject(h);
}
template <> void release_handle<cl_program>(cl_program h) noexcept {
    api::get().clReleaseProgram(h);
}
template <> void release_handle<cl_kernel>(cl_kernel h) noexcept {
    api::get().clReleaseKernel(h);
}
template <> void release_handle<cl_event>(cl_event h) noexcept {
    api::get().clReleaseEvent(h);
}

std::string device_string(cl_device_id d, cl_device_info what) {
    const api& cl = api::get();
    std::size_t size = 0;
    if (cl.clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    if (cl.clGetDeviceInfo(d, what, size, text.data(), nullptr) != CL_SUCCESS) return {};
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
    const api& cl = api::get();
    std::size_t size = 0;
    if (cl.clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    if (cl.clGetPlatformInfo(p, what, size, text.data(), nullptr) != CL_SUCCESS) return {};
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

std::vector<platform_device> enumerate_devices(std::string& why_none) {
    std::vector<platform_device> found;
    const api* cl = api::load(why_none);
    if (!cl) return found;
    cl_uint platforms = 0;
    const cl_int r = cl->clGetPlatformIDs(0, nullptr, &platforms);
    if (r != CL_SUCCESS || platforms == 0) {
        why_none = r == CL_SUCCESS || r == CL_PLATFORM_NOT_FOUND_KHR
                       ? "no OpenCL platform (the loader found no ICD in /etc/OpenCL/vendors)"
                       : "clGetPlatformIDs: " + describe(r);
        return found;
    }
    std::vector<cl_platform_id> ids(platforms);
    check(cl->clGetPlatformIDs(platforms, ids.data(), nullptr), "clGetPlatformIDs");
    for (cl_platform_id p : ids) {
        cl_uint count = 0;
        if (cl->clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0)
            continue;
        std::vector<cl_device_id> devices(count);
        check(cl->clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr), "clGetDeviceIDs");
        for (cl_device_id d : devices)
            found.push_back({p, d});
    }
    if (found.empty()) why_none = std::to_string(platforms) + " OpenCL platform(s), but none has a device";
    return found;
}

} // namespace encore::opencl::detail

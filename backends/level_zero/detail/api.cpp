#include "api.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <mutex>

namespace encore::level_zero::detail {

namespace {
const api* loaded = nullptr;
std::string load_failure;
} // namespace

const api* api::load(std::string& why_not) {
    static std::once_flag once;
    std::call_once(once, [] {
        // Never closed: drivers the loader opened keep threads and state for the life of the process.
        void* library = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            const char* why = dlerror();
            load_failure = std::string("libze_loader.so.1 not found (") + (why ? why : "dlopen failed") + ")";
            return;
        }
        static api table;
#define ENCORE_ZE_LOAD(name)                                                                                 \
    table.name = reinterpret_cast<decltype(&::name)>(dlsym(library, #name));                                 \
    if (!table.name) {                                                                                       \
        load_failure = "libze_loader.so.1 has no " #name;                                                    \
        return;                                                                                              \
    }
        ENCORE_ZE_FUNCTIONS(ENCORE_ZE_LOAD)
#undef ENCORE_ZE_LOAD
        const ze_result_t r = table.zeInit(0);
        if (r != ZE_RESULT_SUCCESS) {
            load_failure = "zeInit failed: " + describe(r) + " (no Level Zero driver)";
            return;
        }
        loaded = &table;
    });
    if (!loaded) why_not = load_failure;
    return loaded;
}

const api& api::get() {
    std::string why;
    if (const api* a = load(why)) return *a;
    throw error(errc::backend_failure, "level_zero: " + why);
}

std::string describe(ze_result_t r) {
    const char* name = "an unknown result";
    switch (r) {
#define ENCORE_ZE_RESULT(value)                                                                              \
    case value:                                                                                              \
        name = #value;                                                                                       \
        break;
        ENCORE_ZE_RESULT(ZE_RESULT_SUCCESS)
        ENCORE_ZE_RESULT(ZE_RESULT_NOT_READY)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_UNINITIALIZED)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_SIZE)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
        ENCORE_ZE_RESULT(ZE_RESULT_ERROR_UNKNOWN)
#undef ENCORE_ZE_RESULT
    default:
        break;
    }
    char code[32];
    std::snprintf(code, sizeof code, " (0x%x)", static_cast<unsigned>(r));
    return name + std::string(code);
}

void check(ze_result_t r, const char* call, const std::string& what) {
    if (r == ZE_RESULT_SUCCESS) return;
    throw error(errc::backend_failure,
                std::string(call) + (what.empty() ? "" : " (" + what + ")") + " failed: " + describe(r));
}

std::vector<driver_device> enumerate_devices(const api& ze, std::string& why_not) {
    std::uint32_t driver_count = 0;
    check(ze.zeDriverGet(&driver_count, nullptr), "zeDriverGet");
    std::vector<ze_driver_handle_t> drivers(driver_count);
    if (driver_count) check(ze.zeDriverGet(&driver_count, drivers.data()), "zeDriverGet");
    std::vector<driver_device> out;
    for (ze_driver_handle_t d : drivers) {
        std::uint32_t count = 0;
        check(ze.zeDeviceGet(d, &count, nullptr), "zeDeviceGet");
        std::vector<ze_device_handle_t> devices(count);
        if (count) check(ze.zeDeviceGet(d, &count, devices.data()), "zeDeviceGet");
        for (ze_device_handle_t device : devices)
            out.push_back({d, device});
    }
    if (out.empty())
        why_not =
            "the Level Zero loader found " + std::to_string(driver_count) + " driver(s), none has a device";
    return out;
}

std::string build_log_text(const api& ze, ze_module_build_log_handle_t log) {
    if (!log) return {};
    std::size_t size = 0;
    if (ze.zeModuleBuildLogGetString(log, &size, nullptr) != ZE_RESULT_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    if (ze.zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS) return {};
    while (!text.empty() && (text.back() == '\0' || text.back() == '\n'))
        text.pop_back();
    return text;
}

} // namespace encore::level_zero::detail

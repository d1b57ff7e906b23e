// A test plugin: libencore-backend-nodriver.so, a backend whose driver is missing. It must be one line in the
// trace, not a failure: what a CUDA plugin does on a machine without libcuda.so.1.
#include <dlfcn.h>

#include "encore/backends/backend.hpp"

extern "C" ENCORE_BACKEND_EXPORT void encore_backend_entry(encore::backend_plugin_request* request) {
    // A real plugin opens its driver here; this one asks for a library no machine has.
    void* driver = ::dlopen("libencore-test-driver-that-does-not-exist.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver) {
        const char* why = ::dlerror();
        request->unavailable_reason = std::string("no driver: ") + (why ? why : "dlopen failed");
        return;
    }
    ::dlclose(driver);
}

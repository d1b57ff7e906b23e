// encore::hip::open_hip_library — the HIP runtime (libamdhip64, which also holds hiprtc), loaded at run time by
// the HIP plugin and by libencore-hip, so that neither needs it to start. Not for you.
//
//     std::string why;
//     void* library = encore::hip::open_hip_library(why); // nullptr: `why` says what dlopen answered
#pragma once

#include <dlfcn.h>

#include <string>

namespace encore::hip {

inline void* open_hip_library(std::string& why_not) {
    // ROCm 5 (Debian 12's libamdhip64-5), then later ones and an unversioned development link.
    for (const char* name : {"libamdhip64.so.5", "libamdhip64.so.6", "libamdhip64.so.7", "libamdhip64.so"})
        if (void* library = ::dlopen(name, RTLD_NOW | RTLD_LOCAL)) return library;
    const char* why = ::dlerror();
    why_not = std::string("the HIP runtime could not be loaded: ") + (why ? why : "libamdhip64.so.5 not found");
    return nullptr;
}

// Points `f` at the library's `symbol`; records the first missing one in `missing`.
template <typename F> void bind_symbol(void* library, F& f, const char* symbol, std::string& missing) {
    f = reinterpret_cast<F>(::dlsym(library, symbol));
    if (!f && missing.empty()) missing = std::string("the HIP runtime has no symbol ") + symbol;
}

} // namespace encore::hip

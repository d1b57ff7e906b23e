// Whether the OpenCL backend is there to test: the check both test mains make before anything runs.
#pragma once

#include <cstdio>
#include <string>

#include "encore/backends/backend_registry.hpp"

namespace encore::opencl_testing {

// 0 when the opencl backend loaded with a device. Otherwise prints why and returns 77 (meson's "skipped") when
// OpenCL itself is missing (no loader, no platform, no device), or 1 when the plugin failed for another reason:
// a suite must never pass over zero devices.
inline int opencl_unavailable_status() {
    auto& registry = backend_registry::global();
    if (registry.find("opencl")) return 0;
    std::string reason = "the opencl backend was not loaded";
    for (const auto& line : registry.trace())
        if (line.find("'opencl'") != std::string::npos) reason = line;
    const bool no_opencl = reason.find("no OpenCL platform") != std::string::npos ||
                           reason.find("libOpenCL.so.1") != std::string::npos ||
                           reason.find("none has a device") != std::string::npos;
    std::printf("%s: %s\n", no_opencl ? "no OpenCL device" : "FAILED: the opencl backend did not load",
                reason.c_str());
    return no_opencl ? 77 : 1;
}

} // namespace encore::opencl_testing

// Whether a plugin backend is there to test: the check the behaviour-suite runner (require_backend) and the
// backend suites' mains make before anything runs.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "encore/runtime/backend_registry.hpp"

namespace encore::testing {

// 0 when backend `name` loaded with a device. Otherwise prints why and returns 77 (meson's "skipped") when
// the backend's driver stack itself is missing (no loader, no platform or driver, no device), or 1 when the
// plugin failed for another reason: a suite must never pass over zero devices.
inline int backend_unavailable_status(std::string_view name) {
    auto& registry = backend_registry::global();
    if (registry.find(name)) return 0;
    const std::string quoted = "'" + std::string(name) + "'";
    std::string reason = "the " + std::string(name) + " backend was not loaded";
    for (const auto& line : registry.trace())
        if (line.find(quoted) != std::string::npos) reason = line;
    // What each plugin says when its driver stack is missing (backend_plugin_request::unavailable_reason).
    constexpr std::string_view missing[] = {"no OpenCL platform", "libOpenCL.so.1", "libze_loader.so.1",
                                            "no Level Zero driver", "none has a device"};
    bool no_driver = false;
    for (auto marker : missing)
        no_driver = no_driver || reason.find(marker) != std::string::npos;
    std::printf("%s: %s\n",
                no_driver ? ("no " + std::string(name) + " device").c_str()
                          : ("FAILED: the " + std::string(name) + " backend did not load").c_str(),
                reason.c_str());
    return no_driver ? 77 : 1;
}

} // namespace encore::testing

// The OpenCL tests' main: without an OpenCL device (no loader, no platform, no plugin) it says why and exits
// 77, meson's "skipped" (only when OpenCL itself is missing: a plugin that fails otherwise fails); otherwise
// doctest runs the tests.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "encore/backends/backend_registry.hpp"

int main(int argc, char** argv) {
    auto& registry = encore::backend_registry::global();
    if (!registry.find("opencl")) {
        std::string reason = "the opencl backend was not loaded";
        for (const auto& line : registry.trace())
            if (line.find("'opencl'") != std::string::npos) reason = line;
        // Skipped only where OpenCL itself is missing; a plugin that fails for another reason fails the
        // tests.
        const bool no_opencl = reason.find("no OpenCL platform") != std::string::npos ||
                               reason.find("libOpenCL.so.1") != std::string::npos ||
                               reason.find("none has a device") != std::string::npos;
        std::printf("%s: %s\n", no_opencl ? "no OpenCL device" : "FAILED: the opencl backend did not load",
                    reason.c_str());
        return no_opencl ? 77 : 1;
    }
    doctest::Context context(argc, argv);
    return context.run();
}

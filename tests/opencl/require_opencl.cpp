// require_opencl PROGRAM [ARGS...]: runs PROGRAM (a behaviour suite) when the OpenCL backend has a device,
// and exits 77 (meson's "skipped") with the reason when OpenCL itself is missing (no loader, no platform), so
// that a suite run with ENCORE_BACKENDS=opencl never passes over zero devices. A plugin that fails to load
// for another reason fails (exit 1).
#include <unistd.h>

#include <cstdio>
#include <string>

#include "encore/backends/backend_registry.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s PROGRAM [ARGS...]\n", argv[0]);
        return 2;
    }
    auto& registry = encore::backend_registry::global();
    if (!registry.find("opencl")) {
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
    execv(argv[1], argv + 1);
    std::perror(argv[1]);
    return 1;
}

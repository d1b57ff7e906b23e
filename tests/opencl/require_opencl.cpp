// require_opencl PROGRAM [ARGS...]: runs PROGRAM (a behaviour suite) when the OpenCL backend has a device,
// and exits 77 (meson's "skipped") with the reason when OpenCL itself is missing (no loader, no platform), so
// that a suite run with ENCORE_BACKENDS=opencl never passes over zero devices. A plugin that fails to load
// for another reason fails (exit 1).
#include <unistd.h>

#include <cstdio>

#include "opencl_availability.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s PROGRAM [ARGS...]\n", argv[0]);
        return 2;
    }
    if (const int status = encore::opencl_testing::opencl_unavailable_status()) return status;
    execv(argv[1], argv + 1);
    std::perror(argv[1]);
    return 1;
}

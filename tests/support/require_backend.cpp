// require_backend BACKEND PROGRAM [ARGS...]: runs PROGRAM (a behaviour suite, with ENCORE_BACKENDS naming
// BACKEND alone) when that backend has a device, and exits 77 (meson's "skipped") with the reason when its
// driver stack is missing (no loader, no platform or driver), so that a suite never passes over zero devices.
// A plugin that fails to load for another reason fails (exit 1).
#include <unistd.h>

#include <cstdio>

#include "backend_availability.hpp"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s BACKEND PROGRAM [ARGS...]\n", argv[0]);
        return 2;
    }
    if (const int status = encore::testing::backend_unavailable_status(argv[1])) return status;
    execv(argv[2], argv + 2);
    std::perror(argv[2]);
    return 1;
}

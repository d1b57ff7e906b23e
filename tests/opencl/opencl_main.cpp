// The OpenCL tests' main: without an OpenCL device (no loader, no platform, no plugin) it says why and exits
// 77, meson's "skipped" (only when OpenCL itself is missing: a plugin that fails otherwise fails); otherwise
// doctest runs the tests.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "support/backend_availability.hpp"

int main(int argc, char** argv) {
    if (const int status = encore::testing::backend_unavailable_status("opencl")) return status;
    doctest::Context context(argc, argv);
    return context.run();
}

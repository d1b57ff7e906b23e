// The Level Zero tests' main: without the Level Zero backend (no loader, no driver) it says why and exits 77,
// meson's "skipped"; a plugin that fails otherwise fails; otherwise doctest runs the tests.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "support/backend_availability.hpp"

int main(int argc, char** argv) {
    if (const int status = encore::testing::backend_unavailable_status("level_zero")) return status;
    doctest::Context context(argc, argv);
    return context.run();
}

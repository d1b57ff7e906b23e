// The HIP tests' main: without a HIP device (no HIP runtime, no AMD GPU) it says why, in the HIP runtime's own
// words as the registry's trace has them, and exits 77 (meson's "skipped"); otherwise doctest runs the GPU tests
// of tests/gpu on the HIP backend.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "encore/runtime/backend_registry.hpp"

int main(int argc, char** argv) {
    auto& registry = encore::backend_registry::global();
    if (!registry.find("hip")) {
        std::string reason;
        for (const auto& line : registry.trace())
            if (line.find("'hip'") != std::string::npos) reason = line;
        if (reason.empty()) {
            std::printf("FAILED: the hip backend was neither loaded nor reported unavailable in the registry's "
                        "trace (is ENCORE_BACKEND_PATH right?)\n");
            return 1;
        }
        std::printf("no HIP device: %s\n", reason.c_str());
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}

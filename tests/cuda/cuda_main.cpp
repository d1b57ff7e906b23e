// The CUDA tests' main: without a CUDA device (no driver, no GPU, no plugin) it says why and exits 77, meson's
// "skipped"; otherwise doctest runs the tests.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "backends/backend_registry.hpp"

int main(int argc, char** argv) {
    auto& registry = encore::backend_registry::global();
    if (!registry.find("cuda")) {
        std::string reason = "the cuda backend was not loaded";
        for (const auto& line : registry.trace())
            if (line.find("'cuda'") != std::string::npos) reason = line;
        std::printf("no CUDA device: %s\n", reason.c_str());
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}

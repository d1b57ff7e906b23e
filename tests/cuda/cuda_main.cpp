// The CUDA tests' main: without a CUDA device (no driver, no GPU, no plugin) it says why and exits 77, meson's
// "skipped"; otherwise doctest runs the tests. One check runs everywhere first: this program's nvcc translation
// units noted that it carries CUDA code, so a CUDA GPU may be its default device (program_device_code.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "encore/runtime/backend_registry.hpp"
#include "encore/runtime/program_device_code.hpp"

int main(int argc, char** argv) {
    if (!encore::program_has_device_code("cuda")) {
        std::printf("FAILED: the nvcc translation units of this program did not note CUDA device code before "
                    "main (backends/cuda/single_source.hpp)\n");
        return 1;
    }
    std::printf("this program carries device code for: %s\n", encore::program_device_code().at(0).c_str());
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

// The API fuzzer (docs/reliability.md): seeded random sequences of sycl_ext_oneapi_graph and queue
// calls, checked against a reference model.
//
//   fuzz_api_test                               the CI-sized doctest case (about a second)
//   fuzz_api_test --seed 1 --iterations 1000    a long run: one sequence per seed 1..1000
//                 [--calls 200] [--verbose]     calls per sequence; print every call and what it was expected
//                 to do
//
// A failing seed prints the shortest call sequence found that fails the same way, and the command to rerun
// it. ENCORE_FUZZ_HANG_SECONDS (default 120): a call that does not return for that long aborts the run (a
// hang).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fuzz_runner.hpp"

namespace {
// Seconds without a call returning before the watchdog calls it a hang and aborts with the call in progress.
int hang_seconds() {
    const char* text = std::getenv("ENCORE_FUZZ_HANG_SECONDS");
    return text ? std::atoi(text) : 120;
}

void print_statistics(const fuzz::fuzz_statistics& s, double seconds) {
    std::printf(
        "fuzz: %llu sequences, %llu calls made (%llu misuses refused as specified, %llu recorded "
        "submissions, %llu eager submissions, %llu graph launches), %llu skipped; %llu array read-backs "
        "compared with the model (%llu not: raced), %.1f s\n",
        static_cast<unsigned long long>(s.sequences), static_cast<unsigned long long>(s.calls),
        static_cast<unsigned long long>(s.invalid), static_cast<unsigned long long>(s.recorded),
        static_cast<unsigned long long>(s.eager), static_cast<unsigned long long>(s.launches),
        static_cast<unsigned long long>(s.skipped), static_cast<unsigned long long>(s.arrays_compared),
        static_cast<unsigned long long>(s.arrays_unknown), seconds);
}
} // namespace

TEST_CASE("API fuzzer: seeded graph and queue call sequences do what the reference model says") {
    fuzz::start_watchdog(hang_seconds());
    fuzz::fuzz_statistics statistics;
    const auto start = std::chrono::steady_clock::now();
    // CI-sized (about a second; some 10 s under the sanitizers): long runs go through --seed/--iterations.
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        CAPTURE(seed);
        auto failure = fuzz::fuzz_seed(seed, 200, statistics);
        if (failure) FAIL(*failure);
    }
    print_statistics(statistics,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    CHECK(statistics.invalid > 0); // the sequences did try misuses
    CHECK(statistics.launches > 0);
}

int main(int argc, char** argv) {
    std::uint64_t first_seed = 1, iterations = 0, calls = 200;
    bool standalone = false, verbose = false;
    for (int i = 1; i < argc; ++i) {
        auto number = [&] {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a number\n", argv[i]);
                std::exit(2);
            }
            return std::strtoull(argv[++i], nullptr, 10);
        };
        if (!std::strcmp(argv[i], "--seed"))
            first_seed = number(), standalone = true;
        else if (!std::strcmp(argv[i], "--iterations"))
            iterations = number(), standalone = true;
        else if (!std::strcmp(argv[i], "--calls"))
            calls = number(), standalone = true;
        else if (!std::strcmp(argv[i], "--verbose"))
            verbose = standalone = true;
    }
    if (!standalone) return doctest::Context(argc, argv).run();

    if (iterations == 0) iterations = 1;
    fuzz::start_watchdog(hang_seconds());
    fuzz::fuzz_statistics statistics;
    std::uint64_t failures = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t seed = first_seed; seed < first_seed + iterations; ++seed) {
        if (verbose) std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
        if (auto failure = fuzz::fuzz_seed(seed, calls, statistics, verbose)) {
            ++failures;
            std::fputs(failure->c_str(), stdout);
            std::fflush(stdout);
        }
    }
    print_statistics(statistics,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    std::printf("fuzz: seeds %llu..%llu, %llu failing\n", static_cast<unsigned long long>(first_seed),
                static_cast<unsigned long long>(first_seed + iterations - 1),
                static_cast<unsigned long long>(failures));
    return failures ? 1 : 0;
}

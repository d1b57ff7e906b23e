// bench::check — what the benchmarks' hand-written CUDA driver calls do on failure: name the call and the error, and
// end the program (a benchmark has nothing sensible to measure after a failed driver call).
#pragma once

#include <cuda.h>

#include <cstdio>
#include <cstdlib>

namespace bench {

inline void check(CUresult r, const char* call) {
    if (r != CUDA_SUCCESS) {
        const char* name = nullptr;
        cuGetErrorName(r, &name);
        std::fprintf(stderr, "%s: %s\n", call, name ? name : "?");
        std::exit(1);
    }
}

} // namespace bench

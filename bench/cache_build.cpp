// cache_build — what the kernel/program cache saves, per build, in one run:
//   cold_ms       a build with empty caches: compile (NVRTC), then write the entry (temporary file, fdatasync,
//                 rename)
//   disk_hit_ms   the same build in a later process: the entry is read, checked and used (no compiler)
//   memory_hit_us the same build again in that process: the in-memory cache answers
// Programs: an NVRTC program (CUDA C++ to a cubin for sm_90: NVRTC is a library, no GPU needed) when the CUDA
// Toolkit was found at configure time, and `lookup` — the cache's own cost around a trivial build of a 4 KiB
// program, the native path's lookup (what every backend pays on a hit, whatever its compiler).
// Each cold and disk figure is the median over fresh child processes (a process's caches are created once);
// NVRTC is loaded in each child before timing (the key holds its version, so a disk hit loads it too).
// Targets (issue 14): disk hit >= 100x faster than a cold build; memory hit <= 1 us.
//   cache_build [--json]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "encore/cache/program_cache.hpp"
#ifdef ENCORE_BENCH_NVRTC
#include "encore/backends/cuda/nvrtc_program.hpp"
#endif
#include "timing.hpp"

namespace {

using bench::median;
using bench::seconds_since;

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

// One build of a program, through the process's caches.
struct program_under_test {
    std::string name;
    std::function<void()> warm_up; // what a process does once before timing (load the compiler)
    std::function<void()> build;
};

// Runs `body` in a child process with ENCORE_CACHE_DIR=dir; returns what it wrote (a number) or -1.
double in_child(const fs::path& dir, const std::function<double()>& body) {
    int fds[2];
    if (::pipe(fds) != 0) return -1;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        ::setenv("ENCORE_CACHE_DIR", dir.c_str(), 1);
        ::setenv("ENCORE_CACHE_PERSISTENT", "1", 1);
        const double value = body();
        const ssize_t written = ::write(fds[1], &value, sizeof value);
        ::_exit(written == sizeof value ? 0 : 1);
    }
    ::close(fds[1]);
    double value = -1;
    if (::read(fds[0], &value, sizeof value) != sizeof value) value = -1;
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? value : -1;
}

struct result {
    std::string program;
    double cold_ms, disk_hit_ms, memory_hit_us;
};

result measure(const program_under_test& p, const fs::path& root) {
    std::vector<double> cold, disk;
    fs::path dir;
    for (int i = 0; i < 3; ++i) {
        dir = root / (p.name + "-" + std::to_string(i));
        cold.push_back(in_child(dir, [&] {
            p.warm_up();
            const auto start = clock_type::now();
            p.build();
            return seconds_since(start) * 1e3;
        }));
    }
    for (int i = 0; i < 5; ++i)
        disk.push_back(in_child(dir, [&] {
            p.warm_up();
            const auto start = clock_type::now();
            p.build();
            const double ms = seconds_since(start) * 1e3;
            // Only a disk hit counts.
            return encore::cache::program_cache::process().statistics().disk_hits >= 1 ? ms : -1e9;
        }));
    const double memory_us = in_child(dir, [&] {
        p.warm_up();
        p.build();
        constexpr int calls = 100000;
        const auto start = clock_type::now();
        for (int i = 0; i < calls; ++i)
            p.build();
        return seconds_since(start) * 1e6 / calls;
    });
    return {p.name, median(cold), median(disk), memory_us};
}

} // namespace

int main(int argc, char** argv) {
    const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
    if (argc > 1 && !json) {
        std::fprintf(stderr, "usage: cache_build [--json]\n");
        return 2;
    }
    std::string pattern = (fs::temp_directory_path() / "encore-cache-build-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        std::perror("mkdtemp");
        return 1;
    }
    const fs::path root = pattern;

    std::vector<program_under_test> programs;
#ifdef ENCORE_BENCH_NVRTC
    static const std::string saxpy = R"(
        extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) y[i] = a * x[i] + y[i];
        })";
    static const std::vector<std::string> sm90 = {"-arch=sm_90"};
    programs.push_back({"nvrtc saxpy (cubin sm_90)",
                        [] { encore::cuda::build_program(R"(extern "C" __global__ void w() {})", sm90, "w.cu"); },
                        [] { encore::cuda::build_program(saxpy, sm90, "saxpy.cu"); }});
#endif
    static const std::string four_kib(4096, 's');
    static const auto lookup = [](const std::string& source) {
        encore::cache::program_key key{.backend = "bench", .device = "host", .toolchain = "none",
                                       .source_kind = "text", .name = "lookup", .options = {"-O2"}, .source = source};
        encore::cache::program_cache::process().get_or_build<std::string>(
            key, [] { return encore::cache::built_program{std::string(4096, 'b'), ""}; },
            [](const encore::cache::built_program& b) { return std::make_shared<const std::string>(b.payload); });
    };
    // Its warm-up looks up another program, as the NVRTC row's warm-up builds one.
    programs.push_back({"lookup (4 KiB program, trivial build)", [] { lookup("warm-up"); },
                        [] { lookup(four_kib); }});

    std::vector<result> results;
    for (const auto& p : programs)
        results.push_back(measure(p, root));
    std::error_code ec;
    fs::remove_all(root, ec);

    if (json) {
        std::printf("{\"results\": [");
        for (std::size_t i = 0; i < results.size(); ++i)
            std::printf("%s{\"program\": \"%s\", \"cold_ms\": %.4f, \"disk_hit_ms\": %.4f, \"memory_hit_us\": %.4f}",
                        i ? ", " : "", results[i].program.c_str(), results[i].cold_ms, results[i].disk_hit_ms,
                        results[i].memory_hit_us);
        std::printf("]}\n");
        return 0;
    }
    std::printf("%-40s %12s %14s %10s %16s\n", "program", "cold (ms)", "disk hit (ms)", "cold/disk",
                "memory hit (us)");
    for (const auto& r : results)
        std::printf("%-40s %12.3f %14.3f %9.0fx %16.3f\n", r.program.c_str(), r.cold_ms, r.disk_hit_ms,
                    r.disk_hit_ms > 0 ? r.cold_ms / r.disk_hit_ms : 0.0, r.memory_hit_us);
    return 0;
}

// spir_route — kernels compiled the way encore++'s spir64 target is to compile device code (Clang 15 HIP device
// code for spirv64, to SPIR-V and back to SPIR 1.2 bitcode, generic-pointer atomics linked in:
// spir_route_device.cpp, docs/compiler.md "The SPIR-V target") against the same kernels hand-written in OpenCL C
// (plain global-pointer parameters), both built by encore::opencl::build_program and launched through the same
// Encore queue on an OpenCL device that takes SPIR bitcode (PoCL here). It measures the route's code, not yet
// encore++'s output: the entries are written by hand in the outliner's shape (the kernel object and geometry by
// value, pointers generic, the local block a parameter).
//
//   saxpy           y = a x + y over 4 Mi floats, range launch rounded up to groups of 64, geometry-guarded
//   reverse_groups  each group of 64 ints reversed through local memory across a barrier (4 Mi ints)
//   histogram       256 bins of 4 Mi ints by atomic add (generic pointer: a linked atomicrmw; OpenCL C: atomic_inc
//                   on a global pointer)
//
// Per kernel and round: `launches` launches on an in-order queue, then a wait; the two forms alternate which goes
// first; the median round is reported, as milliseconds per launch and the ratio route / OpenCL C.
// Usage: spir_route [--json] [--rounds N] [--launches N] [--module FILE]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "encore/backends/gpu/device_code.hpp"
#include "encore/backends/opencl/opencl_program.hpp"
#include "encore/runtime/runtime.hpp"
#include "spir_route_kernels.hpp"
#include "timing.hpp"

namespace {

const char* opencl_c_source = R"(
kernel void saxpy(float a, global const float* x, global float* y, ulong n) {
    size_t i = get_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
kernel void reverse_groups(global const int* in, global int* out, local int* tile) {
    size_t l = get_local_id(0), size = get_local_size(0), i = get_group_id(0) * size + l;
    tile[l] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = tile[size - 1 - l];
}
kernel void histogram(global const int* values, global int* bins, ulong n) {
    size_t i = get_global_id(0);
    if (i < n) atomic_inc(&bins[values[i] & 255]);
}
)";

constexpr std::size_t n = std::size_t{1} << 22, group = 64;

struct settings {
    bool json = false;
    int rounds = 7;
    int launches = 10;
    std::string module = ENCORE_SPIR_ROUTE_MODULE; // bench/meson.build
};

struct result {
    std::string kernel;
    double route_ms = 0, opencl_c_ms = 0;
};

std::vector<unsigned char> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Milliseconds per launch of `c`, `launches` back to back on `q`.
double time_launches(encore::queue& q, const encore::kernel_command& c, int launches) {
    q.wait();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i)
        q.submit(c);
    q.wait();
    return bench::seconds_since(start) * 1e3 / launches;
}

} // namespace

int main(int argc, char** argv) {
    settings o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json")
            o.json = true;
        else if (a == "--rounds" && i + 1 < argc)
            o.rounds = std::atoi(argv[++i]);
        else if (a == "--launches" && i + 1 < argc)
            o.launches = std::atoi(argv[++i]);
        else if (a == "--module" && i + 1 < argc)
            o.module = argv[++i];
        else {
            std::fprintf(stderr, "usage: spir_route [--json] [--rounds N] [--launches N] [--module FILE]\n");
            return 2;
        }
    }
    if (o.rounds < 1 || o.launches < 1) {
        std::fprintf(stderr, "spir_route: --rounds and --launches take a positive count\n");
        return 2;
    }
    const encore::device* found = nullptr;
    const auto devices = encore::device::all();
    for (const auto& d : devices)
        if (d.backend_name() == "opencl" && encore::opencl::capabilities_of(d).spir) {
            found = &d;
            break;
        }
    if (!found) {
        std::printf("spir_route: no OpenCL device with cl_khr_spir (SPIR bitcode): nothing to measure\n");
        return 0;
    }
    const encore::device& d = *found;
    const auto bitcode = read_file(o.module);
    if (bitcode.empty()) {
        std::fprintf(stderr, "spir_route: cannot read the route's module %s\n", o.module.c_str());
        return 1;
    }
    using encore::opencl::program_source;
    auto route = encore::opencl::program::load(encore::opencl::build_program(d, program_source::spir(bitcode)));
    auto plain = encore::opencl::program::load(encore::opencl::build_program(d, program_source::opencl_c(opencl_c_source)));

    encore::queue q(d, {.in_order = true});
    auto* x = encore::malloc_shared<float>(n, q);
    auto* y = encore::malloc_shared<float>(n, q);
    auto* in = encore::malloc_shared<int>(n, q);
    auto* out = encore::malloc_shared<int>(n, q);
    auto* bins = encore::malloc_shared<int>(256, q);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = 1.0f;
        y[i] = 0.0f;
        in[i] = static_cast<int>(i * 2654435761u);
    }
    using encore::kernel_argument;
    const auto groups = encore::make_nd_range(1, {n, 1, 1}, {group, 1, 1});
    const encore::gpu::geometry<1> whole{{n}, {0}};
    struct pair {
        const char* name;
        encore::kernel_command route, plain;
    };
    const std::vector<pair> kernels = {
        {"saxpy",
         {encore::opencl::get_kernel(route, "saxpy"),
          {kernel_argument::from_scalar(saxpy_kernel{2.0f, x, y}), kernel_argument::from_scalar(whole)},
          groups},
         {encore::opencl::get_kernel(plain, "saxpy"),
          {kernel_argument::from_scalar(2.0f), kernel_argument::from_pointer(x), kernel_argument::from_pointer(y),
           kernel_argument::from_scalar(static_cast<std::uint64_t>(n))},
          groups}},
        {"reverse_groups",
         {encore::opencl::get_kernel(route, "reverse_groups"),
          {kernel_argument::from_scalar(reverse_kernel{in, out}), kernel_argument::from_scalar(whole),
           kernel_argument::local(group * sizeof(int))},
          groups},
         {encore::opencl::get_kernel(plain, "reverse_groups"),
          {kernel_argument::from_pointer(in), kernel_argument::from_pointer(out),
           kernel_argument::local(group * sizeof(int))},
          groups}},
        {"histogram",
         {encore::opencl::get_kernel(route, "histogram"),
          {kernel_argument::from_scalar(histogram_kernel{in, bins}), kernel_argument::from_scalar(whole)}, groups},
         {encore::opencl::get_kernel(plain, "histogram"),
          {kernel_argument::from_pointer(in), kernel_argument::from_pointer(bins),
           kernel_argument::from_scalar(static_cast<std::uint64_t>(n))},
          groups}},
    };

    // Both forms compute the same: one launch of each from the same start, compared.
    for (const auto& k : kernels) {
        std::vector<std::vector<int>> seen;
        for (const auto* c : {&k.route, &k.plain}) {
            for (std::size_t i = 0; i < n; ++i)
                y[i] = 0.5f;
            std::memset(bins, 0, 256 * sizeof(int));
            std::memset(out, 0, n * sizeof(int));
            q.submit(*c);
            q.wait();
            std::vector<int> v;
            if (std::string(k.name) == "saxpy")
                for (std::size_t i = 0; i < n; i += 997) v.push_back(static_cast<int>(y[i] * 4));
            else if (std::string(k.name) == "reverse_groups")
                v.assign(out, out + n);
            else
                v.assign(bins, bins + 256);
            seen.push_back(std::move(v));
        }
        if (seen[0] != seen[1]) {
            std::fprintf(stderr, "spir_route: %s gives other results through the route than in OpenCL C\n", k.name);
            return 1;
        }
    }

    std::vector<result> results;
    for (const auto& k : kernels) {
        std::vector<double> route_ms, plain_ms;
        time_launches(q, k.route, 1); // warm: first-launch work out of the rounds
        time_launches(q, k.plain, 1);
        for (int r = 0; r < o.rounds; ++r) {
            if (r % 2 == 0) {
                route_ms.push_back(time_launches(q, k.route, o.launches));
                plain_ms.push_back(time_launches(q, k.plain, o.launches));
            } else {
                plain_ms.push_back(time_launches(q, k.plain, o.launches));
                route_ms.push_back(time_launches(q, k.route, o.launches));
            }
        }
        results.push_back({k.name, bench::median(route_ms), bench::median(plain_ms)});
    }
    for (void* p : {static_cast<void*>(x), static_cast<void*>(y), static_cast<void*>(in), static_cast<void*>(out),
                    static_cast<void*>(bins)})
        encore::free(p, q);

    const std::string device_name = d.properties().name;
    if (o.json) {
        std::printf("{\"results\": [");
        for (std::size_t i = 0; i < results.size(); ++i)
            std::printf("%s{\"device\": \"%s\", \"kernel\": \"%s\", \"spir_route_ms\": %.4f, \"opencl_c_ms\": %.4f, "
                        "\"ratio\": %.3f}",
                        i ? ", " : "", device_name.c_str(), results[i].kernel.c_str(), results[i].route_ms,
                        results[i].opencl_c_ms, results[i].route_ms / results[i].opencl_c_ms);
        std::printf("]}\n");
        return 0;
    }
    std::printf("The SPIR route (Clang 15 HIP device code for spirv64, to SPIR 1.2) against hand-written OpenCL C\n"
                "%d launches per round, median of %d rounds, on %s\n\n", o.launches, o.rounds, device_name.c_str());
    std::printf("%-16s %14s %14s %8s\n", "kernel", "route ms", "OpenCL C ms", "ratio");
    for (const auto& r : results)
        std::printf("%-16s %14.3f %14.3f %8.2f\n", r.kernel.c_str(), r.route_ms, r.opencl_c_ms,
                    r.route_ms / r.opencl_c_ms);
    return 0;
}

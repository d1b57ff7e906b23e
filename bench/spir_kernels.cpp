// spir_kernels — SYCL kernels built by encore++ -fsycl-targets=spir64 (SPIR-V and SPIR 1.2 bitcode, docs/compiler.md
// "The SPIR-V target") against the same kernels hand-written in OpenCL C, both launched through the same SYCL queue
// on an OpenCL device that takes SPIR bitcode or SPIR-V (PoCL here): the OpenCL C program is built by
// encore::opencl::build_program and its kernels launched as kernel objects with set_args.
//
//   saxpy           y = a x + y over 4 Mi floats, a range launch
//   reverse_groups  each work-group of 64 ints reversed through a local_accessor across a group barrier (4 Mi ints)
//   histogram       256 bins of 4 Mi ints by sycl::atomic_ref fetch_add (OpenCL C: atomic_inc)
//
// Per kernel and round: `launches` launches on an in-order queue, then a wait; the two forms alternate which goes
// first; the median round is reported, as milliseconds per launch and the ratio encore++ / OpenCL C. Both forms'
// results are compared first (the program fails if they differ).
// Usage: spir_kernels [--json] [--rounds N] [--launches N]
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "encore/backends/opencl/opencl_program.hpp"
#include "timing.hpp"

namespace {

const char* opencl_c_source = R"(
kernel void saxpy(float a, global const float* x, global float* y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
kernel void reverse_groups(global const int* in, global int* out, local int* tile) {
    size_t l = get_local_id(0), size = get_local_size(0), i = get_global_id(0);
    tile[l] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = tile[size - 1 - l];
}
kernel void histogram(global const int* values, global int* bins) {
    atomic_inc(&bins[values[get_global_id(0)] & 255]);
}
)";

constexpr std::size_t n = std::size_t{1} << 22, group = 64;

struct settings {
    bool json = false;
    int rounds = 7;
    int launches = 10;
};

struct result {
    std::string kernel;
    double sycl_ms = 0, opencl_c_ms = 0;
};

// Milliseconds per launch of `submit`, `launches` back to back on `q`.
double time_launches(sycl::queue& q, const std::function<void()>& submit, int launches) {
    q.wait();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i)
        submit();
    q.wait();
    return bench::seconds_since(start) * 1e3 / launches;
}

// An OpenCL device that takes encore++'s SPIR-V or SPIR code, or none.
std::optional<sycl::device> spir_device() {
    for (const sycl::device& d : sycl::device::get_devices()) {
        if (d.engine().backend_name() != "opencl") continue;
        const auto c = encore::opencl::capabilities_of(d.engine());
        if (c.spir || c.il_version.find("SPIR-V") != std::string::npos) return d;
    }
    return std::nullopt;
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
        else {
            std::fprintf(stderr, "usage: spir_kernels [--json] [--rounds N] [--launches N]\n");
            return 2;
        }
    }
    if (o.rounds < 1 || o.launches < 1) {
        std::fprintf(stderr, "spir_kernels: --rounds and --launches take a positive count\n");
        return 2;
    }
    const std::optional<sycl::device> found = spir_device();
    if (!found) {
        std::printf("spir_kernels: no OpenCL device takes SPIR-V or SPIR bitcode: nothing to measure\n");
        return 0;
    }
    sycl::queue q(*found, {sycl::property::queue::in_order{}});
    const auto plain = encore::opencl::program::load(encore::opencl::build_program(
        found->engine(), encore::opencl::program_source::opencl_c(opencl_c_source)));
    auto object = [&](const char* name) {
        return sycl::ext::encore::make_kernel(encore::opencl::get_kernel(plain, name));
    };
    const sycl::kernel plain_saxpy = object("saxpy"), plain_reverse = object("reverse_groups"),
                       plain_histogram = object("histogram");

    float* x = sycl::malloc_shared<float>(n, q);
    float* y = sycl::malloc_shared<float>(n, q);
    int* in = sycl::malloc_shared<int>(n, q);
    int* out = sycl::malloc_shared<int>(n, q);
    int* bins = sycl::malloc_shared<int>(256, q);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = 1.0f;
        in[i] = static_cast<int>(i * 2654435761u);
    }
    const float a = 2.0f;
    const sycl::nd_range<1> groups{sycl::range<1>{n}, sycl::range<1>{group}};

    struct pair {
        const char* name;
        std::function<void()> sycl, plain;
    };
    const std::vector<pair> kernels = {
        {"saxpy",
         [&] { q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { y[i] = a * x[i] + y[i]; }); },
         [&] {
             q.submit([&](sycl::handler& h) {
                 h.set_args(a, x, y);
                 h.parallel_for(sycl::range<1>{n}, plain_saxpy);
             });
         }},
        {"reverse_groups",
         [&] {
             q.submit([&](sycl::handler& h) {
                 sycl::local_accessor<int> tile(sycl::range<1>{group}, h);
                 h.parallel_for(groups, [=](sycl::nd_item<1> it) {
                     const std::size_t l = it.get_local_id(0), i = it.get_global_id(0);
                     tile[l] = in[i];
                     sycl::group_barrier(it.get_group());
                     out[i] = tile[group - 1 - l];
                 });
             });
         },
         [&] {
             q.submit([&](sycl::handler& h) {
                 h.set_args(in, out, sycl::local_accessor<int>(sycl::range<1>{group}, h));
                 h.parallel_for(groups, plain_reverse);
             });
         }},
        {"histogram",
         [&] {
             q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) {
                 sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> bin(bins[in[i] & 255]);
                 bin.fetch_add(1);
             });
         },
         [&] {
             q.submit([&](sycl::handler& h) {
                 h.set_args(in, bins);
                 h.parallel_for(sycl::range<1>{n}, plain_histogram);
             });
         }},
    };

    // Both forms compute the same: one launch of each from the same start, compared.
    for (const auto& k : kernels) {
        std::vector<std::vector<int>> seen;
        for (const auto* submit : {&k.sycl, &k.plain}) {
            for (std::size_t i = 0; i < n; ++i)
                y[i] = 0.5f;
            std::memset(bins, 0, 256 * sizeof(int));
            std::memset(out, 0, n * sizeof(int));
            (*submit)();
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
            std::fprintf(stderr, "spir_kernels: %s gives other results built by encore++ than in OpenCL C\n", k.name);
            return 1;
        }
    }

    std::vector<result> results;
    for (const auto& k : kernels) {
        std::vector<double> sycl_ms, plain_ms;
        time_launches(q, k.sycl, 1); // warm: first-launch work (program builds) out of the rounds
        time_launches(q, k.plain, 1);
        for (int r = 0; r < o.rounds; ++r) {
            if (r % 2 == 0) {
                sycl_ms.push_back(time_launches(q, k.sycl, o.launches));
                plain_ms.push_back(time_launches(q, k.plain, o.launches));
            } else {
                plain_ms.push_back(time_launches(q, k.plain, o.launches));
                sycl_ms.push_back(time_launches(q, k.sycl, o.launches));
            }
        }
        results.push_back({k.name, bench::median(sycl_ms), bench::median(plain_ms)});
    }
    for (void* p : {static_cast<void*>(x), static_cast<void*>(y), static_cast<void*>(in), static_cast<void*>(out),
                    static_cast<void*>(bins)})
        sycl::free(p, q);

    const std::string device_name = found->get_info<sycl::info::device::name>();
    if (o.json) {
        std::printf("{\"results\": [");
        for (std::size_t i = 0; i < results.size(); ++i)
            std::printf("%s{\"device\": \"%s\", \"kernel\": \"%s\", \"sycl_ms\": %.4f, \"opencl_c_ms\": %.4f, "
                        "\"ratio\": %.3f}",
                        i ? ", " : "", device_name.c_str(), results[i].kernel.c_str(), results[i].sycl_ms,
                        results[i].opencl_c_ms, results[i].sycl_ms / results[i].opencl_c_ms);
        std::printf("]}\n");
        return 0;
    }
    std::printf("SYCL kernels built by encore++ for spir64 against the same kernels hand-written in OpenCL C\n"
                "%d launches per round, median of %d rounds, on %s\n\n", o.launches, o.rounds, device_name.c_str());
    std::printf("%-16s %14s %14s %8s\n", "kernel", "encore++ ms", "OpenCL C ms", "ratio");
    for (const auto& r : results)
        std::printf("%-16s %14.3f %14.3f %8.2f\n", r.kernel.c_str(), r.sycl_ms, r.opencl_c_ms,
                    r.sycl_ms / r.opencl_c_ms);
    return 0;
}

// Kernels written the SYCL way (sycl::vec, the built-in functions) on the native backend against the same
// arithmetic written as a plain C++ loop over floats, parallelized the same way (oneTBB over the same range), in one
// run. Issue 38's target: the SYCL kernel within 1.2x of the plain loop.
//
//     build/bench/vec_math            # a table: ns per item for each kernel, and the ratio
//     build/bench/vec_math --json     # {"results": [{"kernel": ..., "items": ..., "sycl_ns_per_item": ...,
//                                     #   "plain_ns_per_item": ..., "ratio": ...[, "sycl_scalar_ns_per_item": ...]}]}
//
// For the n-body step the same SYCL kernel is also timed written with plain floats: the difference between it and
// the plain loop is what a work-item costs the native backend, not vec or the built-ins.
//
// Kernels: an n-body-like step (float4 positions, dot, rsqrt, multiply-add), an element-wise transcendental mix
// (sin, exp, clamp on float4), and sub-group sums (reduce_over_group; measured, not under the target). Each figure is the median of the repetitions; the work is checked equal between
// the two forms so that neither does less.
#include <sycl/sycl.hpp>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t items = 1 << 20;
constexpr float softening = 1e-3f;

struct plain4 {
    float x, y, z, w;
};

double median_ns(int repetitions, const std::function<void()>& run) {
    std::vector<double> times;
    run(); // warm-up
    for (int r = 0; r < repetitions; ++r) {
        const auto start = std::chrono::steady_clock::now();
        run();
        times.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

struct result {
    std::string kernel;
    double sycl_ns, plain_ns;
    double sycl_scalar_ns; // the same SYCL kernel written with plain floats: the native backend's own per-item cost
};

bool close(float a, float b) {
    return std::fabs(a - b) <= 1e-4f * std::max(1.f, std::fabs(b));
}

} // namespace

int main(int argc, char** argv) {
    bool json = false;
    int repetitions = 11;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json")
            json = true;
        else if (a == "--repetitions" && i + 1 < argc)
            repetitions = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: %s [--json] [--repetitions N]\n", argv[0]);
            return 2;
        }
    }
    sycl::queue q{sycl::cpu_selector_v};
    auto* pos = sycl::malloc_shared<sycl::float4>(items, q);
    auto* vel = sycl::malloc_shared<sycl::float4>(items, q);
    auto* out = sycl::malloc_shared<sycl::float4>(items, q);
    std::vector<plain4> ppos(items), pvel(items), pout(items);
    for (std::size_t i = 0; i < items; ++i) {
        const float f = static_cast<float>(i % 1000) * 0.001f;
        pos[i] = sycl::float4{f, 1.f - f, 0.5f * f, 1.f};
        vel[i] = sycl::float4{0.1f, -0.2f * f, 0.3f, 0.f};
        ppos[i] = {f, 1.f - f, 0.5f * f, 1.f};
        pvel[i] = {0.1f, -0.2f * f, 0.3f, 0.f};
    }
    std::vector<result> results;

    // 1. An n-body-like step against a fixed body: r = p - c; s = rsqrt(dot(r, r) + eps)^3; v += r * s * dt.
    {
        const sycl::float4 centre{0.3f, 0.4f, 0.5f, 0.f};
        const double sycl_ns = median_ns(repetitions, [&] {
            q.parallel_for(sycl::range<1>{items}, [=](sycl::id<1> i) {
                 const sycl::float4 r = pos[i] - centre;
                 const float inv = sycl::rsqrt(sycl::dot(r, r) + softening);
                 out[i] = vel[i] + r * (inv * inv * inv * 0.01f);
             }).wait();
        });
        const double plain_ns = median_ns(repetitions, [&] {
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, items), [&](const tbb::blocked_range<std::size_t>& b) {
                for (std::size_t i = b.begin(); i != b.end(); ++i) {
                    const plain4 p = ppos[i], v = pvel[i];
                    const float rx = p.x - 0.3f, ry = p.y - 0.4f, rz = p.z - 0.5f, rw = p.w;
                    const float inv = 1.f / std::sqrt(rx * rx + ry * ry + rz * rz + rw * rw + softening);
                    const float s = inv * inv * inv * 0.01f;
                    pout[i] = {v.x + rx * s, v.y + ry * s, v.z + rz * s, v.w + rw * s};
                }
            });
        });
        for (std::size_t i = 0; i < items; i += 4099)
            if (!close(out[i][0], pout[i].x) || !close(out[i][3], pout[i].w)) {
                std::fprintf(stderr, "vec_math: the n-body forms disagree at %zu\n", i);
                return 1;
            }
        // The SYCL kernel again with plain floats (no vec, no built-ins): what a work-item costs the native backend
        // whatever its arithmetic.
        auto* ppos_usm = reinterpret_cast<const float*>(pos);
        auto* pvel_usm = reinterpret_cast<const float*>(vel);
        auto* pout_usm = reinterpret_cast<float*>(out);
        const double scalar_ns = median_ns(repetitions, [&] {
            q.parallel_for(sycl::range<1>{items}, [=](sycl::id<1> id) {
                 const std::size_t i = id[0] * 4;
                 const float rx = ppos_usm[i] - 0.3f, ry = ppos_usm[i + 1] - 0.4f, rz = ppos_usm[i + 2] - 0.5f,
                             rw = ppos_usm[i + 3];
                 const float inv = 1.f / std::sqrt(rx * rx + ry * ry + rz * rz + rw * rw + softening);
                 const float s = inv * inv * inv * 0.01f;
                 pout_usm[i] = pvel_usm[i] + rx * s;
                 pout_usm[i + 1] = pvel_usm[i + 1] + ry * s;
                 pout_usm[i + 2] = pvel_usm[i + 2] + rz * s;
                 pout_usm[i + 3] = pvel_usm[i + 3] + rw * s;
             }).wait();
        });
        results.push_back({"nbody_step_float4", sycl_ns / items, plain_ns / items, scalar_ns / items});
    }

    // 2. Element-wise transcendentals: clamp(sin(p) * exp(-v), -0.5, 0.5).
    {
        const double sycl_ns = median_ns(repetitions, [&] {
            q.parallel_for(sycl::range<1>{items}, [=](sycl::id<1> i) {
                 out[i] = sycl::clamp(sycl::sin(pos[i]) * sycl::exp(-vel[i]), -0.5f, 0.5f);
             }).wait();
        });
        const double plain_ns = median_ns(repetitions, [&] {
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, items), [&](const tbb::blocked_range<std::size_t>& b) {
                for (std::size_t i = b.begin(); i != b.end(); ++i) {
                    const plain4 p = ppos[i], v = pvel[i];
                    auto one = [](float a, float b) {
                        return std::fmin(std::fmax(std::sin(a) * std::exp(-b), -0.5f), 0.5f);
                    };
                    pout[i] = {one(p.x, v.x), one(p.y, v.y), one(p.z, v.z), one(p.w, v.w)};
                }
            });
        });
        for (std::size_t i = 0; i < items; i += 4099)
            if (!close(out[i][1], pout[i].y)) {
                std::fprintf(stderr, "vec_math: the transcendental forms disagree at %zu\n", i);
                return 1;
            }
        results.push_back({"sin_exp_clamp_float4", sycl_ns / items, plain_ns / items, -1});
    }

    // 3. Sub-group sums (not under the 1.2x target: a measurement of what a collective costs here). Each sub-group of
    // 32 adds its items' values with reduce_over_group and its leader writes the sum; the plain loop sums each run
    // of 32. On the native backend a work-group's items are fibers of one thread, and a collective parks each item
    // once (backends/native/work_group.hpp): this row is that switch's price per item.
    {
        auto* values = sycl::malloc_shared<int>(items, q);
        auto* sums = sycl::malloc_shared<int>(items / 32, q);
        std::vector<int> plain_values(items), plain_sums(items / 32);
        for (std::size_t i = 0; i < items; ++i)
            values[i] = plain_values[i] = static_cast<int>(i % 7);
        const double sycl_ns = median_ns(repetitions, [&] {
            q.parallel_for(sycl::nd_range<1>{items, 256}, [=](sycl::nd_item<1> it) {
                 const sycl::sub_group sg = it.get_sub_group();
                 const int s = sycl::reduce_over_group(sg, values[it.get_global_id(0)], sycl::plus<int>());
                 if (sg.leader()) sums[it.get_global_id(0) / 32] = s;
             }).wait();
        });
        const double plain_ns = median_ns(repetitions, [&] {
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, items / 32),
                              [&](const tbb::blocked_range<std::size_t>& b) {
                                  for (std::size_t k = b.begin(); k != b.end(); ++k) {
                                      int s = 0;
                                      for (std::size_t j = 0; j < 32; ++j)
                                          s += plain_values[k * 32 + j];
                                      plain_sums[k] = s;
                                  }
                              });
        });
        for (std::size_t k = 0; k < items / 32; k += 1021)
            if (sums[k] != plain_sums[k]) {
                std::fprintf(stderr, "vec_math: the sub-group sums disagree at %zu\n", k);
                return 1;
            }
        results.push_back({"sub_group_sum", sycl_ns / items, plain_ns / items, -1});
        sycl::free(values, q);
        sycl::free(sums, q);
    }

    sycl::free(pos, q);
    sycl::free(vel, q);
    sycl::free(out, q);
    if (json) {
        std::printf("{\"results\": [");
        for (std::size_t k = 0; k < results.size(); ++k)
        {
            std::printf("%s{\"kernel\": \"%s\", \"items\": %zu, \"sycl_ns_per_item\": %.3f, \"plain_ns_per_item\": %.3f, "
                        "\"ratio\": %.3f",
                        k ? ", " : "", results[k].kernel.c_str(), items, results[k].sycl_ns, results[k].plain_ns,
                        results[k].sycl_ns / results[k].plain_ns);
            if (results[k].sycl_scalar_ns >= 0)
                std::printf(", \"sycl_scalar_ns_per_item\": %.3f", results[k].sycl_scalar_ns);
            std::printf("}");
        }
        std::printf("]}\n");
        return 0;
    }
    std::printf("native backend on %s (%u hardware threads), %zu items, median of %d runs, ns per item\n\n",
                q.get_device().get_info<sycl::info::device::name>().c_str(), std::thread::hardware_concurrency(), items,
                repetitions);
    std::printf("%-22s %12s %12s %8s %20s\n", "kernel", "sycl (vec)", "plain C++", "ratio", "sycl (plain floats)");
    for (const auto& r : results) {
        std::printf("%-22s %12.3f %12.3f %7.2fx", r.kernel.c_str(), r.sycl_ns, r.plain_ns, r.sycl_ns / r.plain_ns);
        if (r.sycl_scalar_ns >= 0) std::printf(" %20.3f", r.sycl_scalar_ns);
        std::printf("\n");
    }
    return 0;
}

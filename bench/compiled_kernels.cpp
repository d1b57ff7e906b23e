// compiled_kernels — plain SYCL kernels built by encore++ for CUDA against the same kernels written by hand in
// CUDA C++ (compiled_kernels_cuda.cu, compiled by nvcc and linked into this program), on the default device (the
// GPU the program carries images for):
//
//   saxpy       y = a x + y over 2^24 floats                    (SYCL: parallel_for over a range)
//   stencil     5-point average on a 4096 x 4096 float grid     (SYCL: parallel_for over a 2-D range)
//   reduction   sum of 2^24 ints                                (SYCL: sycl::reduction, initialize_to_identity)
//   reduction_graph  the same, recorded as a one-node graph and replayed (CUDA: its memset and kernel captured)
//   chain_1000  1,000 kernels of `data[i] += 1` on 1,024 ints   (SYCL: a recorded graph, replayed; CUDA: a
//               replayed as a graph                               stream-captured CUDA graph, replayed)
//   nbody       one step of the accelerations of 16,384 bodies,  (SYCL: sycl::float4 positions, float3 swizzles,
//               all pairs                                          sycl::dot and sycl::rsqrt; CUDA: float4, rsqrtf)
//   sub_group_sum  each sub-group's sum of 2^24 ints, one int     (SYCL: reduce_over_group on it.get_sub_group();
//               per 32                                            CUDA: __shfl_down_sync over each warp)
//   local_reverse  each work-group of 256 reverses its part of     (SYCL: a local_accessor and group_barrier;
//               2^24 ints through local memory                    CUDA: __shared__ and __syncthreads)
//   dp_rows     a minimum-cost path table of 512 x 16,384 ints,   (SYCL: one submit per row, a local_accessor of
//               one nd_range launch per row, the row above in        the row above with a halo, a barrier;
//               local memory                                       CUDA: the same with __shared__; per row)
//   strided_copy  out[i] = in[4 i] over 2^22 floats              (SYCL: parallel_for over a range)
//
// The CUDA versions of the last three index with 32-bit ints, as CUDA code usually does; the SYCL ids are size_t,
// which encore++ by default tells nvcc fit in an int (-fsycl-id-queries-fit-in-int). bench/meson.build also builds
// this program as compiled_kernels_no_int, with -fno-sycl-id-queries-fit-in-int, to measure what that is worth.
//
// The single kernels are timed as `reps` launches back to back on one in-order queue / one stream, then one wait:
// with kernels of tens of microseconds the launches overlap the work, so the time per launch is the kernel's time
// (launch costs show only if they exceed it). dp_rows is launch-bound by design: its rows are a few microseconds
// of work each, so it measures what a submission costs next to the kernel it launches. Each round times SYCL then
// CUDA for every kernel; the table gives the median over 5 rounds of each side and the median of the per-round
// ratios (SYCL / CUDA). Before timing, each kernel's result is compared with the CUDA one.
//
// Build times (encore++ for this file against nvcc for the CUDA file) are measured where encore++ is, by
// bench/compiled_kernels_build_time.py; `--build-times FILE` adds its JSON to the output.
//
//   compiled_kernels [--json] [--build-times FILE]
#define SYCL_SIMPLE_SWIZZLES // the nbody kernel reads positions as pj.xyz()
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "timing.hpp"

extern "C" {
double peer_saxpy(float a, const float* x, float* y, std::size_t n, int reps);
double peer_stencil(const float* in, float* out, std::size_t rows, std::size_t cols, int reps);
double peer_reduce(const int* x, std::size_t n, int* result, int reps);
double peer_reduce_graph(const int* x, std::size_t n, int* result, int reps);
double peer_chain_replay(int* data, std::size_t n, int nodes, int replays);
double peer_nbody(const float* positions, float* accelerations, std::size_t bodies, int reps);
double peer_sub_group_sum(const int* x, std::size_t n, int* sums, int reps);
double peer_local_reverse(const int* in, int* out, std::size_t n, int reps);
double peer_dp_rows(const int* cost, int* dp, std::size_t rows, std::size_t cols, int reps);
double peer_strided_copy(const float* in, float* out, std::size_t n, int stride, int reps);
void* peer_malloc(std::size_t bytes);
void peer_free(void* p);
void peer_copy(void* to, const void* from, std::size_t bytes);
}

namespace {

using bench::median;
using bench::seconds_since;

namespace syclex = sycl::ext::oneapi::experimental;

struct row {
    std::string kernel;
    std::string unit; // "us per launch" or "ns per node"
    double sycl = 0, cuda = 0, ratio = 0;
    bool same_result = false;
};

// Seconds per call of `launch` over `reps` calls back to back then one wait, after one untimed call.
template <typename Launch> double per_launch(sycl::queue& q, Launch launch, int reps) {
    launch();
    q.wait_and_throw();
    const auto t = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) launch();
    q.wait_and_throw();
    return seconds_since(t) / reps;
}

// The SYCL kernels, each timed as its CUDA peer is.
double sycl_saxpy(sycl::queue& q, float a, const float* x, float* y, std::size_t n, int reps) {
    auto launch = [&] { q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { y[i] = a * x[i] + y[i]; }); };
    return per_launch(q, launch, reps);
}

double sycl_stencil(sycl::queue& q, const float* in, float* out, std::size_t rows, std::size_t cols, int reps) {
    auto launch = [&] {
        q.parallel_for(sycl::range<2>{rows, cols}, [=](sycl::item<2> it) {
            const std::size_t r = it[0], c = it[1];
            if (r == 0 || c == 0 || r >= rows - 1 || c >= cols - 1) return;
            const std::size_t i = r * cols + c;
            out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - cols] + in[i + cols]);
        });
    };
    return per_launch(q, launch, reps);
}

double sycl_reduce(sycl::queue& q, const int* x, std::size_t n, int* sum, int reps) {
    auto launch = [&] {
        q.parallel_for(sycl::range<1>{n},
                       sycl::reduction(sum, sycl::plus<int>(), sycl::property::reduction::initialize_to_identity{}),
                       [=](sycl::id<1> i, auto& s) { s += x[i]; });
    };
    return per_launch(q, launch, reps);
}

// The same reduction recorded into a graph (one node), replayed.
double sycl_reduce_graph(sycl::queue& q, const int* x, std::size_t n, int* sum, int reps) {
    syclex::command_graph graph{q.get_context(), q.get_device()};
    graph.begin_recording(q);
    q.parallel_for(sycl::range<1>{n},
                   sycl::reduction(sum, sycl::plus<int>(), sycl::property::reduction::initialize_to_identity{}),
                   [=](sycl::id<1> i, auto& s) { s += x[i]; });
    graph.end_recording();
    auto exec = graph.finalize();
    return per_launch(q, [&] { q.ext_oneapi_graph(exec); }, reps);
}

double sycl_chain_replay(sycl::queue& q, int* data, std::size_t n, int nodes, int replays) {
    syclex::command_graph graph{q.get_context(), q.get_device()};
    graph.begin_recording(q);
    for (int k = 0; k < nodes; ++k) q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { data[i] += 1; });
    graph.end_recording();
    auto exec = graph.finalize();
    return per_launch(q, [&] { q.ext_oneapi_graph(exec); }, replays) / nodes;
}

// Body i's acceleration from every body j (position xyz, mass w), softened by `soft`.
double sycl_nbody(sycl::queue& q, const sycl::float4* positions, sycl::float4* accelerations, std::size_t bodies,
                  int reps) {
    auto launch = [&] {
        q.parallel_for(sycl::nd_range<1>{bodies, 256}, [=](sycl::nd_item<1> it) {
            const std::size_t i = it.get_global_id(0);
            const sycl::float4 pi = positions[i];
            sycl::float3 acc{0.0f};
            for (std::size_t j = 0; j < bodies; ++j) {
                const sycl::float4 pj = positions[j];
                const sycl::float3 d = pj.xyz() - pi.xyz();
                const float inv = sycl::rsqrt(sycl::dot(d, d) + 1e-3f);
                acc += d * (pj.w() * inv * inv * inv);
            }
            accelerations[i] = sycl::float4{acc.x(), acc.y(), acc.z(), 0.0f};
        });
    };
    return per_launch(q, launch, reps);
}

double sycl_sub_group_sum(sycl::queue& q, const int* x, std::size_t n, int* sums, int reps) {
    auto launch = [&] {
        q.parallel_for(sycl::nd_range<1>{n, 256}, [=](sycl::nd_item<1> it) {
            const sycl::sub_group sg = it.get_sub_group();
            const int s = sycl::reduce_over_group(sg, x[it.get_global_id(0)], sycl::plus<int>());
            if (sg.leader()) sums[it.get_global_id(0) / 32] = s;
        });
    };
    return per_launch(q, launch, reps);
}

double sycl_local_reverse(sycl::queue& q, const int* in, int* out, std::size_t n, int reps) {
    auto launch = [&] {
        q.submit([&](sycl::handler& h) {
            sycl::local_accessor<int, 1> tile(256, h);
            h.parallel_for(sycl::nd_range<1>{n, 256}, [=](sycl::nd_item<1> it) {
                const std::size_t i = it.get_global_id(0), l = it.get_local_id(0);
                tile[l] = in[i];
                sycl::group_barrier(it.get_group());
                out[i] = tile[255 - l];
            });
        });
    };
    return per_launch(q, launch, reps);
}

// Row r of a minimum-cost path table: dp[r][c] = cost[r][c] + the least of dp[r-1][c-1 .. c+1] (clamped at the
// edges), the row above staged in local memory with one halo value each side. `cols` is a multiple of 256.
void sycl_dp_row(sycl::queue& q, const int* cost, int* dp, std::size_t r, std::size_t cols) {
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<int, 1> above(256 + 2, h);
        h.parallel_for(sycl::nd_range<1>{cols, 256}, [=](sycl::nd_item<1> it) {
            const std::size_t c = it.get_global_id(0), l = it.get_local_id(0);
            const int* prev = dp + (r - 1) * cols;
            above[l + 1] = prev[c];
            if (l == 0) above[0] = prev[c == 0 ? 0 : c - 1];
            if (l == 255) above[257] = prev[c + 1 == cols ? c : c + 1];
            sycl::group_barrier(it.get_group());
            dp[r * cols + c] = cost[r * cols + c] + sycl::min(above[l], sycl::min(above[l + 1], above[l + 2]));
        });
    });
}

// Rows 1 .. rows-1, `reps` times, after one untimed row: seconds per row (one launch each).
double sycl_dp_rows(sycl::queue& q, const int* cost, int* dp, std::size_t rows, std::size_t cols, int reps) {
    sycl_dp_row(q, cost, dp, 1, cols);
    q.wait_and_throw();
    const auto t = std::chrono::steady_clock::now();
    for (int k = 0; k < reps; ++k)
        for (std::size_t r = 1; r < rows; ++r) sycl_dp_row(q, cost, dp, r, cols);
    q.wait_and_throw();
    return seconds_since(t) / (reps * static_cast<double>(rows - 1));
}

double sycl_strided_copy(sycl::queue& q, const float* in, float* out, std::size_t n, int stride, int reps) {
    auto launch = [&] {
        q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { out[i] = in[i * stride]; });
    };
    return per_launch(q, launch, reps);
}

template <typename T> std::vector<T> to_host(sycl::queue& q, const T* p, std::size_t n) {
    std::vector<T> v(n);
    q.memcpy(v.data(), p, n * sizeof(T)).wait_and_throw();
    return v;
}
template <typename T> std::vector<T> peer_to_host(const T* p, std::size_t n) {
    std::vector<T> v(n);
    peer_copy(v.data(), p, n * sizeof(T));
    return v;
}

bool close(const std::vector<float>& a, const std::vector<float>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::fabs(a[i] - b[i]) > 1e-5f * std::max(1.0f, std::fabs(b[i]))) return false;
    return true;
}

std::string read_file(const char* path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "compiled_kernels: cannot read %s\n", path);
        std::exit(2);
    }
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

} // namespace

int main(int argc, char** argv) try {
    bool json = false;
    const char* build_times = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0)
            json = true;
        else if (std::strcmp(argv[i], "--build-times") == 0 && i + 1 < argc)
            build_times = argv[++i];
        else {
            std::fprintf(stderr, "usage: compiled_kernels [--json] [--build-times FILE]\n");
            return 2;
        }
    }
    sycl::queue q{sycl::property::queue::in_order{}};
    const std::string device = q.get_device().get_info<sycl::info::device::name>();
    if (q.get_device().get_backend() != sycl::backend::ext_oneapi_cuda) {
        std::fprintf(stderr, "compiled_kernels: the default device is %s, not a CUDA GPU (run it where one is)\n",
                     device.c_str());
        return 77;
    }

    const std::size_t n = std::size_t{1} << 24, rows = 4096, cols = 4096, chain_n = 1024, bodies = 16384;
    const std::size_t dp_rows = 512, dp_cols = 16384, strided_n = n / 4;
    const int reps = 200, rounds = 5, nodes = 1000, replays = 20, nbody_reps = 20, dp_reps = 2, stride = 4;
    const float a = 1.5f;
    std::vector<float> hx(n), hy(n), grid(rows * cols);
    std::vector<int> hi(n);
    for (std::size_t i = 0; i < n; ++i) {
        hx[i] = static_cast<float>(i % 97) * 0.01f;
        hy[i] = static_cast<float>(i % 13);
        hi[i] = static_cast<int>(i % 7);
    }
    for (std::size_t i = 0; i < rows * cols; ++i) grid[i] = static_cast<float>((i * 31) % 101);
    std::vector<int> cost(dp_rows * dp_cols);
    for (std::size_t i = 0; i < cost.size(); ++i) cost[i] = static_cast<int>((i * 7919) % 23);
    std::vector<float> bodies_xyzm(bodies * 4);
    for (std::size_t i = 0; i < bodies * 4; ++i)
        bodies_xyzm[i] = i % 4 == 3 ? 1.0f + static_cast<float>(i % 5) : static_cast<float>((i * 7919) % 1000) * 0.01f;

    // SYCL memory and the peer's, with the same contents.
    float* sx = sycl::malloc_device<float>(n, q);
    float* sy = sycl::malloc_device<float>(n, q);
    float* s_in = sycl::malloc_device<float>(rows * cols, q);
    float* s_out = sycl::malloc_device<float>(rows * cols, q);
    int* si = sycl::malloc_device<int>(n, q);
    int* ssum = sycl::malloc_device<int>(1, q);
    int* schain = sycl::malloc_device<int>(chain_n, q);
    auto* s_pos = sycl::malloc_device<sycl::float4>(bodies, q);
    auto* s_acc = sycl::malloc_device<sycl::float4>(bodies, q);
    int* s_sums = sycl::malloc_device<int>(n / 32, q);
    int* s_reversed = sycl::malloc_device<int>(n, q);
    int* s_cost = sycl::malloc_device<int>(dp_rows * dp_cols, q);
    int* s_dp = sycl::malloc_device<int>(dp_rows * dp_cols, q);
    float* s_strided = sycl::malloc_device<float>(strided_n, q);
    auto* cx = static_cast<float*>(peer_malloc(n * sizeof(float)));
    auto* cy = static_cast<float*>(peer_malloc(n * sizeof(float)));
    auto* c_in = static_cast<float*>(peer_malloc(rows * cols * sizeof(float)));
    auto* c_out = static_cast<float*>(peer_malloc(rows * cols * sizeof(float)));
    auto* ci = static_cast<int*>(peer_malloc(n * sizeof(int)));
    auto* csum = static_cast<int*>(peer_malloc(sizeof(int)));
    auto* cchain = static_cast<int*>(peer_malloc(chain_n * sizeof(int)));
    auto* c_pos = static_cast<float*>(peer_malloc(bodies * 4 * sizeof(float)));
    auto* c_acc = static_cast<float*>(peer_malloc(bodies * 4 * sizeof(float)));
    auto* c_sums = static_cast<int*>(peer_malloc(n / 32 * sizeof(int)));
    auto* c_reversed = static_cast<int*>(peer_malloc(n * sizeof(int)));
    auto* c_cost = static_cast<int*>(peer_malloc(dp_rows * dp_cols * sizeof(int)));
    auto* c_dp = static_cast<int*>(peer_malloc(dp_rows * dp_cols * sizeof(int)));
    auto* c_strided = static_cast<float*>(peer_malloc(strided_n * sizeof(float)));
    auto reset = [&] {
        q.memcpy(sx, hx.data(), n * sizeof(float));
        q.memcpy(sy, hy.data(), n * sizeof(float));
        q.memcpy(s_in, grid.data(), rows * cols * sizeof(float));
        q.memcpy(s_out, grid.data(), rows * cols * sizeof(float));
        q.memcpy(si, hi.data(), n * sizeof(int));
        q.memset(schain, 0, chain_n * sizeof(int));
        q.memcpy(s_pos, bodies_xyzm.data(), bodies * 4 * sizeof(float));
        q.memcpy(s_cost, cost.data(), cost.size() * sizeof(int));
        q.memcpy(s_dp, cost.data(), cost.size() * sizeof(int)); // row 0 of the table is row 0 of the costs
        q.wait_and_throw();
        peer_copy(cx, hx.data(), n * sizeof(float));
        peer_copy(cy, hy.data(), n * sizeof(float));
        peer_copy(c_in, grid.data(), rows * cols * sizeof(float));
        peer_copy(c_out, grid.data(), rows * cols * sizeof(float));
        peer_copy(ci, hi.data(), n * sizeof(int));
        std::vector<int> zeros(chain_n, 0);
        peer_copy(cchain, zeros.data(), chain_n * sizeof(int));
        peer_copy(c_pos, bodies_xyzm.data(), bodies * 4 * sizeof(float));
        peer_copy(c_cost, cost.data(), cost.size() * sizeof(int));
        peer_copy(c_dp, cost.data(), cost.size() * sizeof(int));
    };

    // Results first: one launch (and one untimed warm-up) of each, same inputs on both sides.
    reset();
    std::vector<row> rows_out = {{"saxpy", "us per launch"},
                                 {"stencil_5pt", "us per launch"},
                                 {"reduction", "us per launch"},
                                 {"reduction_graph", "us per replay"},
                                 {"chain_1000", "ns per node"},
                                 {"nbody", "us per launch"},
                                 {"sub_group_sum", "us per launch"},
                                 {"local_reverse", "us per launch"},
                                 {"dp_rows", "us per row"},
                                 {"strided_copy", "us per launch"}};
    sycl_saxpy(q, a, sx, sy, n, 1);
    peer_saxpy(a, cx, cy, n, 1);
    rows_out[0].same_result = close(to_host(q, sy, n), peer_to_host(cy, n));
    sycl_stencil(q, s_in, s_out, rows, cols, 1);
    peer_stencil(c_in, c_out, rows, cols, 1);
    rows_out[1].same_result = close(to_host(q, s_out, rows * cols), peer_to_host(c_out, rows * cols));
    sycl_reduce(q, si, n, ssum, 1);
    peer_reduce(ci, n, csum, 1);
    rows_out[2].same_result = to_host(q, ssum, 1)[0] == peer_to_host(csum, 1)[0];
    sycl_reduce_graph(q, si, n, ssum, 1);
    peer_reduce_graph(ci, n, csum, 1);
    rows_out[3].same_result = to_host(q, ssum, 1)[0] == peer_to_host(csum, 1)[0];
    sycl_chain_replay(q, schain, chain_n, nodes, 1);
    peer_chain_replay(cchain, chain_n, nodes, 1);
    rows_out[4].same_result = to_host(q, schain, chain_n) == peer_to_host(cchain, chain_n);
    sycl_nbody(q, s_pos, s_acc, bodies, 1);
    peer_nbody(c_pos, c_acc, bodies, 1);
    {
        const auto mine = to_host(q, s_acc, bodies);
        std::vector<float> flat(bodies * 4);
        std::memcpy(flat.data(), mine.data(), flat.size() * sizeof(float));
        // The same arithmetic in another order of contraction: close, not bit-equal.
        const auto theirs = peer_to_host(c_acc, bodies * 4);
        bool near = true;
        for (std::size_t i = 0; i < flat.size(); ++i)
            near = near && std::fabs(flat[i] - theirs[i]) <= 1e-3f * std::max(1.0f, std::fabs(theirs[i]));
        rows_out[5].same_result = near;
    }
    sycl_sub_group_sum(q, si, n, s_sums, 1);
    peer_sub_group_sum(ci, n, c_sums, 1);
    rows_out[6].same_result = to_host(q, s_sums, n / 32) == peer_to_host(c_sums, n / 32);
    sycl_local_reverse(q, si, s_reversed, n, 1);
    peer_local_reverse(ci, c_reversed, n, 1);
    rows_out[7].same_result = to_host(q, s_reversed, n) == peer_to_host(c_reversed, n);
    sycl_dp_rows(q, s_cost, s_dp, dp_rows, dp_cols, 1);
    peer_dp_rows(c_cost, c_dp, dp_rows, dp_cols, 1);
    {
        // And against the table computed here, so that both sides agreeing on a wrong table shows.
        std::vector<int> table = cost;
        for (std::size_t r = 1; r < dp_rows; ++r)
            for (std::size_t c = 0; c < dp_cols; ++c) {
                const int* above = &table[(r - 1) * dp_cols];
                const int left = above[c == 0 ? 0 : c - 1], right = above[c + 1 == dp_cols ? c : c + 1];
                table[r * dp_cols + c] += std::min(left, std::min(above[c], right));
            }
        const auto mine = to_host(q, s_dp, table.size());
        rows_out[8].same_result = mine == table && mine == peer_to_host(c_dp, table.size());
    }
    sycl_strided_copy(q, sx, s_strided, strided_n, stride, 1);
    peer_strided_copy(cx, c_strided, strided_n, stride, 1);
    rows_out[9].same_result = to_host(q, s_strided, strided_n) == peer_to_host(c_strided, strided_n);

    constexpr int kinds = 10;
    std::vector<std::vector<double>> sycl_t(kinds), cuda_t(kinds), ratio(kinds);
    for (int round = 0; round < rounds; ++round) {
        const double t[kinds][2] = {
            {sycl_saxpy(q, a, sx, sy, n, reps), peer_saxpy(a, cx, cy, n, reps)},
            {sycl_stencil(q, s_in, s_out, rows, cols, reps), peer_stencil(c_in, c_out, rows, cols, reps)},
            {sycl_reduce(q, si, n, ssum, reps), peer_reduce(ci, n, csum, reps)},
            {sycl_reduce_graph(q, si, n, ssum, reps), peer_reduce_graph(ci, n, csum, reps)},
            {sycl_chain_replay(q, schain, chain_n, nodes, replays), peer_chain_replay(cchain, chain_n, nodes, replays)},
            {sycl_nbody(q, s_pos, s_acc, bodies, nbody_reps), peer_nbody(c_pos, c_acc, bodies, nbody_reps)},
            {sycl_sub_group_sum(q, si, n, s_sums, reps), peer_sub_group_sum(ci, n, c_sums, reps)},
            {sycl_local_reverse(q, si, s_reversed, n, reps), peer_local_reverse(ci, c_reversed, n, reps)},
            {sycl_dp_rows(q, s_cost, s_dp, dp_rows, dp_cols, dp_reps),
             peer_dp_rows(c_cost, c_dp, dp_rows, dp_cols, dp_reps)},
            {sycl_strided_copy(q, sx, s_strided, strided_n, stride, reps),
             peer_strided_copy(cx, c_strided, strided_n, stride, reps)}};
        for (int k = 0; k < kinds; ++k) {
            const double scale = k == 4 ? 1e9 : 1e6; // chain_1000: ns per node
            sycl_t[k].push_back(t[k][0] * scale);
            cuda_t[k].push_back(t[k][1] * scale);
            ratio[k].push_back(t[k][0] / t[k][1]);
        }
    }
    for (int k = 0; k < kinds; ++k) {
        rows_out[k].sycl = median(sycl_t[k]);
        rows_out[k].cuda = median(cuda_t[k]);
        rows_out[k].ratio = median(ratio[k]);
    }

    if (json) {
        std::printf("{\"device\": \"%s\", \"rounds\": %d, \"results\": [", device.c_str(), rounds);
        for (std::size_t k = 0; k < rows_out.size(); ++k) {
            const row& r = rows_out[k];
            const bool per_node = r.kernel == "chain_1000";
            std::printf("%s{\"kernel\": \"%s\", \"%s\": %.3f, \"%s\": %.3f, \"ratio\": %.4f, \"same_result\": %s}",
                        k ? ", " : "", r.kernel.c_str(), per_node ? "encore_replay_ns_per_node" : "encore_us",
                        r.sycl, per_node ? "cuda_graph_replay_ns_per_node" : "cuda_us", r.cuda, r.ratio,
                        r.same_result ? "true" : "false");
        }
        std::printf("], \"build_times\": %s}\n", build_times ? read_file(build_times).c_str() : "null");
    } else {
        std::printf("compiled_kernels on %s: plain SYCL built by encore++ vs hand-written CUDA (median of %d rounds)\n\n",
                    device.c_str(), rounds);
        std::printf("%-14s %-14s %12s %12s %14s %8s\n", "kernel", "unit", "encore++", "CUDA", "encore++/CUDA",
                    "result");
        for (const row& r : rows_out)
            std::printf("%-14s %-14s %12.2f %12.2f %14.3f %8s\n", r.kernel.c_str(), r.unit.c_str(), r.sycl, r.cuda,
                        r.ratio, r.same_result ? "same" : "DIFFERS");
        if (build_times) std::printf("\nbuild times: %s\n", read_file(build_times).c_str());
    }
    for (void* p : {static_cast<void*>(sx), static_cast<void*>(sy), static_cast<void*>(s_in),
                    static_cast<void*>(s_out), static_cast<void*>(si), static_cast<void*>(ssum),
                    static_cast<void*>(schain), static_cast<void*>(s_pos), static_cast<void*>(s_acc),
                    static_cast<void*>(s_sums), static_cast<void*>(s_reversed), static_cast<void*>(s_cost),
                    static_cast<void*>(s_dp), static_cast<void*>(s_strided)})
        sycl::free(p, q);
    for (void* p : {static_cast<void*>(cx), static_cast<void*>(cy), static_cast<void*>(c_in),
                    static_cast<void*>(c_out), static_cast<void*>(ci), static_cast<void*>(csum),
                    static_cast<void*>(cchain), static_cast<void*>(c_pos), static_cast<void*>(c_acc),
                    static_cast<void*>(c_sums), static_cast<void*>(c_reversed), static_cast<void*>(c_cost),
                    static_cast<void*>(c_dp), static_cast<void*>(c_strided)})
        peer_free(p);
    const bool all_same = std::all_of(rows_out.begin(), rows_out.end(), [](const row& r) { return r.same_result; });
    return all_same ? 0 : 1;
} catch (const sycl::exception& e) {
    std::fprintf(stderr, "compiled_kernels: %s\n", e.what());
    return 1;
}

// The peer of bench/compiled_kernels.cpp: the same kernels written by hand in CUDA C++ (runtime API), each
// timed the way the SYCL side is (see there). Compiled by nvcc; the SYCL program, built by encore++, links it.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

void check(cudaError_t r, const char* what) {
    if (r != cudaSuccess) {
        std::fprintf(stderr, "compiled_kernels (CUDA peer): %s: %s\n", what, cudaGetErrorString(r));
        std::exit(1);
    }
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

__global__ void saxpy(float a, const float* x, float* y, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// out = the 5-point average of in, inside the border (rows x cols, row-major).
__global__ void stencil(const float* in, float* out, size_t rows, size_t cols) {
    const size_t c = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    const size_t r = blockIdx.y * static_cast<size_t>(blockDim.y) + threadIdx.y;
    if (r == 0 || c == 0 || r >= rows - 1 || c >= cols - 1) return;
    const size_t i = r * cols + c;
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - cols] + in[i + cols]);
}

// One value per thread, a block sum by warp shuffles, one atomicAdd per block.
__global__ void reduce_sum(const int* x, size_t n, int* result) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    int v = i < n ? x[i] : 0;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    __shared__ int warps[32];
    if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? warps[threadIdx.x] : 0;
        for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
        if (threadIdx.x == 0) atomicAdd(result, v);
    }
}

__global__ void add_one(int* data, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) data[i] += 1;
}

// Body i's acceleration from every body j (position xyz, mass w), softened as the SYCL side does.
__global__ void nbody(const float4* positions, float4* accelerations, size_t bodies) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i >= bodies) return;
    const float4 pi = positions[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (size_t j = 0; j < bodies; ++j) {
        const float4 pj = positions[j];
        const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
        const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
        const float s = pj.w * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    accelerations[i] = make_float4(ax, ay, az, 0.0f);
}

// Each warp's sum of its 32 values, by __shfl_down_sync; lane 0 writes it.
__global__ void warp_sums(const int* x, size_t n, int* sums) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    int v = i < n ? x[i] : 0;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0 && i < n) sums[i / 32] = v;
}

// The next three are written as CUDA code usually is: 32-bit int indices (the SYCL side's ids are size_t).

// Each block reverses its 256 values through shared memory.
__global__ void reverse_tiles(const int* in, int* out) {
    __shared__ int tile[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = tile[blockDim.x - 1 - threadIdx.x];
}

// Row `r` of a minimum-cost path table: dp[r][c] = cost[r][c] + the least of dp[r-1][c-1 .. c+1] (clamped at the
// edges), the row above staged in shared memory with one halo value each side. `cols` is a multiple of 256.
__global__ void dp_row(const int* cost, int* dp, int r, int cols) {
    __shared__ int above[256 + 2];
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int l = threadIdx.x;
    const int* prev = dp + (r - 1) * cols;
    above[l + 1] = prev[c];
    if (l == 0) above[0] = prev[c == 0 ? 0 : c - 1];
    if (l == 255) above[257] = prev[c + 1 == cols ? c : c + 1];
    __syncthreads();
    dp[r * cols + c] = cost[r * cols + c] + min(above[l], min(above[l + 1], above[l + 2]));
}

// out[i] = in[i * stride].
__global__ void strided_copy(const float* in, float* out, int n, int stride) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * stride];
}

unsigned blocks_for(size_t n, unsigned block) {
    return static_cast<unsigned>((n + block - 1) / block);
}

// Instantiates the captured `graph`, launches it once, then `reps` times back to back on `s`: seconds per launch.
double replay_seconds(cudaGraph_t graph, cudaStream_t s, int reps) {
    cudaGraphExec_t exec = nullptr;
    check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
    check(cudaGraphLaunch(exec, s), "cudaGraphLaunch");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    const auto t = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) check(cudaGraphLaunch(exec, s), "cudaGraphLaunch");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    const double per_launch = seconds_since(t) / reps;
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    return per_launch;
}

} // namespace

// Each returns seconds per launch for `reps` launches back to back on one stream (the SYCL side does the same on
// an in-order queue), after one untimed launch.
extern "C" double peer_saxpy(float a, const float* x, float* y, size_t n, int reps) {
    saxpy<<<blocks_for(n, 256), 256>>>(a, x, y, n);
    check(cudaDeviceSynchronize(), "saxpy");
    const auto t = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) saxpy<<<blocks_for(n, 256), 256>>>(a, x, y, n);
    check(cudaDeviceSynchronize(), "saxpy");
    return seconds_since(t) / reps;
}

extern "C" double peer_stencil(const float* in, float* out, size_t rows, size_t cols, int reps) {
    const dim3 block(32, 8), grid(blocks_for(cols, 32), blocks_for(rows, 8));
    stencil<<<grid, block>>>(in, out, rows, cols);
    check(cudaDeviceSynchronize(), "stencil");
    const auto t = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) stencil<<<grid, block>>>(in, out, rows, cols);
    check(cudaDeviceSynchronize(), "stencil");
    return seconds_since(t) / reps;
}

// The sum starts from 0 at each launch (a memset, as a SYCL reduction starting from its identity does).
extern "C" double peer_reduce(const int* x, size_t n, int* result, int reps) {
    check(cudaMemsetAsync(result, 0, sizeof(int)), "reduce");
    reduce_sum<<<blocks_for(n, 256), 256>>>(x, n, result);
    check(cudaDeviceSynchronize(), "reduce");
    const auto t = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) {
        check(cudaMemsetAsync(result, 0, sizeof(int)), "reduce");
        reduce_sum<<<blocks_for(n, 256), 256>>>(x, n, result);
    }
    check(cudaDeviceSynchronize(), "reduce");
    return seconds_since(t) / reps;
}

// The reduction's memset and kernel captured into a CUDA graph, replayed `reps` times: seconds per replay.
extern "C" double peer_reduce_graph(const int* x, size_t n, int* result, int reps) {
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "reduce graph");
    cudaGraph_t graph = nullptr;
    check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "reduce graph");
    check(cudaMemsetAsync(result, 0, sizeof(int), s), "reduce graph");
    reduce_sum<<<blocks_for(n, 256), 256, 0, s>>>(x, n, result);
    check(cudaStreamEndCapture(s, &graph), "reduce graph");
    const double per_replay = replay_seconds(graph, s, reps);
    cudaStreamDestroy(s);
    return per_replay;
}

// A chain of `nodes` add_one kernels captured into a CUDA graph, instantiated once; seconds per node over
// `replays` launches back to back.
extern "C" double peer_chain_replay(int* data, size_t n, int nodes, int replays) {
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "chain");
    cudaGraph_t graph = nullptr;
    check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "chain");
    for (int k = 0; k < nodes; ++k) add_one<<<blocks_for(n, 256), 256, 0, s>>>(data, n);
    check(cudaStreamEndCapture(s, &graph), "chain");
    const double per_node = replay_seconds(graph, s, replays) / nodes;
    cudaStreamDestroy(s);
    return per_node;
}

extern "C" void* peer_malloc(size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return p;
}
extern "C" void peer_free(void* p) {
    cudaFree(p);
}
extern "C" void peer_copy(void* to, const void* from, size_t bytes) {
    check(cudaMemcpy(to, from, bytes, cudaMemcpyDefault), "cudaMemcpy");
}

extern "C" double peer_nbody(const float* positions, float* accelerations, size_t bodies, int reps) {
    const auto* p = reinterpret_cast<const float4*>(positions);
    auto* a = reinterpret_cast<float4*>(accelerations);
    nbody<<<blocks_for(bodies, 256), 256>>>(p, a, bodies);
    check(cudaDeviceSynchronize(), "nbody");
    const auto t = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) nbody<<<blocks_for(bodies, 256), 256>>>(p, a, bodies);
    check(cudaDeviceSynchronize(), "nbody");
    return seconds_since(t) / reps;
}

extern "C" double peer_sub_group_sum(const int* x, size_t n, int* sums, int reps) {
    warp_sums<<<blocks_for(n, 256), 256>>>(x, n, sums);
    check(cudaDeviceSynchronize(), "sub_group_sum");
    const auto t = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) warp_sums<<<blocks_for(n, 256), 256>>>(x, n, sums);
    check(cudaDeviceSynchronize(), "sub_group_sum");
    return seconds_since(t) / reps;
}

extern "C" double peer_local_reverse(const int* in, int* out, size_t n, int reps) {
    reverse_tiles<<<blocks_for(n, 256), 256>>>(in, out);
    check(cudaDeviceSynchronize(), "local_reverse");
    const auto t = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) reverse_tiles<<<blocks_for(n, 256), 256>>>(in, out);
    check(cudaDeviceSynchronize(), "local_reverse");
    return seconds_since(t) / reps;
}

// Fills rows 1 .. rows-1 of `dp` (row 0 is the caller's), one launch per row, `reps` times: seconds per row.
extern "C" double peer_dp_rows(const int* cost, int* dp, size_t rows, size_t cols, int reps) {
    dp_row<<<blocks_for(cols, 256), 256>>>(cost, dp, 1, static_cast<int>(cols));
    check(cudaDeviceSynchronize(), "dp_rows");
    const auto t = std::chrono::steady_clock::now();
    for (int k = 0; k < reps; ++k)
        for (size_t r = 1; r < rows; ++r)
            dp_row<<<blocks_for(cols, 256), 256>>>(cost, dp, static_cast<int>(r), static_cast<int>(cols));
    check(cudaDeviceSynchronize(), "dp_rows");
    return seconds_since(t) / (reps * static_cast<double>(rows - 1));
}

extern "C" double peer_strided_copy(const float* in, float* out, size_t n, int stride, int reps) {
    strided_copy<<<blocks_for(n, 256), 256>>>(in, out, static_cast<int>(n), stride);
    check(cudaDeviceSynchronize(), "strided_copy");
    const auto t = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) strided_copy<<<blocks_for(n, 256), 256>>>(in, out, static_cast<int>(n), stride);
    check(cudaDeviceSynchronize(), "strided_copy");
    return seconds_since(t) / reps;
}

// The peer of bench/sycl_submit.cpp: the same tiny kernels launched raw with cuLaunchKernel (the CUfunction of
// each kernel from cudaGetFuncBySymbol; dynamic shared memory where the SYCL form has a local_accessor), `count`
// launches back to back on one stream, then one synchronize. Compiled by nvcc; the SYCL program links it.
#include <cuda.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

void check(cudaError_t r, const char* what) {
    if (r != cudaSuccess) {
        std::fprintf(stderr, "sycl_submit (CUDA peer): %s: %s\n", what, cudaGetErrorString(r));
        std::exit(1);
    }
}

void check(CUresult r, const char* what) {
    if (r != CUDA_SUCCESS) {
        const char* name = nullptr;
        cuGetErrorName(r, &name);
        std::fprintf(stderr, "sycl_submit (CUDA peer): %s: %s\n", what, name ? name : "?");
        std::exit(1);
    }
}

// One work-group of 64 reverses 64 ints through shared memory (the SYCL form: nd_range + local_accessor + barrier).
__global__ void reverse64(int* p) {
    extern __shared__ int tile[];
    const unsigned l = threadIdx.x;
    tile[l] = p[l];
    __syncthreads();
    p[l] = tile[63 - l];
}

__global__ void add_one_single(int* p) { p[0] += 1; }

__global__ void add_one(int* p, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) p[i] += 1;
}

CUfunction function_of(const void* kernel) {
    cudaFunction_t f = nullptr;
    check(cudaGetFuncBySymbol(&f, kernel), "cudaGetFuncBySymbol");
    return reinterpret_cast<CUfunction>(f);
}

struct peer {
    cudaStream_t stream = nullptr;
    CUfunction reverse = nullptr, single = nullptr, add = nullptr;
    peer() {
        check(cudaFree(nullptr), "cudaFree(nullptr)"); // the primary context
        check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
        reverse = function_of(reinterpret_cast<const void*>(&reverse64));
        single = function_of(reinterpret_cast<const void*>(&add_one_single));
        add = function_of(reinterpret_cast<const void*>(&add_one));
    }
};

peer& the_peer() {
    static peer p;
    return p;
}

} // namespace

extern "C" {

void* peer_malloc(size_t bytes) {
    the_peer();
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    check(cudaMemset(p, 0, bytes), "cudaMemset");
    return p;
}

void peer_free(void* p) { check(cudaFree(p), "cudaFree"); }

// Seconds for `count` launches of form `form` (0: the 64-int reversal with 256 bytes of dynamic shared memory,
// one block of 64; 1: one thread adding one; 2: 1,024 threads adding one, blocks of 256) and the wait for them.
double peer_launches(int form, int* p, int count) {
    peer& g = the_peer();
    size_t n = 1024;
    void* reverse_args[] = {&p};
    void* add_args[] = {&p, &n};
    check(cudaStreamSynchronize(g.stream), "cudaStreamSynchronize");
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) {
        switch (form) {
        case 0: check(cuLaunchKernel(g.reverse, 1, 1, 1, 64, 1, 1, 64 * sizeof(int), g.stream, reverse_args, nullptr), "cuLaunchKernel"); break;
        case 1: check(cuLaunchKernel(g.single, 1, 1, 1, 1, 1, 1, 0, g.stream, reverse_args, nullptr), "cuLaunchKernel"); break;
        default: check(cuLaunchKernel(g.add, 4, 1, 1, 256, 1, 1, 0, g.stream, add_args, nullptr), "cuLaunchKernel"); break;
        }
    }
    check(cudaStreamSynchronize(g.stream), "cudaStreamSynchronize");
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // extern "C"

// Helpers of the CUDA backend tests: the CUDA device, NVRTC test kernels, USM arrays that free themselves.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "encore/backends/cuda/cuda_module.hpp"
#include "encore/backends/runtime.hpp"
#include "support/usm_array.hpp"

namespace encore::cuda_testing {

inline device cuda_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == "cuda") return d;
    throw error(errc::backend_failure, "no cuda device (the test main checks this first)");
}

inline device native_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == "native") return d;
    throw error(errc::backend_failure, "no native device");
}

// Kernels of the tests, compiled once by NVRTC (PTX; the driver compiles it for the GPU).
inline const std::shared_ptr<const cuda::module>& test_module() {
    static const auto m = cuda::module::load(cuda::build_program(R"(
extern "C" __global__ void add_one(int* data) {
    data[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}
extern "C" __global__ void saxpy(float a, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
}
// 2-D: SYCL dimension 1 is CUDA's x.
extern "C" __global__ void index_2d(int* data, int width) {
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
    data[row * width + col] = static_cast<int>(row * 1000 + col);
}
extern "C" __global__ void set_value(int* data, int value) {
    data[blockIdx.x * blockDim.x + threadIdx.x] = value;
}
extern "C" __global__ void empty() {}
// More parameters (11) and bytes (over 400) than a launch keeps inline.
struct table { int v[100]; };
extern "C" __global__ void many_parameters(int* out, int a, int b, int c, int d, int e, int f, int g, int h, int i,
                                           table t) {
    unsigned k = threadIdx.x;
    out[k] = a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + t.v[k];
}
)",
        {}, "encore_cuda_tests.cu"));
    return m;
}

inline std::shared_ptr<const kernel> test_kernel(const char* name) {
    return cuda::get_kernel(test_module(), name);
}

// A USM array of the CUDA device, freed on destruction (its device memory is not host-writable: tests set it).
template <typename T> class usm : public testing::usm_array<T> {
public:
    explicit usm(std::size_t count, memory_kind kind = memory_kind::shared)
        : testing::usm_array<T>(count, cuda_device(), kind, /*host_writable=*/false) {}
};

} // namespace encore::cuda_testing

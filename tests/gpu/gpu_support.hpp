// Helpers of the GPU backend tests, which run on CUDA (tests/cuda) and on HIP (tests/hip) alike: the device,
// the test kernels compiled at run time (NVRTC, hiprtc: one CUDA/HIP C++ source), USM arrays that free themselves.
// The test executable is built for one API: ENCORE_GPU_TESTS_HIP selects HIP, otherwise CUDA.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#ifdef ENCORE_GPU_TESTS_HIP
#include "encore/backends/hip/hip_module.hpp"
#else
#include "encore/backends/cuda/cuda_module.hpp"
#endif
#include "encore/runtime/runtime.hpp"
#include "support/usm_array.hpp"

namespace encore::gpu_testing {

#ifdef ENCORE_GPU_TESTS_HIP
inline constexpr std::string_view backend_name = "hip";
using hip::build_program;
using hip::get_kernel;
using hip::module;
#else
inline constexpr std::string_view backend_name = "cuda";
using cuda::build_program;
using cuda::get_kernel;
using cuda::module;
#endif

inline device gpu_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == backend_name) return d;
    throw error(errc::backend_failure, "no " + std::string(backend_name) + " device (the test main checks this first)");
}

inline device native_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == "native") return d;
    throw error(errc::backend_failure, "no native device");
}

// Kernels of the tests, compiled once at run time (NVRTC: PTX, which the driver compiles for the GPU; hiprtc: a
// code object for the current device).
inline const std::shared_ptr<const module>& test_module() {
    static const auto m = module::load(build_program(R"(
extern "C" __global__ void add_one(int* data) {
    data[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}
extern "C" __global__ void saxpy(float a, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
}
// 2-D: SYCL dimension 1 is the GPU's x.
extern "C" __global__ void index_2d(int* data, int width) {
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
    data[row * width + col] = static_cast<int>(row * 1000 + col);
}
extern "C" __global__ void set_value(int* data, int value) {
    data[blockIdx.x * blockDim.x + threadIdx.x] = value;
}
extern "C" __global__ void empty() {}
// Busy for `cycles` of the GPU's clock: the profiler's tests give each node a known minimum time.
#define ENCORE_SPIN(name)                                                                                      \
    extern "C" __global__ void name(long long cycles) {                                                      \
        const long long start = clock64();                                                                   \
        while (clock64() - start < cycles) {                                                                 \
        }                                                                                                    \
    }
ENCORE_SPIN(spin_a)
ENCORE_SPIN(spin_b)
ENCORE_SPIN(spin_c)
ENCORE_SPIN(spin_d)
// More parameters (11) and bytes (over 400) than a launch keeps inline.
struct table { int v[100]; };
extern "C" __global__ void many_parameters(int* out, int a, int b, int c, int d, int e, int f, int g, int h, int i,
                                           table t) {
    unsigned k = threadIdx.x;
    out[k] = a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + t.v[k];
}
)",
        {}, "encore_gpu_tests.cu"));
    return m;
}

inline std::shared_ptr<const kernel> test_kernel(const char* name) {
    return get_kernel(test_module(), name);
}

// A USM array of the GPU device, freed on destruction (its device memory is not host-writable: tests set it).
template <typename T> class usm : public testing::usm_array<T> {
public:
    explicit usm(std::size_t count, memory_kind kind = memory_kind::shared)
        : testing::usm_array<T>(count, gpu_device(), kind, /*host_writable=*/false) {}
};

} // namespace encore::gpu_testing

// Helpers of the OpenCL backend tests: the OpenCL device, the test program (OpenCL C), USM arrays that free
// themselves.
#pragma once

#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>

#include "encore/backends/opencl/opencl_program.hpp"
#include "encore/runtime/runtime.hpp"
#include "support/usm_array.hpp"

namespace encore::opencl_testing {

inline device opencl_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == "opencl") return d;
    throw error(errc::backend_failure, "no opencl device (the test main checks this first)");
}

inline device native_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == "native") return d;
    throw error(errc::backend_failure, "no native device");
}

inline const char* test_source() {
    return R"(
kernel void add_one(global int* data) { data[get_global_id(0)] += 1; }
kernel void add(global int* data, int value) { data[get_global_id(0)] += value; }
kernel void saxpy(float a, global const float* x, global float* y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
// 2-D: SYCL dimension 1 (the fastest) is OpenCL dimension 0.
kernel void index_2d(global int* data, int width) {
    size_t col = get_global_id(0), row = get_global_id(1);
    data[row * width + col] = (int)(row * 1000 + col);
}
kernel void set_value(global int* data, int value) { data[get_global_id(0)] = value; }
// Each group sums its items through local memory; item 0 writes the group's sum.
kernel void group_sum(global const int* in, global int* out, local int* scratch) {
    size_t l = get_local_id(0), n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int sum = 0;
        for (size_t i = 0; i < n; ++i) sum += scratch[i];
        out[get_group_id(0)] = sum;
    }
}
// out[i] = in[i] * 2 + 1: a step that shows the order of a chain.
kernel void twice_plus_one(global const int* in, global int* out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * 2 + 1;
}
kernel void empty_kernel() {}
// out[i] = 1 where `p` is a null pointer, 2 where it is not.
kernel void is_null(global const int* p, global int* out) { out[get_global_id(0)] = p == 0 ? 1 : 2; }
)";
}

// The test program, built once for the OpenCL device.
inline const std::shared_ptr<const opencl::program>& test_program() {
    static const auto p = opencl::program::load(
        opencl::build_program(opencl_device(), opencl::program_source::opencl_c(test_source())));
    return p;
}

inline std::shared_ptr<const kernel> test_kernel(const char* name) {
    return opencl::get_kernel(test_program(), name);
}

// Whether graphs of the OpenCL device lower to command buffers (else launch plans).
inline bool uses_command_buffers() {
    return opencl_device().properties().native_graphs;
}

// The mutable-dispatch test layer's counters (mutable_dispatch_layer.cpp), when the backend loaded it
// (ENCORE_OPENCL_LIBRARY); false otherwise.
struct layer_counters {
    unsigned (*buffers_created)() = nullptr;
    unsigned (*updates)() = nullptr;
    unsigned (*markers)() = nullptr;
    explicit operator bool() const { return buffers_created && updates && markers; }
};
inline layer_counters test_layer() {
    layer_counters c;
    const char* path = std::getenv("ENCORE_OPENCL_LIBRARY");
    void* layer = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (!layer) return c;
    c.buffers_created = reinterpret_cast<unsigned (*)()>(dlsym(layer, "encore_test_layer_buffers_created"));
    c.updates = reinterpret_cast<unsigned (*)()>(dlsym(layer, "encore_test_layer_updates"));
    c.markers = reinterpret_cast<unsigned (*)()>(dlsym(layer, "encore_test_layer_markers"));
    return c;
}

template <typename T> class usm : public testing::usm_array<T> {
public:
    explicit usm(std::size_t count, memory_kind kind = memory_kind::shared)
        : testing::usm_array<T>(count, opencl_device(), kind, /*host_writable=*/false) {}
};

} // namespace encore::opencl_testing

// The kernel objects of bench/spir_route (spir_route_device.cpp on the device, spir_route.cpp on the host).
#pragma once

#include <cstddef>

#if defined(__HIP_DEVICE_COMPILE__)
#define SPIR_ROUTE_HOST_DEVICE __attribute__((host, device))
#else
#define SPIR_ROUTE_HOST_DEVICE
#endif

struct saxpy_kernel {
    float a;
    const float* x;
    float* y;
    SPIR_ROUTE_HOST_DEVICE void operator()(std::size_t i) const { y[i] = a * x[i] + y[i]; }
};

struct reverse_kernel {
    const int* in;
    int* out;
};

struct histogram_kernel {
    const int* values;
    int* bins; // 256
    SPIR_ROUTE_HOST_DEVICE void operator()(std::size_t i) const { __sync_fetch_and_add(&bins[values[i] & 255], 1); }
};

// Helpers of the OpenCL tests that go through SYCL: a queue on the first OpenCL device (the one opencl_device() of
// opencl_support.hpp is).
#pragma once

#include <stdexcept>

#include <sycl/sycl.hpp>

namespace encore::opencl_testing {

inline sycl::queue opencl_queue(const sycl::property_list& properties = {}) {
    for (const auto& d : sycl::device::get_devices())
        if (d.get_backend() == sycl::backend::opencl) return sycl::queue(d, properties);
    throw std::runtime_error("no OpenCL device");
}

} // namespace encore::opencl_testing

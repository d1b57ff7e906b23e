// Unified shared memory: allocations a device's work can use through plain pointers (SYCL's malloc_device,
// malloc_host, malloc_shared and free).
//
// Device memory is for the device's work only; host memory is host memory the device can read and write;
// shared memory is usable from both and migrates as needed (prefetch and mem_advise commands steer it). On
// the native backend all three are aligned host memory. Every allocation is aligned to at least the device's
// allocation_alignment (64 bytes on native); free() must be given the device (or a queue of the device) that
// allocated, and throws encore::error(invalid_argument) for a pointer that device did not allocate.
//
//     float* x = encore::malloc_shared<float>(n, q);
//     q.fill(x, 1.0f, n).wait();
//     encore::free(x, q);
#pragma once

#include <cstddef>

#include "encore/runtime/device.hpp"
#include "encore/runtime/queue.hpp"

namespace encore {

void* malloc(std::size_t bytes, const device& d, memory_kind kind, std::size_t alignment = 0);
void* malloc_device(std::size_t bytes, const device& d);
void* malloc_host(std::size_t bytes, const device& d);
void* malloc_shared(std::size_t bytes, const device& d);
void* malloc_device(std::size_t bytes, const queue& q);
void* malloc_host(std::size_t bytes, const queue& q);
void* malloc_shared(std::size_t bytes, const queue& q);
void free(void* pointer, const device& d);
void free(void* pointer, const queue& q);

// Device memory the host reaches only when mapped (device_properties::mapped_device_memory, OpenCL devices with
// coarse-grain SVM): map_for_host makes [pointer, +bytes) of a device allocation of `d` the host's until
// unmap_for_host gives it back; the device's work must not touch the range in between. Both block. Throws
// errc::feature_not_supported on devices without such memory, errc::invalid_argument for a range `d` did not
// allocate.
void map_for_host(void* pointer, std::size_t bytes, const device& d);
void unmap_for_host(void* pointer, std::size_t bytes, const device& d);

template <typename T> T* malloc_device(std::size_t count, const device& d) {
    return static_cast<T*>(malloc(count * sizeof(T), d, memory_kind::device, alignof(T)));
}
template <typename T> T* malloc_host(std::size_t count, const device& d) {
    return static_cast<T*>(malloc(count * sizeof(T), d, memory_kind::host, alignof(T)));
}
template <typename T> T* malloc_shared(std::size_t count, const device& d) {
    return static_cast<T*>(malloc(count * sizeof(T), d, memory_kind::shared, alignof(T)));
}
template <typename T> T* malloc_device(std::size_t count, const queue& q) {
    return malloc_device<T>(count, q.get_device());
}
template <typename T> T* malloc_host(std::size_t count, const queue& q) {
    return malloc_host<T>(count, q.get_device());
}
template <typename T> T* malloc_shared(std::size_t count, const queue& q) {
    return malloc_shared<T>(count, q.get_device());
}

} // namespace encore

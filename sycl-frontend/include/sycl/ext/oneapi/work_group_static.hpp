// sycl_ext_oneapi_work_group_static: work_group_static<T>, an object of work-group local memory declared with
// static storage (at namespace scope, or `static` in a function or a class), one per work-group.
//
// Encore implements the extension's reduced feature set: a work_group_static in a function must be declared
// `static` (encore-outliner refuses one that is not; a g++ build cannot tell, and such an object would be each
// work-item's own). On a CUDA device the variable is __shared__ (encore-outliner declares it so in the device
// code); on the native backend each worker thread keeps a block per variable for the work-group it runs
// (sycl/detail/work_group_storage.hpp). Its value is indeterminate when a work-group starts.
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     syclex::work_group_static<int[64]> tile;                // at namespace scope
//     ... [=](sycl::nd_item<1> it) {
//         tile[it.get_local_id(0)] = in[it.get_global_id(0)];
//         sycl::group_barrier(it.get_group());
//         out[it.get_global_id(0)] = tile[63 - it.get_local_id(0)];
//     }
#pragma once

#define SYCL_EXT_ONEAPI_WORK_GROUP_STATIC 1

#include <type_traits>

#include "sycl/detail/host_device.hpp"
#include "sycl/detail/work_group_storage.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

template <typename T> class work_group_static final {
    static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>,
                  "work_group_static: T must be trivially constructible and trivially destructible");

public:
    work_group_static() = default;
    work_group_static(const work_group_static&) = delete;
    work_group_static& operator=(const work_group_static&) = delete;

    // This work-group's object.
    ENCORE_HOST_DEVICE operator T&() const noexcept { return *address(); }
    ENCORE_HOST_DEVICE const work_group_static& operator=(const T& value) const noexcept
        requires(!std::is_array_v<T>)
    {
        *address() = value;
        return *this;
    }
    ENCORE_HOST_DEVICE T* operator&() const noexcept { return address(); }

private:
    ENCORE_HOST_DEVICE T* address() const noexcept {
#if defined(__CUDA_ARCH__)
        return const_cast<T*>(&storage_); // the variable itself is __shared__
#else
        return static_cast<T*>(sycl::detail::work_group_storage(this, sizeof(T), alignof(T)));
#endif
    }
    T storage_; // the object on a CUDA device; unused on the host
};

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

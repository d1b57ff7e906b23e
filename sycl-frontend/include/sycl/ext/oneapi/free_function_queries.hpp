// sycl_ext_oneapi_free_function_queries: the current work-item, asked for from anywhere in a kernel's call
// tree
// (`this_work_item::get_nd_item<N>()`) instead of passed down as an argument.
//
// Encore answers it in free-function kernels (sycl/ext/oneapi/experimental/free_function_kernels.hpp): on the
// native backend the kernel sets the work-item it runs before calling the function, and on CUDA the entry
// encore++ writes does the same. Lambda and functor kernels are not covered yet (on the host it throws
// errc::invalid there: no work-item).
//
//     SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
//     void twice(int* p) { p[sycl::ext::oneapi::this_work_item::get_nd_item<1>().get_global_id(0)] *= 2; }
#pragma once

#include <string>

#include "encore/graph/kernel.hpp"
#include "sycl/detail/host_device.hpp"
#include "sycl/exception.hpp"
#include "sycl/item.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {
// current_work_item (sycl/item.hpp): the work-item a free-function kernel is running on this host thread, or null.

#if defined(__CUDACC__)
// On the GPU: the work-item the free-function kernel's entry (encore-outliner's) built, through a
// block-shared slot. Every thread stores the address of the entry's own local variable there: the same
// generic address in each thread (local memory is per thread behind one window), which each thread then reads
// as its own work-item.
__device__ inline const ::encore::work_item*& device_work_item_slot() {
    __shared__ const ::encore::work_item* slot;
    return slot;
}
#endif

ENCORE_HOST_DEVICE inline const ::encore::work_item& this_work_item_of(int dimensions, const char* call) {
#if defined(__CUDA_ARCH__)
    static_cast<void>(dimensions);
    static_cast<void>(call);
    return *device_work_item_slot();
#else
    const ::encore::work_item* w = current_work_item;
    if (!w)
        throw exception(errc::invalid,
                        std::string(call) +
                            ": no work-item: called outside a free-function kernel (Encore answers it "
                            "there only)");
    if (dimensions != 0 && w->dimensions != dimensions) // 0: any
        throw exception(errc::invalid, std::string(call) + "<" + std::to_string(dimensions) +
                                           ">: the kernel runs over " + std::to_string(w->dimensions) +
                                           " dimension(s)");
    return *w;
#endif
}
} // namespace detail

namespace ext::oneapi::this_work_item {
template <int Dimensions> ENCORE_HOST_DEVICE nd_item<Dimensions> get_nd_item() {
    return detail::item_factory::make_nd_item<Dimensions>(
        detail::this_work_item_of(Dimensions, "get_nd_item"));
}
template <int Dimensions> ENCORE_HOST_DEVICE group<Dimensions> get_work_group() {
    return detail::item_factory::make_group<Dimensions>(
        detail::this_work_item_of(Dimensions, "get_work_group"));
}
// The sub-group of the kernel's work-item (any number of dimensions).
ENCORE_HOST_DEVICE inline sub_group get_sub_group() {
    return detail::item_factory::make_sub_group(detail::this_work_item_of(0, "get_sub_group"));
}
} // namespace ext::oneapi::this_work_item

} // namespace _V1
} // namespace sycl

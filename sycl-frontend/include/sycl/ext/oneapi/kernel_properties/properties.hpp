// sycl_ext_oneapi_kernel_properties and the free-function kernel properties: what a kernel says about how it is
// launched. `single_task_kernel` and `nd_range_kernel<N>` mark free-function kernels
// (SYCL_EXT_ONEAPI_FUNCTION_PROPERTY, sycl/ext/oneapi/experimental/free_function_kernels.hpp).
//
// In a g++ build the marking is not visible to the program (g++ keeps no attribute a program can read), so Encore
// does not check it: a free-function kernel is launched as the program's call asks (single_task or parallel_for with
// an nd_range). encore-outliner reads it (the number of dimensions its device entry builds the work-item for).
//
//     SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
//     void iota(float start, float* out) {
//         auto it = sycl::ext::oneapi::this_work_item::get_nd_item<1>();
//         out[it.get_global_id(0)] = start + it.get_global_id(0);
//     }
#pragma once

#include <type_traits>

#include "sycl/ext/oneapi/properties/properties.hpp"

// Before a free-function kernel's declaration: its launch property. Under Clang (encore-outliner's parse) an
// annotation carries the launch's dimensions (0: single_task), from which the outliner writes the device entry.
#if defined(__clang__)
#define SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(PROP)                                                                     \
    __attribute__((annotate("sycl_ext_oneapi_free_function",                                                       \
                            ::sycl::detail::launch_dimensions<decltype(PROP)>)))
#else
#define SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(PROP)
#endif

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

struct single_task_kernel_key {
    struct value_t {};
};
inline constexpr single_task_kernel_key::value_t single_task_kernel;

struct nd_range_kernel_key {
    template <int Dimensions> struct value_t {
        static_assert(Dimensions >= 1 && Dimensions <= 3, "nd_range_kernel: 1, 2 or 3 dimensions");
        static constexpr int dimensions = Dimensions;
    };
};
template <int Dimensions> inline constexpr nd_range_kernel_key::value_t<Dimensions> nd_range_kernel;

} // namespace ext::oneapi::experimental

namespace detail {
// The launch a free-function property names: nd_range_kernel<N>'s N, 0 for single_task_kernel.
template <typename Property> struct launch_dimensions_of {
    static constexpr int value = 0;
};
template <int N> struct launch_dimensions_of<ext::oneapi::experimental::nd_range_kernel_key::value_t<N>> {
    static constexpr int value = N;
};
template <typename Property>
inline constexpr int launch_dimensions = launch_dimensions_of<std::remove_cvref_t<Property>>::value;
} // namespace detail
} // namespace _V1
} // namespace sycl

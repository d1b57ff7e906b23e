// sycl_ext_oneapi_kernel_properties and the free-function kernel properties: what a kernel says about how it
// is launched. `single_task_kernel` and `nd_range_kernel<N>` mark free-function kernels
// (SYCL_EXT_ONEAPI_FUNCTION_PROPERTY, sycl/ext/oneapi/experimental/free_function_kernels.hpp).
//
// In a g++ build the marking is not visible to the program (g++ keeps no attribute a program can read), so
// Encore does not check it: a free-function kernel is launched as the program's call asks (single_task or
// parallel_for with an nd_range). encore-outliner reads it (the number of dimensions its device entry builds
// the work-item for).
//
//     SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
//     void iota(float start, float* out) {
//         auto it = sycl::ext::oneapi::this_work_item::get_nd_item<1>();
//         out[it.get_global_id(0)] = start + it.get_global_id(0);
//     }
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "encore/graph/kernel.hpp"
#include "sycl/device.hpp"
#include "sycl/exception.hpp"
#include "sycl/ext/oneapi/properties/properties.hpp"
#include "sycl/info.hpp"

// Before a free-function kernel's declaration: its launch property. Under Clang (encore-outliner's parse) an
// annotation carries the launch's dimensions (0: single_task), from which the outliner writes the device
// entry.
#if defined(__clang__)
#define SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(PROP)                                                              \
    __attribute__((                                                                                          \
        annotate("sycl_ext_oneapi_free_function", ::sycl::detail::launch_dimensions<decltype(PROP)>)))
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

// sycl_ext_oneapi_kernel_properties: given to parallel_for / single_task before the kernel
// (`h.parallel_for(r, syclexp::properties{syclexp::work_group_size<8>}, k)`), in a launch_config, or by a
// functor's `get(syclexp::properties_tag)`.
// - work_group_size<N...>: the kernel runs in work-groups of exactly that size. An nd_range of another local
// size
//   is errc::nd_range; a range launch takes it as its work-group size (errc::nd_range unless it divides the
//   range).
// - work_group_size_hint<N...>: accepted, no effect (Encore's backends choose range launches' groups
// themselves).
// - sub_group_size<N>: the kernel's sub-groups must hold N work-items. Encore's hold 32 on every backend
//   (sycl/sub_group.hpp): sub_group_size<32> is accepted, any other size is errc::kernel_not_supported.
// - device_has<aspects...>: the device must have every aspect (errc::kernel_not_supported otherwise).
// - work_group_scratch_size{bytes} (a launch property, below): the launch's work-group scratch memory.
struct work_group_size_key {
    template <std::size_t... Sizes> struct value_t {
        static_assert(sizeof...(Sizes) >= 1 && sizeof...(Sizes) <= 3, "work_group_size: 1, 2 or 3 sizes");
        static_assert(((Sizes > 0) && ...), "work_group_size: every size is at least 1");
    };
};
template <std::size_t... Sizes> inline constexpr work_group_size_key::value_t<Sizes...> work_group_size;
struct work_group_size_hint_key {
    template <std::size_t... Sizes> struct value_t {
        static_assert(sizeof...(Sizes) >= 1 && sizeof...(Sizes) <= 3,
                      "work_group_size_hint: 1, 2 or 3 sizes");
    };
};
template <std::size_t... Sizes>
inline constexpr work_group_size_hint_key::value_t<Sizes...> work_group_size_hint;
struct sub_group_size_key {
    template <std::uint32_t Size> struct value_t {};
};
template <std::uint32_t Size> inline constexpr sub_group_size_key::value_t<Size> sub_group_size;
struct device_has_key {
    template <aspect... Aspects> struct value_t {};
};
template <aspect... Aspects> inline constexpr device_has_key::value_t<Aspects...> device_has;
// What a kernel functor's get(properties_tag) is called with.
struct properties_tag {};

// sycl_ext_oneapi_work_group_scratch_memory: the bytes of work-group local memory that
// get_work_group_scratch_memory() (sycl/ext/oneapi/work_group_scratch_memory.hpp) returns in this
// launch. A launch property: given to parallel_for / nd_launch (in a launch_config), not by a functor's get().
struct work_group_scratch_size {
    constexpr work_group_scratch_size(std::size_t bytes) : value(bytes) {}
    std::size_t value;
};
using work_group_scratch_size_key = work_group_scratch_size;

} // namespace ext::oneapi::experimental

namespace detail {
// What a launch's properties ask beyond its range: the work-group scratch memory's size, when given.
struct launch_extras {
    std::optional<std::size_t> scratch_bytes;
};

// Which kernel property a type is (class templates matched by partial specialization: nvcc's front end does not
// take the generic lambdas a requires-expression would match them with).
template <typename P> struct work_group_size_property : std::false_type {};
template <std::size_t... S>
struct work_group_size_property<ext::oneapi::experimental::work_group_size_key::value_t<S...>> : std::true_type {
    static constexpr std::size_t sizes[] = {S...};
    static constexpr int count = static_cast<int>(sizeof...(S));
};
template <typename P> struct device_has_property : std::false_type {};
template <aspect... A>
struct device_has_property<ext::oneapi::experimental::device_has_key::value_t<A...>> : std::true_type {
    static bool held_by(const device& d) { return (d.has(A) && ...); }
};
// Accepted without effect.
template <typename P> struct hint_property : std::false_type {};
template <std::size_t... S>
struct hint_property<ext::oneapi::experimental::work_group_size_hint_key::value_t<S...>> : std::true_type {};
template <typename P> struct sub_group_size_property : std::false_type {};
template <std::uint32_t S>
struct sub_group_size_property<ext::oneapi::experimental::sub_group_size_key::value_t<S>> : std::true_type {
    static constexpr std::uint32_t size = S;
};

// Applies the kernel properties of `list` to a launch of `dimensions` dimensions over `r` on `d` (see above).
template <typename P>
void apply_kernel_property(const P& p, ::encore::nd_range& r, const device& d, const std::string& kernel,
                           launch_extras& extras) {
    if constexpr (std::is_same_v<P, ext::oneapi::experimental::work_group_scratch_size>) {
        extras.scratch_bytes = p.value;
    } else if constexpr (work_group_size_property<P>::value) {
        constexpr int count = work_group_size_property<P>::count;
        const auto& wanted = work_group_size_property<P>::sizes;
        std::string text;
        for (int i = 0; i < count; ++i)
            text += (i ? ", " : "") + std::to_string(wanted[i]);
        if (count != r.dimensions)
            throw exception(errc::nd_range, "kernel '" + kernel + "': work_group_size<" + text + "> has " +
                                                std::to_string(count) + " dimension(s); the launch has " +
                                                std::to_string(r.dimensions));
        if (r.has_local_size()) {
            for (int i = 0; i < count; ++i)
                if (r.local[static_cast<std::size_t>(i)] != wanted[i])
                    throw exception(errc::nd_range, "kernel '" + kernel + "' runs in work-groups of " + text +
                                                        " (work_group_size); the nd_range's local size differs "
                                                        "in dimension " +
                                                        std::to_string(i));
        } else {
            for (int i = 0; i < count; ++i) {
                if (r.global[static_cast<std::size_t>(i)] % wanted[i] != 0)
                    throw exception(errc::nd_range, "kernel '" + kernel + "' runs in work-groups of " + text +
                                                        " (work_group_size), which do not divide the range in "
                                                        "dimension " +
                                                        std::to_string(i));
                r.local[static_cast<std::size_t>(i)] = wanted[i];
            }
            for (int i = count; i < 3; ++i)
                r.local[static_cast<std::size_t>(i)] = 1;
        }
    } else if constexpr (sub_group_size_property<P>::value) {
        if (sub_group_size_property<P>::size != ::encore::sub_group_width)
            throw exception(errc::kernel_not_supported,
                            "kernel '" + kernel + "' requires sub-groups of " +
                                std::to_string(sub_group_size_property<P>::size) +
                                " work-items (sub_group_size); Encore's sub-groups hold " +
                                std::to_string(::encore::sub_group_width) + " on every device");
    } else if constexpr (device_has_property<P>::value) {
        if (!device_has_property<P>::held_by(d))
            throw exception(errc::kernel_not_supported, "kernel '" + kernel +
                                                            "' needs aspects (device_has) that device '" +
                                                            d.engine().properties().name + "' does not have");
    } else {
        static_assert(hint_property<P>::value,
                      "parallel_for: Encore takes the kernel properties work_group_size, work_group_size_hint, "
                      "sub_group_size, device_has and work_group_scratch_size");
    }
}
template <typename... Ps>
void apply_kernel_properties(const ext::oneapi::experimental::properties<Ps...>& list, ::encore::nd_range& r,
                             const device& d, const std::string& kernel, launch_extras& extras) {
    (apply_kernel_property(list.template get_property<Ps>(), r, d, kernel, extras), ...);
}

// The launch a free-function property names: nd_range_kernel<N>'s N, 0 for single_task_kernel.
template <typename Property> struct launch_dimensions_of { static constexpr int value = 0; };
template <int N> struct launch_dimensions_of<ext::oneapi::experimental::nd_range_kernel_key::value_t<N>> {
    static constexpr int value = N;
};
template <typename Property>
inline constexpr int launch_dimensions = launch_dimensions_of<std::remove_cvref_t<Property>>::value;
} // namespace detail
} // namespace _V1
} // namespace sycl

// A SYCL test kernel written once and launched in the form the queue's backend runs: a C++ lambda (host-compiled)
// on the native backend, the same body as an OpenCL C kernel on the OpenCL backend. The SYCL suites' bodies stay
// one for every backend they run on (tests/meson.build's behaviour_backends).
//
//     ENCORE_SYCL_TEST_KERNEL(add_to, (int* v, int x), { v[i] += x; });
//     q.submit([&](sycl::handler& h) { add_to.parallel_for(h, sycl::range<1>{n}, v, 2); });
//     q.submit([&](sycl::handler& h) { add_to.single_task(h, v, 2); });       // i is 0
//     q.submit([&](sycl::handler& h) { add_to.parallel_for(h, sycl::nd_range<1>{{n}, {8}}, v, 2); });
//     add_to.parallel_for(q, sycl::range<1>{n}, {e}, v, 2);                    // submits, after the events e
//     sycl::kernel k = add_to.object(q.get_device());                          // for set_arg(s), dynamic parameters
//
// The body sees its parameters and `i`, the work-item's linear id (SYCL's get_linear_id()); it must be C that
// C++ and OpenCL C both read: `(int)i`, not static_cast. Parameters are scalars and pointers (OpenCL C gets
// them as `global` pointers); a pointer's argument is a USM pointer or an accessor of a buffer, which the body
// sees as set_arg passes it: the start of the buffer (so subscripts of a ranged accessor are not shifted). The
// kernel's name is its OpenCL C name: not an OpenCL C built-in.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <sycl/sycl.hpp>

#include "support/test_kernels.hpp"

namespace encore::testing {

// What a SYCL lambda over a range or an nd_range receives, and its linear id.
template <typename Range> struct launch_of;
template <int D> struct launch_of<sycl::range<D>> {
    using item = sycl::item<D>;
    static std::size_t linear_id(const item& it) { return it.get_linear_id(); }
};
template <int D> struct launch_of<sycl::nd_range<D>> {
    using item = sycl::nd_item<D>;
    static std::size_t linear_id(const item& it) { return it.get_global_linear_id(); }
};

// `kernel void <name>(<params>) { size_t i = <linear id>; <body> }` with the pointer parameters made `global`.
std::string opencl_c_test_kernel(const std::string& name, const std::string& params, const std::string& body);

// The kernel `name` of the OpenCL C program `source` built for `d`, once per device and source. Throws
// encore::error(feature_not_supported) where the build has no OpenCL backend or `d` is not an OpenCL device.
std::shared_ptr<const kernel> source_kernel(const device& d, const std::string& source, const std::string& name);

template <typename... P> class sycl_test_kernel {
public:
    using function = void (*)(std::size_t, P...);

    sycl_test_kernel(const char* name, const char* params, const char* body, function f)
        : name_(name), source_(opencl_c_test_kernel(name, params, body)), function_(f) {}

    // Over a range (`i`: the item's linear id) or an nd_range (`i`: the global linear id).
    template <typename Range, typename... A> void parallel_for(sycl::handler& h, Range r, A&&... args) const {
        static_assert(sizeof...(A) == sizeof...(P), "one argument per kernel parameter");
        using launch = launch_of<Range>;
        const device d = h.encore_device().engine();
        if (runs_host_kernels(d)) {
            h.parallel_for(r, [f = function_, ... a = pass<P>(std::forward<A>(args))](typename launch::item it) {
                f(launch::linear_id(it), parameter<P>(a)...);
            });
        } else {
            h.set_args(pass<P>(std::forward<A>(args))...);
            h.parallel_for(r, object(d));
        }
    }

    template <typename... A> void single_task(sycl::handler& h, A&&... args) const {
        static_assert(sizeof...(A) == sizeof...(P), "one argument per kernel parameter");
        const device d = h.encore_device().engine();
        if (runs_host_kernels(d)) {
            h.single_task([f = function_, ... a = pass<P>(std::forward<A>(args))] { f(0, parameter<P>(a)...); });
        } else {
            h.set_args(pass<P>(std::forward<A>(args))...);
            h.single_task(object(d));
        }
    }

    // Submits to `q` after `events`: the queue shortcuts' equivalent.
    template <int D, typename... A>
    sycl::event parallel_for(sycl::queue& q, sycl::range<D> r, const std::vector<sycl::event>& events,
                             A&&... args) const {
        return q.submit([&](sycl::handler& h) {
            h.depends_on(events);
            parallel_for(h, r, std::forward<A>(args)...);
        });
    }
    template <typename... A>
    sycl::event single_task(sycl::queue& q, const std::vector<sycl::event>& events, A&&... args) const {
        return q.submit([&](sycl::handler& h) {
            h.depends_on(events);
            single_task(h, std::forward<A>(args)...);
        });
    }

    // A kernel object taking the parameters through set_arg(s): on host-kernel devices the function behind an
    // encore::make_kernel, elsewhere the OpenCL C kernel built for the device.
    sycl::kernel object(const sycl::device& d) const { return object(d.engine()); }
    sycl::kernel object(const device& d) const {
        if (!runs_host_kernels(d)) return sycl::ext::encore::make_kernel(source_kernel(d, source_, name_));
        return sycl::ext::encore::make_kernel(
            make_kernel(name_, sizeof...(P), [f = function_](const work_item& it, std::span<const kernel_argument> a) {
                std::size_t linear = 0;
                for (int k = 0; k < it.dimensions; ++k)
                    linear = linear * it.global_range[k] + (it.global_id[k] - it.offset[k]);
                call(f, linear, a, std::index_sequence_for<P...>{});
            }));
    }

    const std::string& opencl_c() const noexcept { return source_; }

private:
    // An argument as launched: a value of the parameter's type, or an accessor as it is (set_args takes it; the
    // lambda reaches its data through it).
    template <typename T, typename A> static auto pass(A&& a) {
        if constexpr (std::is_convertible_v<A, T>)
            return static_cast<T>(a);
        else
            return std::decay_t<A>(std::forward<A>(a));
    }
    // The accessor's get_pointer(): what set_arg gives a kernel object (the start of its buffer, also for a
    // ranged accessor).
    template <typename T, typename A> static T parameter(const A& a) {
        if constexpr (std::is_convertible_v<const A&, T>)
            return static_cast<T>(a);
        else
            return a.get_pointer();
    }
    template <typename T> static T argument(const kernel_argument& a) {
        if constexpr (std::is_pointer_v<T>)
            return static_cast<T>(a.pointer());
        else
            return a.scalar<T>();
    }
    template <std::size_t... K>
    static void call(function f, std::size_t i, std::span<const kernel_argument> a, std::index_sequence<K...>) {
        f(i, argument<P>(a[K])...);
    }

    std::string name_, source_;
    function function_;
};

template <typename... P>
sycl_test_kernel(const char*, const char*, const char*, void (*)(std::size_t, P...)) -> sycl_test_kernel<P...>;

} // namespace encore::testing

#define ENCORE_SYCL_TEST_KERNEL_UNPAREN(...) __VA_ARGS__
// Defines `name`, a sycl_test_kernel with the parameters `params` (in parentheses) and the body `...` (in braces).
#define ENCORE_SYCL_TEST_KERNEL(name, params, ...)                                                                  \
    const ::encore::testing::sycl_test_kernel name {                                                               \
        #name, #params, #__VA_ARGS__, +[](std::size_t i, ENCORE_SYCL_TEST_KERNEL_UNPAREN params) {                 \
            (void)i;                                                                                               \
            __VA_ARGS__                                                                                            \
        }                                                                                                          \
    }

// Kernels several SYCL suites launch.
namespace encore::testing::sycl_kernels {
ENCORE_SYCL_TEST_KERNEL(set_to, (int* v, int x), { v[i] = x; });
ENCORE_SYCL_TEST_KERNEL(add_to, (int* v, int x), { v[i] += x; });
ENCORE_SYCL_TEST_KERNEL(multiply_by, (int* v, int x), { v[i] *= x; });
ENCORE_SYCL_TEST_KERNEL(index_times, (int* v, int x), { v[i] = (int)i * x; });
ENCORE_SYCL_TEST_KERNEL(set_at, (int* v, int at, int x), { v[at + (int)i] = x; });
ENCORE_SYCL_TEST_KERNEL(add_index, (int* v), { v[i] += (int)i; });
ENCORE_SYCL_TEST_KERNEL(scaled_copy, (int* out, const int* in, int x), { out[i] = in[i] * x; });
} // namespace encore::testing::sycl_kernels

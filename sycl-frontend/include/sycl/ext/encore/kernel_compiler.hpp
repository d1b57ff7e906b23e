// sycl::ext::encore — kernels built at run time from source: Encore's first names for the kernel compiler,
// kept for the programs that use them. They are DPC++'s sycl_ext_oneapi_kernel_compiler
// (sycl/ext/oneapi/experimental/kernel_compiler.hpp) with options as a vector and a language enum of their
// own; bundles are sycl::kernel_bundle objects, built by the backend of the context's devices.
//
//     namespace syclex = sycl::ext::encore;
//     auto source = syclex::create_kernel_bundle_from_source(q.get_context(),
//     syclex::source_language::opencl,
//         "kernel void scale(float a, global float* x) { x[get_global_id(0)] *= a; }");
//     sycl::kernel scale = syclex::build(source, {"-cl-fast-relaxed-math"}).ext_oneapi_get_kernel("scale");
//     q.submit([&](sycl::handler& h) { h.set_args(2.f, x); h.parallel_for(sycl::range<1>{n}, scale); });
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sycl/ext/oneapi/experimental/kernel_compiler.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::encore {

enum class source_language { cuda, opencl, spirv };

using source_kernel_bundle = kernel_bundle<bundle_state::ext_oneapi_source>;
using executable_kernel_bundle = kernel_bundle<bundle_state::executable>;

namespace detail {
inline oneapi::experimental::source_language oneapi_language(source_language language) noexcept {
    using oneapi::experimental::source_language;
    switch (language) {
    case ext::encore::source_language::cuda:
        return source_language::ext_encore_cuda;
    case ext::encore::source_language::opencl:
        return source_language::opencl;
    case ext::encore::source_language::spirv:
        break;
    }
    return source_language::spirv;
}
} // namespace detail

// Whether source of `language` can be built for devices of `b`: CUDA C++ for CUDA, OpenCL C and SPIR-V for
// OpenCL.
inline bool is_source_kernel_bundle_supported(backend b, source_language language) {
    return oneapi::experimental::is_source_kernel_bundle_supported(b, detail::oneapi_language(language));
}
inline source_kernel_bundle create_kernel_bundle_from_source(const context& c, source_language language,
                                                             const std::string& source) {
    return oneapi::experimental::create_kernel_bundle_from_source(c, detail::oneapi_language(language),
                                                                  source);
}
inline source_kernel_bundle create_kernel_bundle_from_source(const context& c, source_language language,
                                                             const std::vector<std::byte>& il) {
    return oneapi::experimental::create_kernel_bundle_from_source(c, detail::oneapi_language(language), il);
}
// Throws errc::build with the compiler's log when the source does not compile, errc::feature_not_supported
// when the device cannot take the language (SPIR-V without IL).
inline executable_kernel_bundle build(const source_kernel_bundle& source,
                                      const std::vector<std::string>& options = {}) {
    namespace x = oneapi::experimental;
    return x::build(source, x::properties{x::build_options{options}});
}

} // namespace ext::encore
} // namespace _V1
} // namespace sycl

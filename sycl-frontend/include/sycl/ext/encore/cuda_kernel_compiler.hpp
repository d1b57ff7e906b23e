// sycl::ext::encore — CUDA C++ source compiled at run time by NVRTC, as sycl::kernel objects.
//
// The kernel-compiler API of kernel_compiler.hpp with CUDA C++ as the source language
// (source_language::cuda); including this header registers its builder. Kernels are `extern "C" __global__`
// functions taken by name; their parameters are the arguments set with handler::set_arg(s), in order
// (pointers and trivially copyable values). A range launch uses a block that divides the range, so the kernel
// needs no bounds check; an nd_range launch uses its work-group. The kernels run on CUDA devices only: on
// another device they fail with errc::kernel_not_supported (the native backend has no host form for them).
// Builds go through the kernel/program cache. Programs that include this header link libencore-cuda (meson:
// encore_cuda_dep).
//
//     namespace syclex = sycl::ext::encore;
//     auto source = syclex::create_kernel_bundle_from_source(q.get_context(), syclex::source_language::cuda,
//     R"(
//         extern "C" __global__ void scale(float a, float* x) { x[blockIdx.x * blockDim.x + threadIdx.x] *=
//         a; })");
//     auto bundle = syclex::build(source, {"-arch=sm_90"});          // errc::build with NVRTC's log on
//     failure sycl::kernel scale = bundle.ext_oneapi_get_kernel("scale"); q.submit([&](sycl::handler& h) {
//     h.set_args(2.f, x); h.parallel_for(sycl::range<1>{n}, scale); });
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "encore/backends/cuda/cuda_module.hpp"
#include "sycl/ext/encore/kernel_compiler.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::encore {

namespace detail {
// Compiles with NVRTC (options such as "-arch=sm_90", "-DN=4"; without -arch, for the context's first
// device), through the kernel/program cache (docs/cache.md).
inline executable_kernel_bundle build_cuda(const source_kernel_bundle& source,
                                           const std::vector<std::string>& options, const std::string& name) {
    // Without an architecture, build for the context's GPU: a cubin, which the kernel/program cache keeps, so
    // a later build of the same source pays neither NVRTC nor the driver's PTX compiler.
    std::vector<std::string> effective = options;
    const bool has_arch = std::any_of(options.begin(), options.end(), [](const std::string& o) {
        return o.rfind("-arch", 0) == 0 || o.rfind("--gpu-architecture", 0) == 0;
    });
    const std::string& architecture =
        source.get_context().get_devices().front().engine().properties().architecture;
    if (!has_arch && !architecture.empty()) effective.push_back("-arch=" + architecture);
    try {
        auto m = ::encore::cuda::module::load(::encore::cuda::build_program(
            source.source(), effective, name.empty() ? "sycl_kernel_source.cu" : name));
        executable_kernel_bundle::program_view view;
        view.has_kernel = [m](const std::string& k) { return m->has_kernel(k); };
        view.get_kernel = [m](const std::string& k) { return ::encore::cuda::get_kernel(m, k); };
        view.log = m->build_log();
        return executable_kernel_bundle(std::move(view));
    } catch (const ::encore::error& e) {
        throw exception(e.code() == ::encore::errc::build_failure ? errc::build : errc::runtime, e.what());
    }
}
inline const bool cuda_builder_registered = (builder_of(source_language::cuda) = &build_cuda, true);
} // namespace detail

} // namespace ext::encore
} // namespace _V1
} // namespace sycl

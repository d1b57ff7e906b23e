// sycl::ext::encore — CUDA C++ source compiled at run time by NVRTC, as sycl::kernel objects.
//
// The shape of DPC++'s sycl_ext_oneapi_kernel_compiler (create_kernel_bundle_from_source, build,
// ext_oneapi_has_kernel, ext_oneapi_get_kernel) under Encore's own namespace, with CUDA C++ as the source
// language. Kernels are `extern "C" __global__` functions taken by name; their parameters are the arguments set
// with handler::set_arg(s), in order (pointers and trivially copyable values). A range launch uses a block that
// divides the range, so the kernel needs no bounds check; an nd_range launch uses its work-group. The kernels run
// on CUDA devices only: on another device they fail with errc::kernel_not_supported (the native backend has no
// host form for them). Programs that include this header link libencore-cuda (meson: encore_cuda_dep).
//
//     namespace syclex = sycl::ext::encore;
//     auto source = syclex::create_kernel_bundle_from_source(q.get_context(), syclex::source_language::cuda, R"(
//         extern "C" __global__ void scale(float a, float* x) { x[blockIdx.x * blockDim.x + threadIdx.x] *= a; })");
//     auto bundle = syclex::build(source, {"-arch=sm_90"});          // errc::build with NVRTC's log on failure
//     sycl::kernel scale = bundle.ext_oneapi_get_kernel("scale");
//     q.submit([&](sycl::handler& h) { h.set_args(2.f, x); h.parallel_for(sycl::range<1>{n}, scale); });
#pragma once

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "encore/backends/cuda/cuda_module.hpp"
#include "encore/graph/error.hpp"
#include "sycl/device.hpp"
#include "sycl/exception.hpp"
#include "sycl/kernel.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::encore {

enum class source_language { cuda };

// Whether source of `language` can be built for devices of `b`: CUDA C++ for the CUDA backend.
inline bool is_source_kernel_bundle_supported(backend b, source_language language) {
    return b == backend::ext_oneapi_cuda && language == source_language::cuda;
}

// The source, not yet built (bundle_state::ext_oneapi_source in DPC++).
class source_kernel_bundle {
public:
    source_kernel_bundle(context c, source_language language, std::string source)
        : context_(std::move(c)), language_(language), source_(std::move(source)) {}
    const context& get_context() const noexcept { return context_; }
    source_language language() const noexcept { return language_; }
    const std::string& source() const noexcept { return source_; }

private:
    context context_;
    source_language language_;
    std::string source_;
};

// The built program (bundle_state::executable in DPC++): its kernels by name.
class executable_kernel_bundle {
public:
    explicit executable_kernel_bundle(std::shared_ptr<const ::encore::cuda::module> m) : module_(std::move(m)) {}

    bool ext_oneapi_has_kernel(const std::string& name) const { return module_->has_kernel(name); }
    // Throws errc::invalid when the program has no kernel `name`.
    kernel ext_oneapi_get_kernel(const std::string& name) const {
        try {
            return make_kernel(::encore::cuda::get_kernel(module_, name));
        } catch (const ::encore::error& e) {
            throw exception(errc::invalid, std::string("ext_oneapi_get_kernel: ") + e.what());
        }
    }
    // NVRTC's warnings, possibly empty.
    const std::string& build_log() const noexcept { return module_->build_log(); }

private:
    std::shared_ptr<const ::encore::cuda::module> module_;
};

inline source_kernel_bundle create_kernel_bundle_from_source(const context& c, source_language language,
                                                             std::string source) {
    if (!is_source_kernel_bundle_supported(c.get_backend(), language))
        throw exception(errc::invalid, "create_kernel_bundle_from_source: CUDA C++ source builds for CUDA devices; "
                                       "the context's devices are of another backend");
    return source_kernel_bundle(c, language, std::move(source));
}

// Compiles with NVRTC (options such as "-arch=sm_90", "-DN=4"; without -arch, for the context's first device),
// through the kernel/program cache (docs/cache.md). Throws errc::build with NVRTC's log when the
// source does not compile, errc::runtime when NVRTC cannot be loaded.
inline executable_kernel_bundle build(const source_kernel_bundle& source, const std::vector<std::string>& options = {},
                                      const std::string& name = "sycl_kernel_source.cu") {
    // Without an architecture, build for the context's GPU: a cubin, which the kernel/program cache keeps, so a
    // later build of the same source pays neither NVRTC nor the driver's PTX compiler.
    std::vector<std::string> effective = options;
    const bool has_arch = std::any_of(options.begin(), options.end(), [](const std::string& o) {
        return o.rfind("-arch", 0) == 0 || o.rfind("--gpu-architecture", 0) == 0;
    });
    const std::string& architecture = source.get_context().get_devices().front().engine().properties().architecture;
    if (!has_arch && !architecture.empty()) effective.push_back("-arch=" + architecture);
    try {
        return executable_kernel_bundle(
            ::encore::cuda::module::load(::encore::cuda::build_program(source.source(), effective, name)));
    } catch (const ::encore::error& e) {
        throw exception(e.code() == ::encore::errc::build_failure ? errc::build : errc::runtime, e.what());
    }
}

} // namespace ext::encore
} // namespace _V1
} // namespace sycl

// sycl::ext::encore — kernels built at run time from source, as sycl::kernel objects: what the backends'
// kernel compiler headers share.
//
// The shape of DPC++'s sycl_ext_oneapi_kernel_compiler (create_kernel_bundle_from_source, build,
// ext_oneapi_has_kernel, ext_oneapi_get_kernel) under Encore's own namespace. Each source language is built
// by its backend's header, which registers its builder when included:
// - source_language::cuda: CUDA C++ through NVRTC, for CUDA devices (cuda_kernel_compiler.hpp,
// libencore-cuda);
// - source_language::opencl and spirv: OpenCL C / SPIR-V for OpenCL devices (opencl_kernel_compiler.hpp,
//   libencore-opencl).
// Kernel arguments are set with handler::set_arg(s), in the kernel's parameter order.
//
//     namespace syclex = sycl::ext::encore;
//     auto source = syclex::create_kernel_bundle_from_source(q.get_context(),
//     syclex::source_language::opencl,
//         "kernel void scale(float a, global float* x) { x[get_global_id(0)] *= a; }");
//     sycl::kernel scale = syclex::build(source, {"-cl-fast-relaxed-math"}).ext_oneapi_get_kernel("scale");
//     q.submit([&](sycl::handler& h) { h.set_args(2.f, x); h.parallel_for(sycl::range<1>{n}, scale); });
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "encore/graph/error.hpp"
#include "encore/graph/kernel.hpp"
#include "sycl/device.hpp"
#include "sycl/exception.hpp"
#include "sycl/kernel.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::encore {

enum class source_language { cuda, opencl, spirv };
inline constexpr int source_language_count = 3;

// Whether source of `language` can be built for devices of `b`: CUDA C++ for CUDA, OpenCL C and SPIR-V for
// OpenCL.
inline bool is_source_kernel_bundle_supported(backend b, source_language language) {
    switch (language) {
    case source_language::cuda:
        return b == backend::ext_oneapi_cuda;
    case source_language::opencl:
    case source_language::spirv:
        return b == backend::opencl;
    }
    return false;
}

// The source, not yet built (bundle_state::ext_oneapi_source in DPC++): text, or IL bytes for SPIR-V.
class source_kernel_bundle {
public:
    source_kernel_bundle(context c, source_language language, std::string source)
        : context_(std::move(c)), language_(language), source_(std::move(source)) {}
    source_kernel_bundle(context c, source_language language, std::vector<std::byte> il)
        : context_(std::move(c)), language_(language), il_(std::move(il)) {}
    const context& get_context() const noexcept { return context_; }
    source_language language() const noexcept { return language_; }
    const std::string& source() const noexcept { return source_; }
    const std::vector<std::byte>& il() const noexcept { return il_; }

private:
    context context_;
    source_language language_;
    std::string source_;
    std::vector<std::byte> il_;
};

// The built program (bundle_state::executable in DPC++): its kernels by name.
class executable_kernel_bundle {
public:
    // What a backend's builder hands over: the program's kernels by name, and the build log.
    struct program_view {
        std::function<bool(const std::string&)> has_kernel;
        std::function<std::shared_ptr<const ::encore::kernel>(const std::string&)>
            get_kernel; // throws encore::error
        std::string log;
    };
    explicit executable_kernel_bundle(program_view program) : program_(std::move(program)) {}

    bool ext_oneapi_has_kernel(const std::string& name) const { return program_.has_kernel(name); }
    // Throws errc::invalid when the program has no kernel `name`.
    kernel ext_oneapi_get_kernel(const std::string& name) const {
        try {
            return make_kernel(program_.get_kernel(name));
        } catch (const ::encore::error& e) {
            throw exception(errc::invalid, std::string("ext_oneapi_get_kernel: ") + e.what());
        }
    }
    // The compiler's warnings, possibly empty.
    const std::string& build_log() const noexcept { return program_.log; }

private:
    program_view program_;
};

namespace detail {
using bundle_builder = executable_kernel_bundle (*)(const source_kernel_bundle&,
                                                    const std::vector<std::string>&, const std::string&);
// The builder of each language, set by the backend headers when included.
inline bundle_builder& builder_of(source_language language) {
    static bundle_builder builders[source_language_count] = {};
    return builders[static_cast<int>(language)];
}
// encore::error -> sycl::exception: a source that does not build is errc::build (with the log).
inline exception translate_build_error(const ::encore::error& e) {
    switch (e.code()) {
    case ::encore::errc::build_failure:
        return exception(errc::build, e.what());
    case ::encore::errc::invalid_argument:
        return exception(errc::invalid, e.what());
    case ::encore::errc::feature_not_supported:
        return exception(errc::feature_not_supported, e.what());
    default:
        return exception(errc::runtime, e.what());
    }
}
} // namespace detail

inline source_kernel_bundle create_kernel_bundle_from_source(const context& c, source_language language,
                                                             std::string source) {
    if (language == source_language::spirv)
        throw exception(errc::invalid, "create_kernel_bundle_from_source: SPIR-V is given as bytes");
    if (!is_source_kernel_bundle_supported(c.get_backend(), language))
        throw exception(errc::invalid,
                        std::string("create_kernel_bundle_from_source: ") +
                            (language == source_language::cuda ? "CUDA C++ builds for CUDA devices"
                                                               : "OpenCL C builds for OpenCL devices") +
                            "; the context's devices are of another backend");
    return source_kernel_bundle(c, language, std::move(source));
}

inline source_kernel_bundle create_kernel_bundle_from_source(const context& c, source_language language,
                                                             std::vector<std::byte> il) {
    if (language != source_language::spirv)
        throw exception(errc::invalid, "create_kernel_bundle_from_source: only SPIR-V is given as bytes");
    if (!is_source_kernel_bundle_supported(c.get_backend(), language))
        throw exception(errc::invalid,
                        "create_kernel_bundle_from_source: SPIR-V builds for OpenCL devices; the "
                        "context's devices are of another backend");
    return source_kernel_bundle(c, language, std::move(il));
}

// Builds with the language's compiler and `options`. Throws errc::build with the compiler's log when the
// source does not compile, errc::feature_not_supported when the device cannot take the language (SPIR-V
// without IL), errc::runtime when the compiler cannot be loaded, or the language's header was not included.
inline executable_kernel_bundle build(const source_kernel_bundle& source,
                                      const std::vector<std::string>& options = {},
                                      const std::string& name = {}) {
    const detail::bundle_builder builder = detail::builder_of(source.language());
    if (!builder)
        throw exception(errc::runtime,
                        source.language() == source_language::cuda
                            ? "build: include <sycl/ext/encore/cuda_kernel_compiler.hpp> to build CUDA C++"
                            : "build: include <sycl/ext/encore/opencl_kernel_compiler.hpp> to build "
                              "OpenCL C and SPIR-V");
    return builder(source, options, name);
}

} // namespace ext::encore
} // namespace _V1
} // namespace sycl

// sycl_ext_oneapi_kernel_compiler (with its OpenCL and SPIR-V languages): kernels built from source at run
// time, under DPC++'s names. Encore adds CUDA C++ (`source_language::ext_encore_cuda`, through NVRTC).
//
// The source bundle is built by the backend of the context's devices (encore::backend::build_program, through
// the kernel/program cache): OpenCL C and SPIR-V by the OpenCL backend (SPIR-V where the device takes IL),
// CUDA C++ by the CUDA backend. Kernels are taken by name; their parameters are the arguments set with
// handler::set_arg(s), in order. `source_language::sycl` (free-function kernels compiled at run time) is not
// built: Encore compiles SYCL ahead of time (encore++), so no device supports it and creating such a bundle
// throws errc::invalid, as the extension says for a language no device of the context takes.
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     if (q.get_device().ext_oneapi_can_compile(syclex::source_language::opencl)) {
//         auto source = syclex::create_kernel_bundle_from_source(q.get_context(),
//         syclex::source_language::opencl,
//             "kernel void scale(float a, global float* x) { x[get_global_id(0)] *= a; }");
//         std::string log;
//         auto exe = syclex::build(source, syclex::properties{syclex::build_options{"-cl-fast-relaxed-math"},
//                                                             syclex::save_log{&log}});
//         sycl::kernel scale = exe.ext_oneapi_get_kernel("scale");
//     }
#pragma once

#define SYCL_EXT_ONEAPI_KERNEL_COMPILER 1
#define SYCL_EXT_ONEAPI_KERNEL_COMPILER_OPENCL 1
#define SYCL_EXT_ONEAPI_KERNEL_COMPILER_SPIRV 1

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "encore/backends/source_program.hpp"
#include "sycl/ext/oneapi/properties/properties.hpp"
#include "sycl/kernel_bundle.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

// ext_encore_cuda: CUDA C++ (extern "C" __global__ kernels), an Encore extension.
enum class source_language : int { opencl = 0, spirv = 1, sycl = 2, ext_encore_cuda = 1000 };

struct include_files {
    std::vector<std::string> names;
    std::vector<std::string> contents;
    include_files(const std::string& name, const std::string& content) : names{name}, contents{content} {}
    include_files(const std::vector<std::string>& n, const std::vector<std::string>& c)
        : names(n), contents(c) {}
};
using include_files_key = include_files;
struct build_options {
    std::vector<std::string> opts;
    build_options(const std::string& option) : opts{option} {}
    build_options(const std::vector<std::string>& options) : opts(options) {}
};
using build_options_key = build_options;
struct save_log {
    std::string* log;
    save_log(std::string* to) : log(to) {}
};
using save_log_key = save_log;
struct registered_names {
    std::vector<std::string> names;
    registered_names(const std::string& name) : names{name} {}
    registered_names(const std::vector<std::string>& n) : names(n) {}
};
using registered_names_key = registered_names;

} // namespace ext::oneapi::experimental

namespace detail {
// The engine's language of `l`, or nothing for `sycl`.
std::optional<::encore::source_language>
engine_language(ext::oneapi::experimental::source_language l) noexcept;
// What create_kernel_bundle_from_source and build do, for every language and both namespaces.
std::shared_ptr<const kernel_bundle_impl>
make_source_bundle(const context& c, std::optional<::encore::source_language> language,
                   std::vector<std::byte> source, const char* language_name);
std::shared_ptr<const kernel_bundle_impl> build_source_bundle(const kernel_bundle_impl& source,
                                                              const std::vector<device>& devices,
                                                              const std::vector<std::string>& options,
                                                              std::string* log);
inline const char* source_language_name(ext::oneapi::experimental::source_language l) noexcept {
    switch (l) {
    case ext::oneapi::experimental::source_language::opencl:
        return "OpenCL C";
    case ext::oneapi::experimental::source_language::spirv:
        return "SPIR-V";
    case ext::oneapi::experimental::source_language::sycl:
        return "SYCL";
    case ext::oneapi::experimental::source_language::ext_encore_cuda:
        return "CUDA C++";
    }
    return "an unknown language";
}
inline std::vector<std::byte> bytes_of(const std::string& text) {
    const auto* first = reinterpret_cast<const std::byte*>(text.data());
    return std::vector<std::byte>(first, first + text.size());
}
} // namespace detail

namespace ext::oneapi::experimental {

// Whether devices of backend `b` build source in `language` (OpenCL C and SPIR-V: OpenCL; CUDA C++: CUDA).
bool is_source_kernel_bundle_supported(backend b, source_language language);

// Text languages (OpenCL C, SYCL, CUDA C++). Throws errc::invalid for SPIR-V (give bytes) and for a language
// no device of `c` builds.
template <typename PropertyListT = empty_properties_t>
kernel_bundle<bundle_state::ext_oneapi_source>
create_kernel_bundle_from_source(const context& c, source_language lang, const std::string& source,
                                 PropertyListT properties = {}) {
    static_assert(is_property_list_v<PropertyListT>,
                  "create_kernel_bundle_from_source: pass syclex::properties{...}");
    static_cast<void>(properties); // include_files serve source_language::sycl, which is not built
    if (lang == source_language::spirv)
        throw exception(errc::invalid, "create_kernel_bundle_from_source: SPIR-V is binary: pass its bytes");
    return kernel_bundle<bundle_state::ext_oneapi_source>(sycl::detail::make_source_bundle(
        c, sycl::detail::engine_language(lang), sycl::detail::bytes_of(source),
        sycl::detail::source_language_name(lang)));
}
// Binary languages (SPIR-V). Throws errc::invalid for a text language.
template <typename PropertyListT = empty_properties_t>
kernel_bundle<bundle_state::ext_oneapi_source>
create_kernel_bundle_from_source(const context& c, source_language lang, const std::vector<std::byte>& bytes,
                                 PropertyListT properties = {}) {
    static_assert(is_property_list_v<PropertyListT>,
                  "create_kernel_bundle_from_source: pass syclex::properties{...}");
    static_cast<void>(properties);
    if (lang != source_language::spirv)
        throw exception(errc::invalid, std::string("create_kernel_bundle_from_source: ") +
                                           sycl::detail::source_language_name(lang) +
                                           " is text: pass a std::string");
    return kernel_bundle<bundle_state::ext_oneapi_source>(sycl::detail::make_source_bundle(
        c, sycl::detail::engine_language(lang), bytes, sycl::detail::source_language_name(lang)));
}

// Builds for `devices` (all of them must be in the bundle's context and take its language; Encore builds the
// program for the first and runs its kernels there). Throws errc::build with the compiler's log when the
// source does not compile, errc::invalid for a device outside the context or one that does not take the
// language.
template <typename PropertyListT = empty_properties_t>
kernel_bundle<bundle_state::executable> build(const kernel_bundle<bundle_state::ext_oneapi_source>& source,
                                              const std::vector<device>& devices,
                                              PropertyListT properties = {}) {
    static_assert(is_property_list_v<PropertyListT>, "build: pass syclex::properties{...}");
    std::vector<std::string> options;
    if constexpr (PropertyListT::template has_property<build_options>())
        options = properties.template get_property<build_options>().opts;
    std::string* log = nullptr;
    if constexpr (PropertyListT::template has_property<save_log>())
        log = properties.template get_property<save_log>().log;
    return kernel_bundle<bundle_state::executable>(
        sycl::detail::build_source_bundle(*source.ext_encore_impl(), devices, options, log));
}
template <typename PropertyListT = empty_properties_t>
kernel_bundle<bundle_state::executable> build(const kernel_bundle<bundle_state::ext_oneapi_source>& source,
                                              PropertyListT properties = {}) {
    return build(source, source.get_devices(), properties);
}

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

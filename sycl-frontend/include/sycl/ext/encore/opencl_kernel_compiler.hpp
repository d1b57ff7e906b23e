// sycl::ext::encore — OpenCL C source and SPIR-V built at run time for OpenCL devices, as sycl::kernel
// objects.
//
// The kernel-compiler API of kernel_compiler.hpp with source_language::opencl (OpenCL C text) and
// source_language::spirv (IL bytes, on devices whose CL_DEVICE_IL_VERSION names SPIR-V); including this
// header registers its builders. The program is built for the context's first device
// (encore::opencl::build_program, the one build step); its kernels are taken by name, and their parameters
// are the arguments set with handler::set_arg(s), in order: scalars, USM pointers, accessors (their buffer's
// USM storage, so the buffer must live on the OpenCL device: its default device), local_accessors (a `local`
// pointer parameter). A range launch leaves the work-group to the driver; SYCL dimension d-1 is OpenCL
// dimension 0. The kernels run on OpenCL devices only. Programs that include this header link
// libencore-opencl (meson: encore_opencl_dep).
//
//     namespace syclex = sycl::ext::encore;
//     auto source = syclex::create_kernel_bundle_from_source(q.get_context(),
//     syclex::source_language::opencl,
//         "kernel void scale(float a, global float* x) { x[get_global_id(0)] *= a; }");
//     auto bundle = syclex::build(source, {"-DN=4"});   // errc::build with the compiler's log on failure
//     sycl::kernel scale = bundle.ext_oneapi_get_kernel("scale");
//     q.submit([&](sycl::handler& h) { h.set_args(2.f, x); h.parallel_for(sycl::range<1>{n}, scale); });
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "encore/backends/opencl/opencl_program.hpp"
#include "sycl/ext/encore/kernel_compiler.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::encore {

namespace detail {
inline executable_kernel_bundle build_opencl(const source_kernel_bundle& source,
                                             const std::vector<std::string>& options, const std::string&) {
    try {
        const auto devices = source.get_context().get_devices();
        ::encore::opencl::program_source program_source;
        if (source.language() == source_language::spirv) {
            std::vector<unsigned char> il(source.il().size());
            for (std::size_t i = 0; i < il.size(); ++i)
                il[i] = static_cast<unsigned char>(source.il()[i]);
            program_source = ::encore::opencl::program_source::spirv(std::move(il));
        } else {
            program_source = ::encore::opencl::program_source::opencl_c(source.source());
        }
        auto p = ::encore::opencl::program::load(
            ::encore::opencl::build_program(devices.front().engine(), program_source, options));
        executable_kernel_bundle::program_view view;
        view.has_kernel = [p](const std::string& k) { return p->has_kernel(k); };
        view.get_kernel = [p](const std::string& k) { return ::encore::opencl::get_kernel(p, k); };
        view.log = p->build_log();
        return executable_kernel_bundle(std::move(view));
    } catch (const ::encore::error& e) {
        throw translate_build_error(e);
    }
}
inline const bool opencl_builder_registered = (builder_of(source_language::opencl) = &build_opencl, true);
inline const bool spirv_builder_registered = (builder_of(source_language::spirv) = &build_opencl, true);
} // namespace detail

} // namespace ext::encore
} // namespace _V1
} // namespace sycl

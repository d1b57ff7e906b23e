// encore::cuda::make_kernel — single-source kernels: a callable compiled by nvcc for the GPU and the host.
//
// Include this header only in translation units compiled by nvcc with `--extended-lambda
// --expt-relaxed-constexpr`. make_kernel(name, f) instantiates `work_item_entry<F>`, a __global__ template that
// rebuilds an encore::work_item from CUDA's built-in indices (SYCL's last dimension is CUDA's x) and calls
// f(item); the kernel's device_code("cuda") lets the CUDA backend find that entry (cudaGetFuncBySymbol in the
// device's primary context, which the runtime API and the driver API share). The callable is copied to the GPU
// byte by byte at each launch: capture pointers and values, not host objects with destructors.
//
// F is an extended lambda marked with ENCORE_DEVICE_LAMBDA (`__host__ __device__`: it also runs on the native
// backend through run()), an extended `__device__` lambda (GPU only: run() throws
// errc::feature_not_supported), or a functor whose call operator is `__host__ __device__`. A plain host lambda
// fails to compile (nvcc refuses host code and local types in a __global__ instantiation); a kernel without
// CUDA code submitted to a CUDA queue fails with errc::kernel_not_supported naming it. Range launches skip
// items past the range's end; group barriers and local memory are not available in these kernels (yet).
//
//     auto twice = encore::cuda::make_kernel("twice", [=] ENCORE_DEVICE_LAMBDA (const encore::work_item& it) {
//         data[it.global_id[0]] *= 2;
//     });
//     q.parallel_for(encore::range(n), twice);
#pragma once

#if !defined(__CUDACC__)
#error "backends/cuda/single_source.hpp must be compiled by nvcc (--extended-lambda --expt-relaxed-constexpr)"
#endif

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "encore/backends/cuda/device_code.hpp"
#include "encore/backends/cuda/device_work_item.hpp"
#include "encore/runtime/program_device_code.hpp"
#include "encore/graph/error.hpp"
#include "encore/graph/kernel.hpp"

// Marks a lambda for the GPU and the host: [=] ENCORE_DEVICE_LAMBDA (const encore::work_item& it) { ... }.
#define ENCORE_DEVICE_LAMBDA __host__ __device__

namespace encore::cuda {

// nvcc's traits for extended lambdas; a functor is neither (its call operator says what it is).
template <typename F>
inline constexpr bool is_device_only_lambda = __nv_is_extended_device_lambda_closure_type(F);
template <typename F>
inline constexpr bool is_host_device_lambda = __nv_is_extended_host_device_lambda_closure_type(F);

namespace detail {

// A program with a translation unit compiled by nvcc through this header carries CUDA code for its kernels, so a
// CUDA GPU may be its default device (runtime/program_device_code.hpp). An inline variable: initialized once
// per program, before main, whichever translation units include this.
inline const bool program_carries_cuda_code =
    (encore::note_program_device_code("cuda", "nvcc single-source translation unit"), true);

template <typename F> __global__ void work_item_entry(F f, launch_geometry g) {
    encore::work_item it;
    if (!make_work_item(g, it)) return;
    f(static_cast<const encore::work_item&>(it));
}

// The CUfunction of work_item_entry<F> in the current context, or nullptr with the reason in `*why`.
template <typename F> void* resolve_work_item_entry(const char** why) {
    cudaFunction_t function = nullptr;
    const cudaError_t r = cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(&work_item_entry<F>));
    if (r != cudaSuccess) {
        *why = cudaGetErrorString(r);
        return nullptr;
    }
    return reinterpret_cast<void*>(function);
}

// The device_code record of a work_item kernel whose callable is `*f` (which must outlive the record). The SYCL
// front end's kernel wrapper uses it too (sycl/detail/kernel_wrapper.hpp).
template <typename F> cuda::device_code work_item_code(const F* f) {
    cuda::device_code code;
    code.convention = calling_convention::work_item;
    code.resolve = &resolve_work_item_entry<F>;
    code.functor = f;
    code.functor_bytes = sizeof(F);
    return code;
}

template <typename F> class single_source_kernel final : public kernel {
public:
    single_source_kernel(std::string name, F function)
        : kernel(std::move(name)), function_(std::move(function)), code_(work_item_code(&function_)) {}

    void run(const work_item& item, std::span<const kernel_argument> arguments) const override {
        static_cast<void>(arguments);
        if constexpr (is_device_only_lambda<F>)
            throw error(errc::feature_not_supported,
                        "kernel '" + name() + "' is a __device__ lambda: it has no host form; mark it "
                                              "ENCORE_DEVICE_LAMBDA to run it on the native backend too");
        else
            function_(item);
    }

    const void* device_code(std::string_view backend) const noexcept override {
        return backend == "cuda" ? &code_ : nullptr;
    }

private:
    F function_;
    cuda::device_code code_;
};

} // namespace detail

template <typename F> std::shared_ptr<const kernel> make_kernel(std::string name, F function) {
    static_assert(!std::is_pointer_v<F> && !std::is_function_v<F>,
                  "encore::cuda::make_kernel: a function pointer cannot run on a CUDA device; pass an "
                  "ENCORE_DEVICE_LAMBDA lambda or a functor with a __host__ __device__ call operator");
    static_assert(is_device_only_lambda<F> || std::is_invocable_v<const F&, const encore::work_item&>,
                  "encore::cuda::make_kernel: the callable must take (const encore::work_item&)");
    return std::make_shared<detail::single_source_kernel<F>>(std::move(name), std::move(function));
}

} // namespace encore::cuda

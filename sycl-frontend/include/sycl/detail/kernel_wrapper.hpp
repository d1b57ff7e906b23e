// How a SYCL kernel (a lambda or function object) becomes an engine kernel: the wrapper's run() turns the engine's
// work-item into the item the kernel asks for and calls it. Not for you: handler::parallel_for uses it.
//
// In a program built by encore++ for a GPU, a kernel whose type the integration header describes carries its
// outlined CUDA entry (docs/compiler.md). Compiled by nvcc (`--extended-lambda --expt-relaxed-constexpr`), a
// kernel that can run on the GPU also carries
// CUDA code: a __global__ entry (backends/cuda/single_source.hpp) that builds the same item on the device. Such
// kernels are lambdas marked ENCORE_DEVICE_LAMBDA (or `__device__` extended lambdas, GPU only) and functors whose
// call operator is ENCORE_HOST_DEVICE and that say so with SYCL_EXT_ENCORE_DEVICE_FUNCTOR (nvcc cannot tell a
// functor from a plain lambda, whose closure type may not instantiate a __global__ template). Other kernels have
// no CUDA code: on a CUDA queue they fail with errc::kernel_not_supported naming the kernel. Group barriers and
// local accessors work in device code (the block's barrier and dynamic shared memory).
//
//     struct twice { int* p; SYCL_EXT_ENCORE_DEVICE_FUNCTOR;
//                    ENCORE_HOST_DEVICE void operator()(sycl::id<1> i) const { p[i] *= 2; } };
#pragma once

#include <cxxabi.h>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "encore/backends/gpu/device_code.hpp"
#include "encore/backends/level_zero/device_code.hpp"
#include "encore/backends/opencl/device_code.hpp"
#include "encore/compiler/kernel_descriptor.hpp"
#include "sycl/detail/image_code.hpp"
#include "encore/graph/kernel.hpp"
#include "sycl/accessor.hpp"
#include "sycl/detail/host_device.hpp"
#include "sycl/item.hpp"
#include "sycl/local_accessor.hpp"
#include "sycl/specialization_id.hpp"

#if defined(__CUDACC__)
#include "encore/backends/cuda/single_source.hpp"
#endif

// In a functor kernel's class: its call operator is ENCORE_HOST_DEVICE, so nvcc gives it a CUDA entry.
#define SYCL_EXT_ENCORE_DEVICE_FUNCTOR using sycl_ext_encore_device_functor = void

namespace sycl {
inline namespace _V1 {
namespace detail {

// The kernel name of parallel_for<Name>; auto_name when none is given (the kernel's type names it then).
struct auto_name {};

inline std::string demangle(const char* mangled) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> readable(abi::__cxa_demangle(mangled, nullptr, nullptr, &status),
                                                    std::free);
    return status == 0 && readable ? std::string(readable.get()) : std::string(mangled);
}

// The kernel's name, made once per kernel type (demangling costs more than the rest of a submission): a string
// that lives as long as the program, which kernels refer to (encore::kernel::lasting_name).
template <typename Name, typename Kernel> const std::string& kernel_name() {
    static const std::string made = [] {
        if constexpr (std::is_same_v<Name, auto_name>)
            return demangle(typeid(Kernel).name());
        else {
            std::string name = demangle(typeid(Name*).name()); // a pointer: Name may be an incomplete class
            if (!name.empty() && name.back() == '*') name.pop_back();
            // A name declared inside a function (parallel_for<class scale>) keeps only its own part: "scale", not
            // "ns::f(int, float)::scale" or "f()::{lambda(handler&)#1}::operator()(handler&) const::scale".
            if (auto paren = name.rfind(')'); paren != std::string::npos)
                if (auto scope = name.find("::", paren); scope != std::string::npos) name.erase(0, scope + 2);
            return name;
        }
    }();
    return made;
}

// work_group: a hierarchical launch (handler::parallel_for_work_group), an nd_range whose kernel takes the group.
enum class launch { single_task, range, nd_range, work_group };

// Calls `k` for one work-item with the item type its launch gives it, and `extra` after it (reducers, then a
// kernel_handler when the kernel takes one).
template <launch Launch, int D, typename K, typename... Extra>
ENCORE_HOST_DEVICE void call_kernel(const K& k, const encore::work_item& w, Extra&... extra) {
    if constexpr (Launch == launch::single_task) {
        static_assert(std::is_invocable_v<const K&, Extra&...>,
                      "single_task: the kernel must be callable with no arguments, or a kernel_handler (and its "
                      "operator() must be const)");
        k(extra...);
    } else if constexpr (Launch == launch::nd_range) {
        static_assert(std::is_invocable_v<const K&, nd_item<D>, Extra&...>,
                      "parallel_for(nd_range): the kernel must take a sycl::nd_item of the range's dimensions "
                      "(and its operator() must be const)");
        k(item_factory::make_nd_item<D>(w), extra...);
    } else if constexpr (Launch == launch::work_group) {
        static_assert(std::is_invocable_v<const K&, group<D>, Extra&...>,
                      "parallel_for_work_group: the kernel must take a sycl::group of the range's dimensions (and its "
                      "operator() must be const)");
        const group<D> g = item_factory::make_group<D>(w);
#if defined(ENCORE_DEVICE_CODE)
        k(g, extra...); // every work-item runs the work-group scope (parallel_for_work_item shares the items out)
#else
        if (g.get_local_linear_id() == 0) k(g, extra...); // one item per group: parallel_for_work_item loops over them
#endif
    } else {
        static_assert(std::is_invocable_v<const K&, item<D>, Extra&...>,
                      "parallel_for(range): the kernel must take a sycl::item or sycl::id of the range's dimensions "
                      "(and its operator() must be const)");
        k(item_factory::make_item<D, true>(w), extra...);
    }
}

// Whether kernel K of a launch takes a kernel_handler after its item and `Extra` (its reducers): the launch then
// gives it one, which reads the command group's specialization constants (sycl/specialization_id.hpp).
template <launch Launch, int D> struct launch_item {
    using type = std::conditional_t<Launch == launch::nd_range, nd_item<D>,
                                    std::conditional_t<Launch == launch::work_group, group<D>, item<D>>>;
};
template <launch Launch, int D, typename K, typename... Extra>
inline constexpr bool takes_kernel_handler = [] {
    if constexpr (Launch == launch::single_task)
        return std::is_invocable_v<const K&, kernel_handler&>;
    else
        return std::is_invocable_v<const K&, typename launch_item<Launch, D>::type, Extra&..., kernel_handler&>;
}();
// What a launch keeps of kernel K: K itself, or K and the values of its specialization constants.
template <bool Handler, typename K> using kernel_object = std::conditional_t<Handler, specialized<K>, K>;
template <bool Handler, typename K>
kernel_object<Handler, K> make_kernel_object(K k, const specialization_values* values) {
    if constexpr (Handler)
        return specialized<K>{std::move(k), values ? *values : specialization_values{}};
    else
        return k;
}
template <typename K> const K& kernel_of(const K& k) { return k; }
template <typename K> const K& kernel_of(const specialized<K>& s) { return s.k; }

// The device entry encore++ outlined for kernel type K (compiler/kernel_descriptor.hpp), found once per type:
// the image of K's translation unit for `backend` and the entry's name, or nothing (a program not built by
// encore++ for a GPU, or a kernel that got no device code there). The kernel runs from its object's bytes, so
// its parameters must mean the same on the GPU: values, pointers, and accessors where buffers live in the CUDA
// device's shared memory (a buffer's storage is USM of the default device: the GPU in a program built for it).
struct outlined_entry {
    const encore::compiler::device_image* image = nullptr;
    const char* entry = nullptr;
    bool local_layout = false; // the entry takes a gpu::local_layout (the kernel calls get_work_group_scratch_memory)
    // Where the kernel object's local accessors are (byte positions; the object starts the functor), which the
    // launch binds to their allocations.
    std::vector<std::uint32_t> local_accessors;
};
bool buffers_on_backend(std::string_view backend); // buffers' storage is USM of `backend` (buffer_state.cpp)

// The images encore++ embeds: "cuda" (PTX and cubins, for sm_NN targets) and "opencl" (SPIR-V and SPIR bitcode,
// for spir64). The spir64 compile keeps fewer entries than CUDA's (compiler/outliner/kernel_model.hpp,
// spir_missing): none for kernels with a local layout (work-group scratch memory) or reductions.
enum class outlined_target { cuda, opencl };

// What find_outlined_entry finds, for the kernel `d` describes (or none) whose object the host compiler laid out
// in `host_bytes` bytes.
inline outlined_entry make_outlined_entry(const encore::compiler::kernel_descriptor* d, std::size_t host_bytes,
                                          outlined_target target) {
    outlined_entry e;
    const char* const backend = target == outlined_target::cuda ? "cuda" : "opencl";
    if (!d || !d->entry) return e;
    const encore::compiler::device_image* image = encore::compiler::find_image(backend, *d);
    if (!image) return e; // not built for this target
    if (d->size != host_bytes) {
        // The outliner (Clang) and the host compiler (g++) captured different variables: g++ 12 captures some
        // constants of the enclosing function that Clang reads without capturing. The bytes would not mean the
        // same on the device, so the kernel stays host-only, and says why once.
        std::fprintf(stderr,
                     "encore: kernel '%s' gets no %s code: the host compiler laid its object out in %zu bytes, "
                     "encore-outliner in %zu (a constant of the enclosing function captured by one compiler only; "
                     "declare it outside the function or capture it explicitly)\n",
                     d->name, target == outlined_target::cuda ? "CUDA" : "OpenCL", host_bytes, d->size);
        return e;
    }
    if (target == outlined_target::opencl && (d->local_layout || d->has_reduction)) return e;
    e.local_layout = d->local_layout;
    for (const auto& p : d->parameters()) {
        if (p.kind == encore::compiler::param_kind::accessor && !buffers_on_backend(backend)) return e;
        if (p.kind == encore::compiler::param_kind::local_accessor)
            e.local_accessors.push_back(
                static_cast<std::uint32_t>(p.offset + local_accessor<int>::ext_encore_binding_offset));
    }
    e.image = image;
    e.entry = d->entry;
    return e;
}

// K's entry in the `Target` image, found once per type.
template <typename K, outlined_target Target> const outlined_entry& find_outlined_entry() {
    static const outlined_entry found =
        make_outlined_entry(encore::compiler::find_kernel(typeid(K).name()), sizeof(K), Target);
    return found;
}

// The CUDA code of an outlined kernel of `dimensions` dimensions whose entry takes `bytes` bytes at `functor` (the
// kernel object, copied to the GPU byte by byte: its layout is the outlined struct's).
inline encore::gpu::device_code outlined_code(const outlined_entry& e, int dimensions, const void* functor,
                                              std::size_t bytes) {
    encore::gpu::device_code code = image_code(*e.image);
    code.convention = encore::gpu::calling_convention::work_item;
    code.entry = e.entry;
    code.local_layout = e.local_layout;
    code.binds_local_accessors = true;
    code.local_accessors = e.local_accessors.data();
    code.local_accessor_count = e.local_accessors.size();
    code.geometry_dimensions = static_cast<std::uint8_t>(dimensions > 0 ? dimensions : 1);
    code.functor = functor;
    code.functor_bytes = bytes;
    return code;
}

// The "opencl" image's entry of an outlined kernel (SPIR-V, and SPIR bitcode for OpenCL devices without IL), its
// object of `bytes` bytes at `functor`. A kernel without it fails on an OpenCL queue with errc::kernel_not_supported
// naming it.
inline encore::opencl::device_code opencl_code(const outlined_entry& e, int dimensions, const void* functor,
                                               std::size_t bytes) {
    encore::opencl::device_code code;
    code.program_id = e.image->id;
    code.entry = e.entry;
    code.outlined.spirv = static_cast<const unsigned char*>(e.image->data);
    code.outlined.spirv_bytes = e.image->size;
    code.outlined.functor = functor;
    code.outlined.functor_bytes = bytes;
    code.outlined.geometry_dimensions = static_cast<std::uint8_t>(dimensions > 0 ? dimensions : 1);
    code.outlined.local_accessors = e.local_accessors.data();
    code.outlined.local_accessor_count = e.local_accessors.size();
    code.spir = static_cast<const unsigned char*>(e.image->portable);
    code.spir_bytes = e.image->portable_size;
    return code;
}
// The same entry for the Level Zero backend: its SPIR-V (Level Zero takes no SPIR bitcode).
inline encore::level_zero::device_code level_zero_code(const encore::opencl::device_code& opencl) {
    encore::level_zero::device_code code;
    code.module_id = opencl.program_id;
    code.entry = opencl.entry;
    code.outlined = opencl.outlined;
    return code;
}

// set_arg on a lambda kernel (sycl_ext_oneapi_graph's dynamic parameters on lambdas, as DPC++ has it): the
// kernel's arguments are its captures as encore++ decomposed them (the integration header's parameters, in the
// closure's order), numbered as DPC++ numbers a kernel's arguments after decomposition: one index for each pointer
// and std-layout parameter (a scalar, or a struct without accessors), four for each accessor and local_accessor
// (its pointer and three ranges). A value set there replaces the capture's bytes; its size must be the capture's.
// An accessor capture takes a buffer's memory (an accessor set, or a dynamic_parameter of one): its pointer is
// replaced, its range and offset stay. Kernels without a description (a program not built by encore++) refuse
// set_arg (docs/sycl-graph.md).
class lambda_arguments {
public:
    virtual ~lambda_arguments() = default;
    // A copy of this kernel whose argument `index` holds `value`. Throws errc::invalid naming the kernel when it
    // has no description, the index names no argument (or the inside of an accessor's four), the argument is a
    // local_accessor (not built), or the value does not fit (another size; an accessor takes a pointer).
    virtual std::shared_ptr<const encore::kernel> with_argument(int index,
                                                                const encore::kernel_argument& value) const = 0;
    // A copy of this kernel made by copying its kernel object again: what a graph update of a dynamic local memory
    // object the kernel captured takes (the object's copy sees its new range: detail::resize_scope).
    virtual std::shared_ptr<const encore::kernel> recaptured() const = 0;
};

// Where the value set at DPC++ argument index `index` goes in the kernel object `d` describes (see
// lambda_arguments): its bytes' offset and size. Throws errc::invalid as described there.
struct capture_bytes {
    std::size_t offset = 0, size = 0;
};
capture_bytes lambda_capture(const std::string& kernel, const encore::compiler::kernel_descriptor* d,
                             std::size_t object_size, int index, const encore::kernel_argument& value);
// An accessor's buffer memory is its first member (detail::region::data_), which set_arg on a lambda replaces.
inline constexpr std::size_t accessor_pointer_offset = 0;

template <launch Launch, int D, typename K>
class host_lambda_kernel final : public encore::kernel, public lambda_arguments {
    static constexpr bool handler = takes_kernel_handler<Launch, D, K>;

public:
    // `values`: the command group's specialization constants, for a kernel that takes a kernel_handler.
    host_lambda_kernel(encore::kernel::lasting_name name, K k, const specialization_values* values = nullptr)
        : encore::kernel(name), k_(make_kernel_object<handler>(std::move(k), values)) {
        // The entry's first parameter is the kernel object, with the values after it when it takes them.
        if (const outlined_entry& e = find_outlined_entry<K, outlined_target::cuda>(); e.entry)
            cuda_ = outlined_code(e, D, &k_, sizeof(k_));
        if (const outlined_entry& e = find_outlined_entry<K, outlined_target::opencl>(); e.entry) {
            opencl_ = opencl_code(e, D, &k_, sizeof(k_));
            level_zero_ = level_zero_code(opencl_);
        }
    }
    void run(const encore::work_item& w, std::span<const encore::kernel_argument>) const override {
        current_local_memory = w.local_memory;
        if constexpr (handler) {
            kernel_handler h = k_.handler();
            call_kernel<Launch, D>(k_.k, w, h);
        } else {
            call_kernel<Launch, D>(k_, w);
        }
    }
    // A range launch's items in one loop, the kernel inlined into it (encore::kernel::run_linear).
    void run_linear(encore::work_item& w, std::size_t first, std::size_t last,
                    std::span<const encore::kernel_argument>) const override {
        current_local_memory = w.local_memory;
        if constexpr (handler) {
            kernel_handler h = k_.handler();
            for_linear_items(w, first, last,
                             [&](const encore::work_item& item) { call_kernel<Launch, D>(k_.k, item, h); });
        } else {
            for_linear_items(w, first, last, [&](const encore::work_item& item) { call_kernel<Launch, D>(k_, item); });
        }
    }
    const void* device_code(std::string_view backend) const noexcept override {
        if (backend == "cuda") return cuda_.entry ? &cuda_ : nullptr;
        if (backend == "opencl") return opencl_.entry ? &opencl_ : nullptr;
        if (backend == "level_zero") return level_zero_.entry && level_zero_.outlined.spirv ? &level_zero_ : nullptr;
        return nullptr;
    }
    std::shared_ptr<const encore::kernel> recaptured() const override {
        return std::make_shared<host_lambda_kernel>(*this);
    }
    std::shared_ptr<const encore::kernel> with_argument(int index,
                                                        const encore::kernel_argument& value) const override {
        const auto* described = encore::compiler::find_kernel(typeid(K).name());
        const auto at = lambda_capture(name(), described, sizeof(K), index, value);
        auto copy = std::make_shared<host_lambda_kernel>(*this);
        // The closure's other captures stay as they are; these bytes are the value's (a pointer, or a std-layout
        // value, whose bytes are all it is).
        std::memcpy(reinterpret_cast<std::byte*>(const_cast<K*>(std::addressof(kernel_of(copy->k_)))) + at.offset,
                    value.bytes.data(), at.size);
        return copy;
    }
    host_lambda_kernel(const host_lambda_kernel& other)
        : encore::kernel(encore::kernel::lasting_name{other.name()}), k_(other.k_) {
        if (other.cuda_.entry)
            cuda_ = outlined_code(find_outlined_entry<K, outlined_target::cuda>(), D, &k_, sizeof(k_));
        if (other.opencl_.entry) {
            opencl_ = opencl_code(find_outlined_entry<K, outlined_target::opencl>(), D, &k_, sizeof(k_));
            level_zero_ = level_zero_code(opencl_);
        }
    }

private:
    kernel_object<handler, K> k_;
    encore::gpu::device_code cuda_;
    encore::opencl::device_code opencl_;
    encore::level_zero::device_code level_zero_; // the same SPIR-V entry as opencl_
};

#if defined(__CUDACC__)
template <typename K>
inline constexpr bool has_cuda_entry = encore::cuda::is_host_device_lambda<K> || encore::cuda::is_device_only_lambda<K> ||
                                       requires { typename K::sycl_ext_encore_device_functor; };

// What the __global__ entry calls: the kernel with the item its launch gives it, built on the device.
template <launch Launch, int D, typename K> struct device_call {
    K k;
    ENCORE_HOST_DEVICE void operator()(const encore::work_item& w) const { call_kernel<Launch, D>(k, w); }
};

// A kernel of an nvcc translation unit that runs on the host (native backend) and on CUDA devices.
template <launch Launch, int D, typename K> class cuda_lambda_kernel final : public encore::kernel {
    static constexpr bool handler = takes_kernel_handler<Launch, D, K>;

public:
    cuda_lambda_kernel(encore::kernel::lasting_name name, K k, const specialization_values* values = nullptr)
        : encore::kernel(name), call_{make_kernel_object<handler>(std::move(k), values)},
          code_(encore::cuda::detail::work_item_code(&call_)) {}
    void run(const encore::work_item& w, std::span<const encore::kernel_argument>) const override {
        if constexpr (encore::cuda::is_device_only_lambda<K>)
            throw encore::error(encore::errc::kernel_not_supported,
                                "kernel '" + name() + "' is a __device__ lambda: it has no host form; mark it "
                                                      "ENCORE_DEVICE_LAMBDA to run it on the host too");
        else {
            current_local_memory = w.local_memory;
            call_kernel<Launch, D>(call_.k, w);
        }
    }
    const void* device_code(std::string_view backend) const noexcept override {
        return backend == "cuda" ? &code_ : nullptr;
    }

private:
    device_call<Launch, D, kernel_object<handler, K>> call_; // specialized<K> calls K with the handler
    encore::cuda::device_code code_;
};

template <launch Launch, int D, typename K>
using lambda_kernel = std::conditional_t<has_cuda_entry<K>, cuda_lambda_kernel<Launch, D, K>, host_lambda_kernel<Launch, D, K>>;
#else
template <launch Launch, int D, typename K> using lambda_kernel = host_lambda_kernel<Launch, D, K>;
#endif

} // namespace detail
} // namespace _V1
} // namespace sycl

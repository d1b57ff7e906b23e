// sycl_ext_oneapi_free_function_kernels: a kernel written as a plain function at namespace scope, marked with
// SYCL_EXT_ONEAPI_FUNCTION_PROPERTY, taken as a sycl::kernel through its kernel_id and launched with its
// arguments set by handler::set_arg(s) (or dynamic parameters, which graphs update).
//
// On the native backend (g++ and encore++ builds alike) each such function is an engine kernel of its own:
// the function is called once per work-item with its arguments read from those set, and
// `this_work_item::get_nd_item<N>()` answers inside it (sycl/ext/oneapi/free_function_queries.hpp).
// Parameters: pointers (USM) and trivially copyable values; set_arg of another kind or size is refused at the
// launch with errc::invalid naming the parameter. A function's kernel_id exists once the program names it
// (get_kernel_id<f>, the bundle's ext_oneapi_get_kernel<f>), before main: `get_kernel_bundle` then holds it
// on every device that runs it. In a program built by encore++ for CUDA, each marked function also gets a
// CUDA entry (the outliner writes one per function the program names, which builds the work-item from CUDA's
// indices and calls the function): the bundle then holds it on the GPU too. Elsewhere a GPU's bundle does not
// hold it.
//
//     SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
//     void scale(float a, float* x) { x[sycl::ext::oneapi::this_work_item::get_nd_item<1>().get_global_id(0)]
//     *= a; }
//
//     auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());
//     sycl::kernel k = bundle.get_kernel(syclexp::get_kernel_id<scale>());
//     q.submit([&](sycl::handler& h) { h.set_args(2.f, x); h.parallel_for(sycl::nd_range<1>{{n}, {64}}, k);
//     });
#pragma once

#define SYCL_EXT_ONEAPI_FREE_FUNCTION_KERNELS 1

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "encore/backends/gpu/device_code.hpp"
#include "encore/compiler/kernel_descriptor.hpp"
#include "sycl/detail/image_code.hpp"
#include "sycl/ext/oneapi/experimental/graph.hpp"
#include "sycl/ext/oneapi/experimental/work_group_memory.hpp"
#include "sycl/ext/oneapi/free_function_queries.hpp"
#include "sycl/ext/oneapi/kernel_properties/properties.hpp"
#include "sycl/kernel_bundle.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

template <typename Signature> struct free_function_signature { static constexpr bool function = false; };
template <typename... Ps> struct free_function_signature<void (*)(Ps...)> {
    static constexpr bool function = true;
    using parameters = std::tuple<Ps...>;
};

// Local memory parameters: local_accessor<T, 1>, work_group_memory and dynamic_work_group_memory, made in the
// kernel from the allocation the argument set for them (on the native backend; on CUDA, by the entry encore++
// writes, all but dynamic_work_group_memory, which holds host state).
template <typename P> struct local_parameter : std::false_type {};
template <typename T> struct local_parameter<local_accessor<T, 1>> : std::true_type {
    // `offset`: where the allocation starts in a CUDA block's dynamic shared memory (encore++'s entry knows).
    ENCORE_HOST_DEVICE static local_accessor<T, 1> make(std::size_t bytes, std::uint32_t index,
                                                        std::uint32_t offset = unbound_local) {
        return local_accessor<T, 1>(range<1>{bytes / sizeof(T)}, reserved_local{index, offset});
    }
};
template <typename T, typename Properties>
struct local_parameter<ext::oneapi::experimental::work_group_memory<T, Properties>> : std::true_type {
    using value_type = std::remove_all_extents_t<T>;
    ENCORE_HOST_DEVICE static ext::oneapi::experimental::work_group_memory<T, Properties>
    make(std::size_t bytes, std::uint32_t index, std::uint32_t offset = unbound_local) {
        return ext::oneapi::experimental::work_group_memory<T, Properties>(
            local_parameter<local_accessor<value_type, 1>>::make(bytes, index, offset));
    }
};
template <typename T, typename Properties>
struct local_parameter<ext::oneapi::experimental::dynamic_work_group_memory<T, Properties>> : std::true_type {
    static ext::oneapi::experimental::dynamic_work_group_memory<T, Properties>
    make(std::size_t bytes, std::uint32_t index, std::uint32_t offset = unbound_local) {
        return ext::oneapi::experimental::dynamic_work_group_memory<T, Properties>(
            local_parameter<ext::oneapi::experimental::work_group_memory<T, Properties>>::make(bytes, index, offset));
    }
};

// A parameter a free-function kernel may take in Encore: a pointer, a trivially copyable value, or local memory.
template <typename P>
inline constexpr bool free_function_parameter =
    !std::is_reference_v<P> &&
    (local_parameter<P>::value || std::is_pointer_v<P> || std::is_trivially_copyable_v<P>);

// The function's name as the compiler spells it ("scale", "ns::scale").
template <auto* F> std::string free_function_name() {
    std::string_view pretty = __PRETTY_FUNCTION__; // "... [with auto* F = scale; ...]" or "[F = &scale]"
    auto at = pretty.find("F = ");
    if (at == std::string_view::npos) return "free function kernel";
    pretty.remove_prefix(at + 4);
    if (!pretty.empty() && pretty.front() == '&') pretty.remove_prefix(1);
    const auto end = pretty.find_first_of(";]");
    return std::string(pretty.substr(0, end));
}

std::string describe_argument(const ::encore::kernel_argument& a); // "a pointer", "a 4-byte value", ...

// The CUDA entry encore++ outlined for the free-function kernel whose engine kernel type is K
// (compiler/kernel_descriptor.hpp, found by typeid(K).name()), as an argument_list kernel of its source's
// image; or null (a program not built by encore++ for CUDA).
template <typename K> const ::encore::gpu::device_code* free_function_cuda_code() noexcept {
    static const ::encore::gpu::device_code code = [] {
        const auto* d = ::encore::compiler::find_kernel(typeid(K).name());
        const auto* image = d && d->entry ? ::encore::compiler::find_image("cuda", *d) : nullptr;
        if (!image) return ::encore::gpu::device_code{};
        ::encore::gpu::device_code c = ::sycl::detail::image_code(*image);
        c.convention = ::encore::gpu::calling_convention::argument_list;
        c.entry = d->entry;
        c.local_layout = d->local_layout; // local memory: parameters as sizes, then the layout
        return c;
    }();
    return code.entry ? &code : nullptr;
}

template <auto* F> class free_function_kernel final : public typed_kernel {
    using signature = free_function_signature<decltype(F)>;
    static_assert(signature::function, "free function kernel: the kernel must be a function returning void");
    using parameters = typename signature::parameters;
    static constexpr std::size_t count = std::tuple_size_v<parameters>;

public:
    free_function_kernel() : typed_kernel(free_function_name<F>()) {}
    std::optional<std::size_t> argument_count() const noexcept override { return count; }

    const void* device_code(std::string_view backend) const noexcept override {
        return backend == "cuda" ? free_function_cuda_code<free_function_kernel>() : nullptr;
    }
    void check_arguments(std::span<const ::encore::kernel_argument> arguments) const override {
        check(arguments, std::make_index_sequence<count>{});
    }
    void run(const ::encore::work_item& item,
             std::span<const ::encore::kernel_argument> arguments) const override {
        struct restore {
            const ::encore::work_item* item;
            std::span<std::byte* const> local;
            ~restore() {
                current_work_item = item;
                current_local_memory = local;
            }
        } guard{current_work_item, current_local_memory};
        current_work_item = &item;
        current_local_memory = item.local_memory;
        call(arguments, std::make_index_sequence<count>{});
    }

private:
    template <std::size_t... I>
    static void call(std::span<const ::encore::kernel_argument> a, std::index_sequence<I...>) {
        // Local allocation k is the kernel's k-th local memory argument.
        std::array<std::uint32_t, count + 1> local_index{};
        for (std::size_t i = 0; i < count; ++i)
            local_index[i + 1] =
                local_index[i] + (a[i].type == ::encore::kernel_argument::kind::local_memory ? 1u : 0u);
        (*F)(argument<std::tuple_element_t<I, parameters>>(a[I], local_index[I])...);
    }
    template <typename P> static P argument(const ::encore::kernel_argument& a, std::uint32_t local_index) {
        if constexpr (local_parameter<P>::value)
            return local_parameter<P>::make(a.local_bytes, local_index);
        else if constexpr (std::is_pointer_v<P>)
            return static_cast<P>(a.pointer());
        else
            return a.scalar<std::remove_cv_t<P>>();
    }
    template <std::size_t... I>
    void check(std::span<const ::encore::kernel_argument> a, std::index_sequence<I...>) const {
        (check_one<std::tuple_element_t<I, parameters>>(a[I], I), ...);
    }
    template <typename P> void check_one(const ::encore::kernel_argument& a, std::size_t index) const {
        static_assert(free_function_parameter<P>,
                      "free function kernel: Encore takes pointers, trivially copyable values, local_accessor<T, 1>, "
                      "work_group_memory and dynamic_work_group_memory as parameters");
        using kind = ::encore::kernel_argument::kind;
        bool fits = false;
        std::string takes;
        if constexpr (local_parameter<P>::value) {
            fits = a.type == kind::local_memory;
            takes = "local memory (a local_accessor or work_group_memory)";
        } else if constexpr (std::is_pointer_v<P>) {
            fits = a.type == kind::pointer;
            takes = "a pointer";
        } else {
            fits = a.type == kind::scalar && a.bytes.size() == sizeof(P);
            takes = "a " + std::to_string(sizeof(P)) + "-byte value";
        }
        if (!fits)
            throw exception(errc::invalid, "set_arg(" + std::to_string(index) + "): kernel '" + name() + "' takes " +
                                               takes + " there; it was given " + describe_argument(a));
    }
};

// The registration of F's kernel_id: made before main by the first use of get_kernel_id<F> in the program.
template <auto* F> struct free_function_registration {
    static std::shared_ptr<const ::encore::kernel> engine() {
        static const std::shared_ptr<const ::encore::kernel> k = std::make_shared<free_function_kernel<F>>();
        return k;
    }
    static const registered_kernel& entry() {
        static const std::string name = free_function_name<F>();
        static const registered_kernel e{name.c_str(), &engine};
        return e;
    }
    static inline const bool registered = (register_kernel(entry()), true);
};

template <auto* F> kernel_id free_function_id() {
    static_cast<void>(free_function_registration<F>::registered);
    return kernel_id(free_function_registration<F>::entry());
}

} // namespace detail

namespace ext::oneapi::experimental {

// Whether F is a function Encore can take as a free-function kernel (void, pointers and trivially copyable
// values). In a g++ build the launch property is not visible (kernel_properties/properties.hpp), so every
// such function is.
template <auto* F>
inline constexpr bool is_kernel_v = [] {
    using signature = sycl::detail::free_function_signature<decltype(F)>;
    if constexpr (signature::function)
        return []<typename... Ps>(std::tuple<Ps...>*) {
            return (sycl::detail::free_function_parameter<Ps> && ...);
        }(static_cast<typename signature::parameters*>(nullptr));
    else
        return false;
}();

template <auto* F> kernel_id get_kernel_id() {
    static_assert(is_kernel_v<F>, "get_kernel_id: the function is not a free-function kernel Encore can take "
                                  "(void, with pointer and trivially copyable parameters)");
    return sycl::detail::free_function_id<F>();
}

// The bundle of F alone, for `devices` (the context's by default). Throws errc::invalid when no device runs
// it.
template <auto* F, bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context& c, const std::vector<device>& devices) {
    return sycl::get_kernel_bundle<State>(c, devices, {get_kernel_id<F>()});
}
template <auto* F, bundle_state State> kernel_bundle<State> get_kernel_bundle(const context& c) {
    return get_kernel_bundle<F, State>(c, c.get_devices());
}

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

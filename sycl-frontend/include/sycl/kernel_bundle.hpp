// sycl::kernel_bundle (SYCL 2020 section 4.11): the kernels of a context's devices, as `kernel_id`s, in one
// of the states input, object, executable, or (sycl_ext_oneapi_kernel_compiler) source code built at run
// time.
//
// What a bundle holds in Encore:
// - the application's kernels: free-function kernels (sycl/ext/oneapi/free_function_kernels.hpp) and the lambda
//   and function-object kernels the program launches (each registered before main by the launch's template:
//   get_kernel_id<Name>() finds a named one), each compatible with the devices that can run it (the native backend
//   runs every one; a GPU those that carry its device code). A lambda kernel's `sycl::kernel` names it but cannot
//   be launched by itself (its arguments are its captures): bind the bundle with handler::use_kernel_bundle and
//   launch the lambda.
// - or a program built from source by a backend (`create_kernel_bundle_from_source` and `build` in
//   sycl/ext/oneapi/experimental/kernel_compiler.hpp): its kernels by name (`ext_oneapi_get_kernel`).
// Encore's kernels are compiled when the program is (or when the source bundle is built), so `compile`,
// `link` and `build` of an application bundle change its state only, and every state holds the same kernels.
// Specialization constants set on an input bundle (sycl/specialization_id.hpp) go with it through those steps
// and reach the kernels launched with the bundle bound; they are emulated (native_specialization_constant() is
// false): their values travel with each launch.
//
//     auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::input>(q.get_context());
//     bundle.set_specialization_constant<width>(32);
//     auto exe = sycl::build(bundle);
//     q.submit([&](sycl::handler& h) { h.use_kernel_bundle(exe);
//                                      h.parallel_for<class fill>(r, [=](sycl::item<1> i, sycl::kernel_handler kh) {
//                                          p[i] = kh.get_specialization_constant<width>(); }); });
#pragma once

#include <cstddef>
#include <cstring>
#include <typeinfo>
#include <memory>
#include <string>
#include <vector>

#include "encore/graph/kernel.hpp"
#include "sycl/device.hpp"
#include "sycl/exception.hpp"
#include "sycl/kernel.hpp"
#include "sycl/specialization_id.hpp"

namespace encore {
class source_program;
}

namespace sycl {
inline namespace _V1 {

enum class bundle_state { input, object, executable, ext_oneapi_source };

namespace detail {
// A kernel of the application that has a kernel_id: its name and its engine kernel (made on first use, then
// shared). Registered once, before main, by the template that names it (free_function_kernels.hpp).
struct registered_kernel {
    const char* name;
    std::shared_ptr<const ::encore::kernel> (*engine)();
    // Lambda and function-object kernels: typeid(Name*).name() of the kernel's name (its own type when it has none),
    // and whether it takes a kernel_handler (reads specialization constants). Free-function kernels: null, false.
    const char* name_type = nullptr;
    bool takes_handler = false;
};
// Keeps the address: `k` lives as long as the program. Returns the entry the program's ids use: `k`, or the one
// registered first for the same kernel (by another shared object of the program).
const registered_kernel& register_kernel(const registered_kernel& k);
struct kernel_bundle_impl;
} // namespace detail

class kernel_id {
public:
    kernel_id() = delete;
    const char* get_name() const noexcept { return entry_->name; }
    friend bool operator==(const kernel_id& a, const kernel_id& b) noexcept { return a.entry_ == b.entry_; }

    // Encore: the id of a registered kernel, and its entry.
    explicit kernel_id(const detail::registered_kernel& entry) : entry_(&entry) {}
    const detail::registered_kernel& ext_encore_entry() const noexcept { return *entry_; }

private:
    const detail::registered_kernel* entry_;
};

// Every kernel of the application that has an id.
std::vector<kernel_id> get_kernel_ids();

namespace detail {
std::shared_ptr<const kernel_bundle_impl> make_bundle(const context& c, const std::vector<device>& devices,
                                                      const std::vector<kernel_id>* only);
const context& bundle_context(const kernel_bundle_impl& b) noexcept;
const std::vector<device>& bundle_devices(const kernel_bundle_impl& b) noexcept;
std::vector<kernel_id> bundle_kernel_ids(const kernel_bundle_impl& b);
bool bundle_empty(const kernel_bundle_impl& b) noexcept; // no kernel id, and no program built from source
bool bundle_has_kernel(const kernel_bundle_impl& b, const kernel_id& id, const device* on);
kernel bundle_get_kernel(const kernel_bundle_impl& b, const kernel_id& id);
bool bundle_has_named_kernel(const kernel_bundle_impl& b, const std::string& name);
kernel bundle_get_named_kernel(const kernel_bundle_impl& b, const std::string& name);
const std::string& bundle_build_log(const kernel_bundle_impl& b) noexcept;
std::shared_ptr<const kernel_bundle_impl>
join_bundles(const std::vector<std::shared_ptr<const kernel_bundle_impl>>& b);
bool runs_on(const ::encore::kernel& k, const device& d);
template <auto* F> kernel_id free_function_id(); // sycl/ext/oneapi/experimental/free_function_kernels.hpp
// The id of the lambda or function-object kernel named by the type whose typeid(Name*).name() is `name_type`.
// Throws errc::invalid naming `readable` when the program launches no such kernel.
kernel_id lambda_kernel_id(const char* name_type, const std::string& readable);
bool bundle_takes_handler(const kernel_bundle_impl& b) noexcept; // a kernel of it takes a kernel_handler
// The specialization constant of `key` (at `address`; `signature`: spec_signature's, which names it): throws
// errc::invalid when another specialization_id of the program has the same key (the same qualified name in two
// anonymous namespaces).
void check_spec_key(std::uint64_t key, const void* address, const char* signature);
// Sets `key` in `values`; throws errc::invalid (naming `call`) when the values would exceed their capacity.
void set_spec_value(specialization_values& values, std::uint64_t key, const void* value, std::size_t size,
                    const char* call);
// The records of `from` whose keys `into` does not have, added to it.
void merge_spec_values(specialization_values& into, const specialization_values& from, const char* call);
template <auto& S> void set_spec_constant(specialization_values& values, const spec_value_t<S>& value,
                                          const char* call) {
    static_assert(std::is_trivially_copyable_v<spec_value_t<S>>,
                  "a specialization constant's type must be trivially copyable");
    check_spec_key(spec_key<S>(), &S, spec_signature<S>());
    set_spec_value(values, spec_key<S>(), &value, sizeof(value), call);
}
template <auto& S> spec_value_t<S> get_spec_constant(const specialization_values& values) {
    using T = spec_value_t<S>;
    alignas(T) unsigned char bytes[sizeof(T)];
    if (values.find(spec_key<S>(), bytes, sizeof(T))) {
        T value;
        std::memcpy(static_cast<void*>(&value), bytes, sizeof(T));
        return value;
    }
    return S.ext_encore_default();
}
} // namespace detail

// The id of the kernel named KernelName (parallel_for<KernelName>, or a function-object kernel's own type). Throws
// errc::invalid when the program launches no kernel of that name.
template <typename KernelName> kernel_id get_kernel_id() {
    return detail::lambda_kernel_id(typeid(KernelName*).name(), typeid(KernelName*).name());
}

template <bundle_state State> class kernel_bundle {
    static constexpr bool source = State == bundle_state::ext_oneapi_source;

public:
    using device_image_iterator = const void*; // device images are not modelled: begin() == end()

    kernel_bundle() = delete;

    backend get_backend() const noexcept { return get_context().get_backend(); }
    context get_context() const noexcept { return detail::bundle_context(*impl_); }
    std::vector<device> get_devices() const noexcept { return detail::bundle_devices(*impl_); }

    bool empty() const noexcept requires(!source) { return detail::bundle_empty(*impl_); }
    bool has_kernel(const kernel_id& id) const noexcept requires(!source) {
        return detail::bundle_has_kernel(*impl_, id, nullptr);
    }
    bool has_kernel(const kernel_id& id, const device& d) const noexcept requires(!source) {
        return detail::bundle_has_kernel(*impl_, id, &d);
    }
    std::vector<kernel_id> get_kernel_ids() const requires(!source) {
        return detail::bundle_kernel_ids(*impl_);
    }
    // Throws errc::invalid when the bundle does not hold `id`.
    kernel get_kernel(const kernel_id& id) const requires(State == bundle_state::executable) {
        return detail::bundle_get_kernel(*impl_, id);
    }
    // Specialization constants (sycl/specialization_id.hpp). Encore does not track which constants a kernel reads:
    // a bundle "uses" every one when one of its kernels takes a kernel_handler.
    bool contains_specialization_constants() const noexcept requires(!source) {
        return detail::bundle_takes_handler(*impl_);
    }
    bool native_specialization_constant() const noexcept requires(!source) { return false; }
    template <auto& S> bool has_specialization_constant() const noexcept requires(!source) {
        return contains_specialization_constants();
    }
    template <auto& S>
    void set_specialization_constant(const detail::spec_value_t<S>& value) requires(State == bundle_state::input) {
        detail::set_spec_constant<S>(*values_, value, "kernel_bundle::set_specialization_constant");
    }
    // The value set on this bundle (or the one it was built from), else S's default.
    template <auto& S> detail::spec_value_t<S> get_specialization_constant() const requires(!source) {
        return detail::get_spec_constant<S>(*values_);
    }
    device_image_iterator begin() const noexcept requires(!source) { return nullptr; }
    device_image_iterator end() const noexcept requires(!source) { return nullptr; }

    // sycl_ext_oneapi_kernel_compiler: a kernel of a bundle built from source, by the name its language gives
    // it.
    bool ext_oneapi_has_kernel(const std::string& name) const requires(State == bundle_state::executable) {
        return detail::bundle_has_named_kernel(*impl_, name);
    }
    // Throws errc::invalid when the bundle has no kernel `name`.
    kernel ext_oneapi_get_kernel(const std::string& name) const requires(State == bundle_state::executable) {
        return detail::bundle_get_named_kernel(*impl_, name);
    }
    // sycl_ext_oneapi_free_function_kernels: the kernel of function F.
    template <auto* F> bool ext_oneapi_has_kernel() const requires(!source) {
        return has_kernel(detail::free_function_id<F>());
    }
    template <auto* F> bool ext_oneapi_has_kernel(const device& d) const requires(!source) {
        return has_kernel(detail::free_function_id<F>(), d);
    }
    template <auto* F> kernel ext_oneapi_get_kernel() const requires(State == bundle_state::executable) {
        return get_kernel(detail::free_function_id<F>());
    }
    // Encore: the compiler's messages of a build from source that succeeded (warnings), possibly empty.
    const std::string& build_log() const noexcept { return detail::bundle_build_log(*impl_); }

    friend bool operator==(const kernel_bundle& a, const kernel_bundle& b) noexcept {
        return a.impl_ == b.impl_;
    }

    // Encore: what the bundle is, and the specialization constants set on it (shared by its copies).
    explicit kernel_bundle(std::shared_ptr<const detail::kernel_bundle_impl> impl,
                           const detail::specialization_values& values = {})
        : impl_(std::move(impl)), values_(std::make_shared<detail::specialization_values>(values)) {}
    const std::shared_ptr<const detail::kernel_bundle_impl>& ext_encore_impl() const noexcept {
        return impl_;
    }
    const detail::specialization_values& ext_encore_values() const noexcept { return *values_; }

private:
    std::shared_ptr<const detail::kernel_bundle_impl> impl_;
    std::shared_ptr<detail::specialization_values> values_;
};

// The application's kernels compatible with at least one of `devices` (all of the context's by default), or
// only those of `ids`. Throws errc::invalid when `devices` is empty or holds a device not in `c`.
template <bundle_state State>
requires(State != bundle_state::ext_oneapi_source)
    kernel_bundle<State> get_kernel_bundle(const context& c, const std::vector<device>& devices) {
    return kernel_bundle<State>(detail::make_bundle(c, devices, nullptr));
}
template <bundle_state State>
requires(State != bundle_state::ext_oneapi_source) kernel_bundle<State> get_kernel_bundle(const context& c) {
    return get_kernel_bundle<State>(c, c.get_devices());
}
// Throws errc::invalid also when an id's kernel is compatible with none of `devices`.
template <bundle_state State>
requires(State != bundle_state::ext_oneapi_source) kernel_bundle<State> get_kernel_bundle(
    const context& c, const std::vector<device>& devices, const std::vector<kernel_id>& ids) {
    return kernel_bundle<State>(detail::make_bundle(c, devices, &ids));
}
template <bundle_state State>
requires(State != bundle_state::ext_oneapi_source)
    kernel_bundle<State> get_kernel_bundle(const context& c, const std::vector<kernel_id>& ids) {
    return get_kernel_bundle<State>(c, c.get_devices(), ids);
}

// Whether every kernel of `ids` runs on `d`.
bool is_compatible(const std::vector<kernel_id>& ids, const device& d);

template <bundle_state State>
requires(State !=
         bundle_state::ext_oneapi_source) bool has_kernel_bundle(const context& c,
                                                                 const std::vector<device>& devices) {
    return !detail::bundle_kernel_ids(*detail::make_bundle(c, devices, nullptr)).empty();
}
template <bundle_state State>
requires(State != bundle_state::ext_oneapi_source) bool has_kernel_bundle(const context& c) {
    return has_kernel_bundle<State>(c, c.get_devices());
}
template <bundle_state State>
requires(State != bundle_state::ext_oneapi_source) bool has_kernel_bundle(const context& c,
                                                                          const std::vector<device>& devices,
                                                                          const std::vector<kernel_id>& ids) {
    for (const auto& d : devices)
        if (!c.contains(d)) throw exception(errc::invalid, "has_kernel_bundle: a device is not in the context");
    for (const auto& d : devices)
        if (!is_compatible(ids, d)) return false;
    return !devices.empty();
}

namespace detail {
template <bundle_state State>
std::vector<std::shared_ptr<const kernel_bundle_impl>> impls_of(const std::vector<kernel_bundle<State>>& bundles) {
    std::vector<std::shared_ptr<const kernel_bundle_impl>> impls;
    for (const auto& b : bundles)
        impls.push_back(b.ext_encore_impl());
    return impls;
}
// The specialization constants of joined bundles: each constant's value from the first bundle that sets it.
template <bundle_state State>
specialization_values values_of(const std::vector<kernel_bundle<State>>& bundles, const char* call) {
    specialization_values values;
    for (const auto& b : bundles)
        merge_spec_values(values, b.ext_encore_values(), call);
    return values;
}
} // namespace detail

// State changes: Encore's kernels are already compiled (see the top of this file).
inline kernel_bundle<bundle_state::object> compile(const kernel_bundle<bundle_state::input>& b) {
    return kernel_bundle<bundle_state::object>(b.ext_encore_impl(), b.ext_encore_values());
}
inline kernel_bundle<bundle_state::executable>
link(const std::vector<kernel_bundle<bundle_state::object>>& bundles) {
    if (bundles.empty()) throw exception(errc::invalid, "link: no bundle given");
    return kernel_bundle<bundle_state::executable>(detail::join_bundles(detail::impls_of(bundles)),
                                                   detail::values_of(bundles, "link"));
}
inline kernel_bundle<bundle_state::executable> link(const kernel_bundle<bundle_state::object>& b) {
    return link(std::vector{b});
}
inline kernel_bundle<bundle_state::executable> build(const kernel_bundle<bundle_state::input>& b) {
    return kernel_bundle<bundle_state::executable>(b.ext_encore_impl(), b.ext_encore_values());
}
// Throws errc::invalid when the bundles have different contexts.
template <bundle_state State>
requires(State != bundle_state::ext_oneapi_source)
    kernel_bundle<State> join(const std::vector<kernel_bundle<State>>& bundles) {
    if (bundles.empty()) throw exception(errc::invalid, "join: no bundle given");
    return kernel_bundle<State>(detail::join_bundles(detail::impls_of(bundles)), detail::values_of(bundles, "join"));
}

} // namespace _V1
} // namespace sycl

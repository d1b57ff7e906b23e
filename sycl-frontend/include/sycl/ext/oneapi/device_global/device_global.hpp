// sycl_ext_oneapi_device_global: device_global<T, Properties>, a variable of static storage with one instance per
// device, which kernels use like a global variable and the host reaches through queue/handler memcpy and copy.
//
// Where each instance is:
// - the native backend (and any device that runs host code): the host object itself; kernels there read and write
//   it in place, and memcpy/copy on a native queue copy to and from it.
// - CUDA (a program built by encore++ -fsycl-targets=cuda:sm_NN): a __device__ variable of the source's device
//   image (encore-outliner declares the program's variable so), one per GPU, loaded with the image's kernels; the
//   host finds it through the image (backend::global_address). Zero-initialized, or initialized from the
//   constructor's constant arguments, as the host object is.
// A device_global is declared at namespace scope or as a static data member, in the source that launches the
// kernels using it (encore-outliner refuses one declared in a header or in a function). Kernels of one source
// share its instance on a device (-fsycl-device-code-split=per_kernel builds such a source per_source instead).
// Reading a device_global in host code outside kernels reads the native instance.
//
// Properties (device_image_scope, host_access, init_mode, implement_in_csr) are accepted and change nothing here:
// every instance is already per image and per device.
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     syclex::device_global<int[4]> table;
//     q.copy(values, table).wait();                        // host -> the queue's device's instance
//     q.parallel_for(4, [=](sycl::id<1> i) { out[i] = table[i] * 2; });
#pragma once

#define SYCL_EXT_ONEAPI_DEVICE_GLOBAL 1

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "sycl/access/access.hpp"
#include "sycl/detail/host_device.hpp"
#include "sycl/ext/oneapi/device_global/properties.hpp"
#include "sycl/multi_ptr.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

template <typename T, typename PropertyListT> class device_global {
    static_assert(std::is_trivially_destructible_v<T>, "device_global: T must be trivially destructible");
    static_assert(is_property_list_v<PropertyListT>,
                  "device_global: the second argument is a property list (decltype(properties{...}))");

public:
    using element_type = std::remove_extent_t<T>;

    constexpr device_global() = default;
    // T initialized from `args` (constant expressions where the instance is a GPU's: it is initialized with the
    // image).
    template <typename... Args>
        requires(sizeof...(Args) > 0 &&
                 !(sizeof...(Args) == 1 && (sycl::detail::is_device_global<std::remove_cvref_t<Args>> && ...)))
    constexpr explicit device_global(Args&&... args) : value_{std::forward<Args>(args)...} {}
    device_global(const device_global&) = delete;
    device_global(device_global&&) = delete;
    device_global& operator=(const device_global&) = delete;
    device_global& operator=(device_global&&) = delete;

    // The instance of the device running the kernel.
    ENCORE_HOST_DEVICE T& get() noexcept { return value_; }
    ENCORE_HOST_DEVICE const T& get() const noexcept { return value_; }
    ENCORE_HOST_DEVICE operator T&() noexcept { return value_; }
    ENCORE_HOST_DEVICE operator const T&() const noexcept { return value_; }
    ENCORE_HOST_DEVICE device_global& operator=(const T& value) noexcept
        requires(!std::is_array_v<T>)
    {
        value_ = value;
        return *this;
    }
    template <typename U = T>
        requires std::is_array_v<U>
    ENCORE_HOST_DEVICE std::remove_extent_t<U>& operator[](std::ptrdiff_t index) noexcept {
        return value_[index];
    }
    template <typename U = T>
        requires std::is_array_v<U>
    ENCORE_HOST_DEVICE const std::remove_extent_t<U>& operator[](std::ptrdiff_t index) const noexcept {
        return value_[index];
    }
    template <typename U = T>
        requires(std::is_pointer_v<U> || requires(U& u) { u.operator->(); })
    ENCORE_HOST_DEVICE U& operator->() noexcept {
        return value_;
    }
    template <typename U = T>
        requires(std::is_pointer_v<U> || requires(const U& u) { u.operator->(); })
    ENCORE_HOST_DEVICE const U& operator->() const noexcept {
        return value_;
    }

    template <access::decorated D = access::decorated::no>
    ENCORE_HOST_DEVICE multi_ptr<T, access::address_space::global_space, D> get_multi_ptr() noexcept {
        return multi_ptr<T, access::address_space::global_space, D>(&value_);
    }
    template <access::decorated D = access::decorated::no>
    ENCORE_HOST_DEVICE multi_ptr<const T, access::address_space::global_space, D> get_multi_ptr() const noexcept {
        return multi_ptr<const T, access::address_space::global_space, D>(&value_);
    }

    // Whether the property list names a property of key `Key` (device_image_scope_key, host_access_key, ...).
    template <typename Key> static constexpr bool has_property() {
        return sycl::detail::lists_key<Key, PropertyListT>;
    }
    template <typename Key> static constexpr auto get_property() {
        static_assert(has_property<Key>(), "device_global::get_property: the list has no such property");
        return sycl::detail::value_of_key<Key, PropertyListT>();
    }

private:
    T value_{}; // the instance (on a GPU, the __device__ variable's only member: its address is the instance's)
};

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

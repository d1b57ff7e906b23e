// The properties of sycl_ext_oneapi_device_global, under DPC++'s names. Each value type says its key (`key`), so
// device_global::has_property<Key>() finds it in a property list. Encore accepts them and changes nothing for
// them (sycl/ext/oneapi/device_global/device_global.hpp says why).
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     syclex::device_global<int, decltype(syclex::properties{syclex::device_image_scope})> counter;
#pragma once

#include <cstdint>
#include <type_traits>

#include "sycl/ext/oneapi/properties/properties.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

template <typename T, typename PropertyListT = properties<>> class device_global;

// A property value of key `Key` that carries the constant `Value` (host_access<read>, init_mode<reset>, ...).
template <typename Key, auto Value> struct keyed_value {
    using key = Key;
    static constexpr auto value = Value;
};

struct device_image_scope_key {
    struct value_t {
        using key = device_image_scope_key;
    };
};
inline constexpr device_image_scope_key::value_t device_image_scope;

enum class host_access_enum : std::uint16_t { read, write, read_write, none };
struct host_access_key {
    template <host_access_enum Access> using value_t = keyed_value<host_access_key, Access>;
};
template <host_access_enum Access> inline constexpr host_access_key::value_t<Access> host_access;
inline constexpr host_access_key::value_t<host_access_enum::read> host_access_read;
inline constexpr host_access_key::value_t<host_access_enum::write> host_access_write;
inline constexpr host_access_key::value_t<host_access_enum::read_write> host_access_read_write;
inline constexpr host_access_key::value_t<host_access_enum::none> host_access_none;

enum class init_mode_enum : std::uint16_t { reprogram, reset };
struct init_mode_key {
    template <init_mode_enum Trigger> using value_t = keyed_value<init_mode_key, Trigger>;
};
template <init_mode_enum Trigger> inline constexpr init_mode_key::value_t<Trigger> init_mode;
inline constexpr init_mode_key::value_t<init_mode_enum::reprogram> init_mode_reprogram;
inline constexpr init_mode_key::value_t<init_mode_enum::reset> init_mode_reset;

struct implement_in_csr_key {
    template <bool Enable> using value_t = keyed_value<implement_in_csr_key, Enable>;
};
template <bool Enable> inline constexpr implement_in_csr_key::value_t<Enable> implement_in_csr;
inline constexpr implement_in_csr_key::value_t<true> implement_in_csr_on;
inline constexpr implement_in_csr_key::value_t<false> implement_in_csr_off;

} // namespace ext::oneapi::experimental

namespace detail {

template <typename T> inline constexpr bool is_device_global = false;
template <typename T, typename P>
inline constexpr bool is_device_global<ext::oneapi::experimental::device_global<T, P>> = true;

// Whether a device_global property list names a property of key `Key`, and its value (device_global.hpp).
template <typename P> concept keyed_property = requires { typename P::key; };
template <typename Key, typename P> constexpr bool has_key() {
    if constexpr (keyed_property<P>)
        return std::is_same_v<typename P::key, Key>;
    else
        return false;
}
template <typename Key, typename List> inline constexpr bool lists_key = false;
template <typename Key, typename... Ps>
inline constexpr bool lists_key<Key, ext::oneapi::experimental::properties<Ps...>> = (has_key<Key, Ps>() || ...);

// The value of the list's property of key `Key` (a constexpr value: these properties carry no run-time state).
template <typename Key, typename List> struct value_of_key_t;
template <typename Key, typename P, typename... Ps>
struct value_of_key_t<Key, ext::oneapi::experimental::properties<P, Ps...>> {
    static constexpr auto get() {
        if constexpr (has_key<Key, P>())
            return P{};
        else
            return value_of_key_t<Key, ext::oneapi::experimental::properties<Ps...>>::get();
    }
};
template <typename Key, typename List> constexpr auto value_of_key() { return value_of_key_t<Key, List>::get(); }

} // namespace detail
} // namespace _V1
} // namespace sycl

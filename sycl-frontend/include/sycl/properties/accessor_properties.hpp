// Accessor properties (DPC++'s <sycl/properties/accessor_properties.hpp>): SYCL 2020's no_init
// (sycl/property_list.hpp) and DPC++'s no_offset and no_alias, which are optimization hints: accepted, no-ops.
#pragma once

#include "sycl/property_list.hpp"

namespace sycl {
inline namespace _V1 {

namespace ext::oneapi::property {
struct no_offset {};
struct no_alias {};
} // namespace ext::oneapi::property
namespace ext::oneapi {
inline constexpr property::no_offset no_offset{};
inline constexpr property::no_alias no_alias{};
} // namespace ext::oneapi

template <> struct is_property<ext::oneapi::property::no_offset> : std::true_type {};
template <> struct is_property<ext::oneapi::property::no_alias> : std::true_type {};

} // namespace _V1
} // namespace sycl

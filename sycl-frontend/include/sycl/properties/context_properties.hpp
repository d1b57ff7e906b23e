// Context properties (DPC++'s <sycl/properties/context_properties.hpp>).
#pragma once

#include "sycl/property_list.hpp"

namespace sycl {
inline namespace _V1 {

namespace ext::oneapi::cuda::property::context {
// Holds already: Encore's CUDA backend always works in each device's primary context.
struct use_primary_context {};
} // namespace ext::oneapi::cuda::property::context

template <> struct is_property<ext::oneapi::cuda::property::context::use_primary_context> : std::true_type {};

} // namespace _V1
} // namespace sycl

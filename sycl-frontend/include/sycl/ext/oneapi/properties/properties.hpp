// sycl_ext_oneapi_properties, the part Encore's extensions take: `properties{p1, p2, ...}`, a list of
// property values known by type, with has_property<P>() and get_property<P>(). (DPC++'s compile-time-constant
// properties are not modelled: Encore's properties are plain values.)
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     syclex::memory_pool pool(q, sycl::usm::alloc::device, syclex::properties{syclex::initial_threshold(1 <<
//     20)});
#pragma once

#include <tuple>
#include <type_traits>

#include "sycl/exception.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

template <typename... Properties> class properties {
    template <typename P>
    static constexpr std::size_t count = (std::size_t{std::is_same_v<P, Properties>} + ... + 0);
    static_assert(((count<Properties> == 1) && ...), "properties: a property appears twice in the list");

public:
    constexpr properties(Properties... values) : values_(std::move(values)...) {} // properties<>{} too

    template <typename P> static constexpr bool has_property() { return count<P> == 1; }
    template <typename P> P get_property() const {
        static_assert(count<P> == 1,
                      "get_property: the list has no such property (check has_property first)");
        return std::get<P>(values_);
    }

private:
    std::tuple<Properties...> values_;
};

template <typename... Properties> properties(Properties...) -> properties<Properties...>;

using empty_properties_t = properties<>;

template <typename T> struct is_property_list : std::false_type {};
template <typename... Ps> struct is_property_list<properties<Ps...>> : std::true_type {};
template <typename T> inline constexpr bool is_property_list_v = is_property_list<T>::value;

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

// The function objects of SYCL 2020 section 4.17.2 (plus, multiplies, minimum, maximum, bit and logical
// operations) and the identities reductions use for them (known_identity, section 4.9.2.2).
#pragma once

#include <functional>
#include <limits>
#include <type_traits>

#include "detail/host_device.hpp"

namespace sycl {
inline namespace _V1 {

// clang-format off
template <typename T = void> struct plus { ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a + b; } };
template <typename T = void> struct multiplies { ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a * b; } };
template <typename T = void> struct bit_and { ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a & b; } };
template <typename T = void> struct bit_or { ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a | b; } };
template <typename T = void> struct bit_xor { ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a ^ b; } };
template <typename T = void> struct logical_and { ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a && b; } };
template <typename T = void> struct logical_or { ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a || b; } };
template <typename T = void> struct minimum { ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <typename T = void> struct maximum { ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a < b ? b : a; } };

template <> struct plus<void> { template <typename T> ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a + b; } };
template <> struct multiplies<void> { template <typename T> ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a * b; } };
template <> struct bit_and<void> { template <typename T> ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a & b; } };
template <> struct bit_or<void> { template <typename T> ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a | b; } };
template <> struct bit_xor<void> { template <typename T> ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a ^ b; } };
template <> struct logical_and<void> { template <typename T> ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a && b; } };
template <> struct logical_or<void> { template <typename T> ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a || b; } };
template <> struct minimum<void> { template <typename T> ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <> struct maximum<void> { template <typename T> ENCORE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
// clang-format on

namespace detail {
// Whether Op is operation Family for T: Family<T>, the transparent Family<> (sycl::plus<> and the like), or the
// standard library's function object of the same operation (std::plus<T>, std::plus<>, ...), which SYCL 2020
// reductions accept too (std has no minimum or maximum).
template <typename Op, typename T, template <typename> class Family>
struct op_is_t : std::bool_constant<std::is_same_v<Op, Family<T>> || std::is_same_v<Op, Family<void>>> {};
#define ENCORE_STD_COUNTERPART(family, standard)                                                                        \
    template <typename T> struct op_is_t<std::standard<T>, T, family> : std::true_type {};                            \
    template <typename T> struct op_is_t<std::standard<void>, T, family> : std::true_type {};
ENCORE_STD_COUNTERPART(plus, plus)
ENCORE_STD_COUNTERPART(multiplies, multiplies)
ENCORE_STD_COUNTERPART(bit_and, bit_and)
ENCORE_STD_COUNTERPART(bit_or, bit_or)
ENCORE_STD_COUNTERPART(bit_xor, bit_xor)
ENCORE_STD_COUNTERPART(logical_and, logical_and)
ENCORE_STD_COUNTERPART(logical_or, logical_or)
#undef ENCORE_STD_COUNTERPART
template <typename Op, typename T, template <typename> class Family>
inline constexpr bool op_is = op_is_t<Op, T, Family>::value;

template <typename Op, typename T> constexpr bool has_known_identity() {
    if constexpr (op_is<Op, T, plus> || op_is<Op, T, multiplies>) return std::is_arithmetic_v<T>;
    else if constexpr (op_is<Op, T, bit_and> || op_is<Op, T, bit_or> || op_is<Op, T, bit_xor>)
        return std::is_integral_v<T>;
    else if constexpr (op_is<Op, T, logical_and> || op_is<Op, T, logical_or>) return std::is_arithmetic_v<T>;
    else if constexpr (op_is<Op, T, minimum> || op_is<Op, T, maximum>) return std::is_arithmetic_v<T>;
    else return false;
}
} // namespace detail

template <typename BinaryOperation, typename T>
struct has_known_identity : std::bool_constant<detail::has_known_identity<BinaryOperation, T>()> {};
template <typename BinaryOperation, typename T>
inline constexpr bool has_known_identity_v = has_known_identity<BinaryOperation, T>::value;

template <typename BinaryOperation, typename T> struct known_identity {
    static_assert(has_known_identity_v<BinaryOperation, T>, "this operation has no known identity for this type");
    static constexpr T compute() {
        using detail::op_is;
        if constexpr (op_is<BinaryOperation, T, plus> || op_is<BinaryOperation, T, bit_or> ||
                      op_is<BinaryOperation, T, bit_xor> || op_is<BinaryOperation, T, logical_or>)
            return T{};
        else if constexpr (op_is<BinaryOperation, T, multiplies> || op_is<BinaryOperation, T, logical_and>)
            return T{1};
        else if constexpr (op_is<BinaryOperation, T, bit_and>)
            return static_cast<T>(~T{});
        else if constexpr (op_is<BinaryOperation, T, minimum>)
            return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::max();
        else
            return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::lowest();
    }
    static constexpr T value = compute();
};
template <typename BinaryOperation, typename T>
inline constexpr T known_identity_v = known_identity<BinaryOperation, T>::value;

} // namespace _V1
} // namespace sycl

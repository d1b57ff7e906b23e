// sycl_ext_oneapi_dot_accumulate: dot_acc(a, b, c), the dot product of four 8-bit integers packed in a and b (32-bit
// integers, or vec<int8_t, 4> / vec<uint8_t, 4>), each signed or unsigned, plus c. On a CUDA device the signed and
// unsigned pairs are one __dp4a; mixed pairs and the host add the four products.
//
//     std::int32_t acc = sycl::ext::oneapi::dot_acc(packed_a, packed_b, 0);
#pragma once

#define SYCL_EXT_ONEAPI_DOT_ACCUMULATE 1

#include <cstdint>
#include <type_traits>

#include "sycl/detail/host_device.hpp"
#include "sycl/vector.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi {
namespace detail_dot {

// Byte k of x, as the signed or unsigned 8-bit integer it holds.
template <typename Byte> ENCORE_HOST_DEVICE constexpr std::int32_t byte_of(std::uint32_t x, int k) {
    return static_cast<std::int32_t>(static_cast<Byte>(static_cast<std::uint8_t>(x >> (8 * k))));
}
template <typename A, typename B> ENCORE_HOST_DEVICE std::int32_t dot4(std::uint32_t a, std::uint32_t b, std::int32_t c) {
    constexpr bool a_signed = std::is_signed_v<A>, b_signed = std::is_signed_v<B>;
#if defined(__CUDA_ARCH__)
    if constexpr (a_signed && b_signed)
        return __dp4a(static_cast<int>(a), static_cast<int>(b), c);
    else if constexpr (!a_signed && !b_signed)
        return static_cast<std::int32_t>(__dp4a(a, b, static_cast<unsigned>(c)));
#endif
    using AB = std::conditional_t<a_signed, std::int8_t, std::uint8_t>;
    using BB = std::conditional_t<b_signed, std::int8_t, std::uint8_t>;
    std::int32_t sum = c;
    for (int k = 0; k < 4; ++k)
        sum += byte_of<AB>(a, k) * byte_of<BB>(b, k);
    return sum;
}
template <typename T> ENCORE_HOST_DEVICE std::uint32_t packed(const vec<T, 4>& v) {
    std::uint32_t out = 0;
    for (int k = 0; k < 4; ++k)
        out |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(v[k])) << (8 * k);
    return out;
}

} // namespace detail_dot

ENCORE_HOST_DEVICE inline std::int32_t dot_acc(std::int32_t a, std::int32_t b, std::int32_t c) {
    return detail_dot::dot4<std::int8_t, std::int8_t>(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), c);
}
ENCORE_HOST_DEVICE inline std::int32_t dot_acc(std::uint32_t a, std::uint32_t b, std::int32_t c) {
    return detail_dot::dot4<std::uint8_t, std::uint8_t>(a, b, c);
}
ENCORE_HOST_DEVICE inline std::int32_t dot_acc(std::int32_t a, std::uint32_t b, std::int32_t c) {
    return detail_dot::dot4<std::int8_t, std::uint8_t>(static_cast<std::uint32_t>(a), b, c);
}
ENCORE_HOST_DEVICE inline std::int32_t dot_acc(std::uint32_t a, std::int32_t b, std::int32_t c) {
    return detail_dot::dot4<std::uint8_t, std::int8_t>(a, static_cast<std::uint32_t>(b), c);
}
template <typename A, typename B>
    requires((std::is_same_v<A, std::int8_t> || std::is_same_v<A, std::uint8_t>) &&
             (std::is_same_v<B, std::int8_t> || std::is_same_v<B, std::uint8_t>))
ENCORE_HOST_DEVICE std::int32_t dot_acc(const vec<A, 4>& a, const vec<B, 4>& b, std::int32_t c) {
    return detail_dot::dot4<A, B>(detail_dot::packed(a), detail_dot::packed(b), c);
}

} // namespace ext::oneapi
} // namespace _V1
} // namespace sycl

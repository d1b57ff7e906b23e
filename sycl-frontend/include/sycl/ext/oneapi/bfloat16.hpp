// sycl::ext::oneapi::bfloat16 (sycl_ext_oneapi_bfloat16): float's sign, exponent and top 7 mantissa bits. The same
// 16 bits on the host and the device.
//
// float to bfloat16 rounds to nearest even (NaN stays a quiet NaN); bfloat16 to float is exact (the bits shifted
// up). Arithmetic is done in float and rounded once (sycl/detail/narrow_float.hpp), on the host and in CUDA device
// code alike.
//
//     sycl::ext::oneapi::bfloat16 b = 3.14159f;   // 3.140625
//     float f = b * 2;                            // bfloat16 * int is bfloat16
#pragma once

#include <cstdint>
#include <limits>

#include "sycl/detail/host_device.hpp"
#include "sycl/detail/narrow_float.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi {

class bfloat16 : public ::sycl::detail::narrow_float<bfloat16> {
public:
    using narrow_float::narrow_float;
    constexpr bfloat16() = default;
    static constexpr bool native_arithmetic = false;

    ENCORE_HOST_DEVICE static float to_float(std::uint16_t b) {
        return ::sycl::detail::float_of_bits(static_cast<std::uint32_t>(b) << 16);
    }
    ENCORE_HOST_DEVICE static std::uint16_t from_float(float x) {
        const std::uint32_t f = ::sycl::detail::float_bits(x);
        if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((f >> 16) | 0x0040u); // quiet NaN
        const std::uint32_t round = 0x7fffu + ((f >> 16) & 1u); // ties to even
        return static_cast<std::uint16_t>((f + round) >> 16);   // overflow carries into infinity, as it should
    }
};

} // namespace ext::oneapi
} // namespace _V1
} // namespace sycl

template <> class std::numeric_limits<sycl::ext::oneapi::bfloat16> {
    using b16 = sycl::ext::oneapi::bfloat16;

public:
    static constexpr bool is_specialized = true, is_signed = true, is_integer = false, is_exact = false;
    static constexpr bool has_infinity = true, has_quiet_NaN = true, has_signaling_NaN = true;
    static constexpr std::float_denorm_style has_denorm = std::denorm_present;
    static constexpr bool has_denorm_loss = false, is_iec559 = false, is_bounded = true, is_modulo = false;
    static constexpr bool traps = false, tinyness_before = false;
    static constexpr std::float_round_style round_style = std::round_to_nearest;
    static constexpr int digits = 8, digits10 = 2, max_digits10 = 4, radix = 2;
    static constexpr int min_exponent = -125, min_exponent10 = -37, max_exponent = 128, max_exponent10 = 38;
    static constexpr b16 min() noexcept { return b16::from_bits(0x0080); }
    static constexpr b16 lowest() noexcept { return b16::from_bits(0xff7f); }
    static constexpr b16 max() noexcept { return b16::from_bits(0x7f7f); }
    static constexpr b16 epsilon() noexcept { return b16::from_bits(0x3c00); } // 2^-7
    static constexpr b16 round_error() noexcept { return b16::from_bits(0x3f00); }
    static constexpr b16 infinity() noexcept { return b16::from_bits(0x7f80); }
    static constexpr b16 quiet_NaN() noexcept { return b16::from_bits(0x7fc0); }
    static constexpr b16 signaling_NaN() noexcept { return b16::from_bits(0x7fa0); }
    static constexpr b16 denorm_min() noexcept { return b16::from_bits(0x0001); }
};

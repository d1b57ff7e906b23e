// sycl::half (SYCL 2020 section 4.14.1): IEEE 754 binary16. The same 16 bits on the host and the device, so arrays of
// half move between them unchanged.
//
// On the host, conversions are exact bit manipulation (float to half rounds to nearest even, with subnormals,
// infinities and NaNs), and arithmetic is done in float and rounded once, which is the correctly rounded binary16
// result (sycl/detail/narrow_float.hpp says why). In CUDA device code, conversions are the cvt instructions and
// +, -, * are native half instructions (PTX add/sub/mul.rn.f16; / is done in float, as CUDA's __hdiv does). Written
// as inline PTX: cuda_fp16.h would declare a global `half` that clashes with a program's `using sycl::half`.
//
//     sycl::half h = 1.5f;
//     sycl::half2 v{h, 2.0f};
//     float f = h * 2 + 0.25f;   // half * int is half; half + float is float
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "detail/host_device.hpp"
#include "detail/narrow_float.hpp"

namespace sycl {
inline namespace _V1 {

class half : public detail::narrow_float<half> {
public:
    using narrow_float::narrow_float;
    constexpr half() = default;

    ENCORE_HOST_DEVICE static float to_float(std::uint16_t h) {
#if defined(__CUDA_ARCH__)
        float f;
        asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
        return f;
#else
        const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
        const std::uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
        if (exponent == 0) { // zero or subnormal: mantissa * 2^-24, exact in float
            const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
            return sign ? -magnitude : magnitude;
        }
        if (exponent == 31) return detail::float_of_bits(sign | 0x7f800000u | (mantissa << 13));
        return detail::float_of_bits(sign | ((exponent + 112) << 23) | (mantissa << 13));
#endif
    }
    ENCORE_HOST_DEVICE static std::uint16_t from_float(float x) {
#if defined(__CUDA_ARCH__)
        std::uint16_t h;
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
        return h;
#else
        const std::uint32_t f = detail::float_bits(x);
        const auto sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
        const std::uint32_t magnitude = f & 0x7fffffffu;
        if (magnitude > 0x7f800000u) // NaN: quiet, keeping the payload's top bits
            return static_cast<std::uint16_t>(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
        if (magnitude >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u); // 65520 and up: infinity
        if (magnitude < 0x38800000u) { // below 2^-14: a subnormal half (or zero), in units of 2^-24
            const float units = detail::float_of_bits(magnitude) * 0x1p24f; // exact: a power-of-two scale
            return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::nearbyint(units)));
        }
        std::uint32_t h = ((magnitude >> 23) - 112) << 10 | ((magnitude >> 13) & 0x3ffu);
        const std::uint32_t rest = magnitude & 0x1fffu; // the 13 bits dropped: round to nearest, ties to even
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h; // a carry into the exponent is right too
        return static_cast<std::uint16_t>(sign | h);
#endif
    }

#if defined(__CUDA_ARCH__)
    static constexpr bool native_arithmetic = true;
    template <typename Op> __device__ static half apply(Op op, half a, half b) {
        const std::uint16_t x = a.bits(), y = b.bits();
        std::uint16_t r;
        if constexpr (std::is_same_v<Op, detail::narrow_plus>) asm("add.rn.f16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y));
        else if constexpr (std::is_same_v<Op, detail::narrow_minus>) asm("sub.rn.f16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y));
        else if constexpr (std::is_same_v<Op, detail::narrow_times>) asm("mul.rn.f16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y));
        else return half(op(static_cast<float>(a), static_cast<float>(b)));
        return from_bits(r);
    }
#else
    static constexpr bool native_arithmetic = false;
#endif
};

} // namespace _V1
} // namespace sycl

template <> class std::numeric_limits<sycl::half> {
public:
    static constexpr bool is_specialized = true, is_signed = true, is_integer = false, is_exact = false;
    static constexpr bool has_infinity = true, has_quiet_NaN = true, has_signaling_NaN = true;
    static constexpr std::float_denorm_style has_denorm = std::denorm_present;
    static constexpr bool has_denorm_loss = false, is_iec559 = true, is_bounded = true, is_modulo = false;
    static constexpr bool traps = false, tinyness_before = false;
    static constexpr std::float_round_style round_style = std::round_to_nearest;
    static constexpr int digits = 11, digits10 = 3, max_digits10 = 5, radix = 2;
    static constexpr int min_exponent = -13, min_exponent10 = -4, max_exponent = 16, max_exponent10 = 4;
    static constexpr sycl::half min() noexcept { return sycl::half::from_bits(0x0400); }        // 2^-14
    static constexpr sycl::half lowest() noexcept { return sycl::half::from_bits(0xfbff); }     // -65504
    static constexpr sycl::half max() noexcept { return sycl::half::from_bits(0x7bff); }        // 65504
    static constexpr sycl::half epsilon() noexcept { return sycl::half::from_bits(0x1400); }    // 2^-10
    static constexpr sycl::half round_error() noexcept { return sycl::half::from_bits(0x3800); } // 0.5
    static constexpr sycl::half infinity() noexcept { return sycl::half::from_bits(0x7c00); }
    static constexpr sycl::half quiet_NaN() noexcept { return sycl::half::from_bits(0x7e00); }
    static constexpr sycl::half signaling_NaN() noexcept { return sycl::half::from_bits(0x7d00); }
    static constexpr sycl::half denorm_min() noexcept { return sycl::half::from_bits(0x0001); } // 2^-24
};

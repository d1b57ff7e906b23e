// SYCL 2020 section 4.14.1 (half) and sycl_ext_oneapi_bfloat16: conversions against bit patterns worked out by
// hand (rounding to nearest even at normal, subnormal and overflow boundaries; infinities; NaN), every one of the
// 65,536 halves through float and back, arithmetic in kernels against the host's, vec<half, N>, and math built-ins
// on half. One body built three ways (tests/conformance/meson.build, tests/compiler/meson.build): on a CUDA device
// the kernels use its native half instructions.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <sycl/sycl.hpp>

#include "shared_array.hpp"

using sycl::half;
using sycl::ext::oneapi::bfloat16;

TEST_CASE("half: conversions round to nearest even, with subnormals, overflow, infinities and NaN") {
    static_assert(sizeof(half) == 2 && sizeof(bfloat16) == 2);
    struct from_float_case {
        float value;
        std::uint16_t bits;
    };
    const from_float_case cases[] = {
        {0.0f, 0x0000},          {-0.0f, 0x8000},           {1.0f, 0x3c00},           {-2.0f, 0xc000},
        {65504.0f, 0x7bff},      {65519.0f, 0x7bff},        {65520.0f, 0x7c00},       {1e6f, 0x7c00},
        {0x1p-14f, 0x0400},      {0x1p-24f, 0x0001},        {0x1p-25f, 0x0000},       {0x1.8p-25f, 0x0001},
        {0x1.8p-24f, 0x0002},    {0x1.4p-24f, 0x0001},      {0x1.ffcp-15f, 0x0400},   {1.0f + 0x1p-11f, 0x3c00},
        {1.0f + 0x1.8p-11f, 0x3c01}, {1.0f + 0x1p-10f + 0x1p-11f, 0x3c02},
        {std::numeric_limits<float>::infinity(), 0x7c00}, {-std::numeric_limits<float>::infinity(), 0xfc00},
    };
    for (const auto& c : cases) {
        CAPTURE(c.value);
        CHECK(half(c.value).bits() == c.bits);
    }
    CHECK(std::isnan(static_cast<float>(half(std::numeric_limits<float>::quiet_NaN()))));
    // Every half through float and back, unchanged (NaNs stay NaN).
    for (std::uint32_t b = 0; b <= 0xffff; ++b) {
        const half h = half::from_bits(static_cast<std::uint16_t>(b));
        const float f = h;
        if (std::isnan(f)) {
            CHECK(((b >> 10) & 0x1f) == 0x1f);
            continue;
        }
        if (half(f).bits() != b) CHECK(half(f).bits() == b);
    }
    CHECK(static_cast<float>(half::from_bits(0x0001)) == 0x1p-24f);
    CHECK(static_cast<float>(std::numeric_limits<half>::max()) == 65504.0f);
    CHECK(static_cast<float>(std::numeric_limits<half>::epsilon()) == 0x1p-10f);

    // bfloat16: the top 16 bits of float, rounded to nearest even.
    CHECK(bfloat16(1.0f).bits() == 0x3f80);
    CHECK(bfloat16(3.14159f).bits() == 0x4049);
    CHECK(static_cast<float>(bfloat16(3.14159f)) == 3.140625f);
    CHECK(bfloat16(1.0f + 0x1p-8f).bits() == 0x3f80);                // a tie: to even
    CHECK(bfloat16(1.0f + 0x1p-7f + 0x1p-8f).bits() == 0x3f82);      // a tie: to even (up)
    CHECK(bfloat16(std::numeric_limits<float>::max()).bits() == 0x7f80); // rounds up into infinity
    CHECK(std::isnan(static_cast<float>(bfloat16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST_CASE("half: host operators follow the mixed-type rules") {
    const half a = 1.5f, b = 0.25f;
    CHECK(static_cast<float>(a + b) == 1.75f);
    CHECK(static_cast<float>(a * 2) == 3.0f);
    static_assert(std::is_same_v<decltype(a * 2), half>);
    static_assert(std::is_same_v<decltype(a + 1.0f), float>);
    static_assert(std::is_same_v<decltype(a + 1.0), double>);
    CHECK(a > b);
    CHECK(a == 1.5f);
    half c = a;
    c += b;
    ++c;
    CHECK(static_cast<float>(c) == 2.75f);
    CHECK(static_cast<float>(-c) == -2.75f);
    // 2049 is not a half: 2048 + 1 rounds to even (2048).
    CHECK(static_cast<float>(half(2048.0f) + half(1.0f)) == 2048.0f);
    CHECK(static_cast<float>(half(2048.0f) + half(3.0f)) == 2052.0f);
}

TEST_CASE("half and bfloat16 in kernels: arithmetic, vec<half, 4> and math built-ins match the host") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    constexpr std::size_t n = 4096;
    auto* x = shared_array<half>(q, n);
    auto* y = shared_array<half>(q, n);
    auto* out = shared_array<half>(q, n * 6);
    auto* v = shared_array<sycl::half4>(q, n);
    auto* bf = shared_array<bfloat16>(q, n * 2);
    auto* f = shared_array<float>(q, n * 2);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = half(static_cast<float>(static_cast<int>(i % 512) - 256) * 0.37f);
        y[i] = half(0.5f + static_cast<float>(i % 97) * 1.25f);
    }
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> idx) {
         const std::size_t i = idx[0];
         const half a = x[i], b = y[i];
         out[i * 6] = a + b;
         out[i * 6 + 1] = a - b;
         out[i * 6 + 2] = a * b;
         out[i * 6 + 3] = a / b;
         out[i * 6 + 4] = sycl::sqrt(b);
         out[i * 6 + 5] = sycl::fabs(a) * 2;
         sycl::half4 w{a, b, a, b};
         v[i] = w * w + sycl::half4{half(1.0f)};
         const bfloat16 c = static_cast<float>(a), d = static_cast<float>(b);
         bf[i * 2] = c * d;
         bf[i * 2 + 1] = c + 1;
         f[i * 2] = a * 0.5f; // half * float is float
         f[i * 2 + 1] = static_cast<float>(a);
     }).wait();
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        const float a = x[i], b = y[i];
        // +, -, *, / are correctly rounded: exactly the host's (one rounding from float).
        CHECK(out[i * 6].bits() == half(a + b).bits());
        CHECK(out[i * 6 + 1].bits() == half(a - b).bits());
        CHECK(out[i * 6 + 2].bits() == half(a * b).bits());
        CHECK(out[i * 6 + 3].bits() == half(a / b).bits());
        // sqrt within one half ulp of the exact value's rounding.
        const float s = out[i * 6 + 4];
        CHECK(std::fabs(s - std::sqrt(b)) <= 0x1p-10f * std::sqrt(b));
        CHECK(out[i * 6 + 5].bits() == half(std::fabs(a) * 2).bits());
        const half aa = half(a * a), bb = half(b * b);
        CHECK(half(v[i][0]).bits() == half(static_cast<float>(aa) + 1.0f).bits());
        CHECK(half(v[i][1]).bits() == half(static_cast<float>(bb) + 1.0f).bits());
        const float c = bfloat16(a), d = bfloat16(b);
        CHECK(bf[i * 2].bits() == bfloat16(c * d).bits());
        CHECK(bf[i * 2 + 1].bits() == bfloat16(c + 1.0f).bits());
        CHECK(f[i * 2] == a * 0.5f);
        CHECK(f[i * 2 + 1] == a);
    }
    for (void* p : {static_cast<void*>(x), static_cast<void*>(y), static_cast<void*>(out), static_cast<void*>(v),
                    static_cast<void*>(bf), static_cast<void*>(f)})
        sycl::free(p, q);
}

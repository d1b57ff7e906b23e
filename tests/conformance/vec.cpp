// SYCL 2020 section 4.14.2, sycl::vec: construction, element-wise operators, swizzles, convert with rounding
// modes, as, load and store. Each case computes in a kernel and compares with the same arithmetic done by plain C++
// on the host. One body built three ways: by g++ (tests/conformance/meson.build), by encore++ for the native target
// and by encore++ for cuda:sm_90,native (tests/compiler/meson.build; the CUDA build's default queue is the GPU where
// there is one, run by hand).
#define SYCL_SIMPLE_SWIZZLES
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <sycl/sycl.hpp>

namespace {

// What one kernel writes: `count` floats and ints, compared element by element with the host's.
struct results {
    static constexpr int count = 64;
    float f[count];
    std::int32_t i[count];
    double d[count];
};

// A results block in USM, zeroed, for a kernel of the default queue to fill.
struct device_results {
    sycl::queue q;
    results* r = sycl::malloc_shared<results>(1, q);
    device_results() {
        REQUIRE(r != nullptr);
        std::memset(r, 0, sizeof *r);
    }
    ~device_results() { sycl::free(r, q); }
    device_results(const device_results&) = delete;
    device_results& operator=(const device_results&) = delete;
};

template <typename T> bool same_value(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
    else
        return a == b;
}

void require_equal(const results& got, const results& want) {
    for (int k = 0; k < results::count; ++k) {
        CAPTURE(k);
        REQUIRE(same_value(got.f[k], want.f[k]));
        REQUIRE(got.i[k] == want.i[k]);
        REQUIRE(same_value(got.d[k], want.d[k]));
    }
}

} // namespace

TEST_CASE("vec: size, alignment, aliases and construction") {
    static_assert(sizeof(sycl::float3) == 16 && alignof(sycl::float3) == 16);
    static_assert(sizeof(sycl::vec<std::int8_t, 16>) == 16 && alignof(sycl::double4) == 32);
    static_assert(sycl::float3::size() == 3 && sycl::float3::byte_size() == 16);
    static_assert(std::is_same_v<sycl::uchar4::element_type, std::uint8_t> &&
                  std::is_same_v<sycl::long2::value_type, std::int64_t>);
    static_assert(std::is_trivially_copyable_v<sycl::float4> && std::is_trivially_default_constructible_v<sycl::int8>);

        device_results run;
    MESSAGE("device: " << run.q.get_device().get_info<sycl::info::device::name>());
    results* out = run.r;
    run.q.single_task([=] {
        results& r = *out;
        sycl::float4 broadcast(2.5f);
        sycl::float2 pair{1.f, 2.f};
        sycl::float4 mixed{pair, 3.f, 4.f};
        sycl::float4 from_swizzle{mixed.wz(), pair};
        sycl::vec<float, 1> one{7.f};
        sycl::int3 ints{1, 2, 3};
        sycl::vec<std::int16_t, 16> sixteen{std::int16_t(5)};
        for (int k = 0; k < 4; ++k) {
            r.f[k] = broadcast[k];
            r.f[4 + k] = mixed[k];
            r.f[8 + k] = from_swizzle[k];
        }
        r.f[12] = one; // a one-element vec converts to its element
        for (int k = 0; k < 3; ++k)
            r.i[k] = ints[k];
        r.i[3] = sixteen[15];
        sycl::float4 assigned;
        assigned = 9.f;
        r.f[13] = assigned[3];
    }).wait();
    const results& got = *out;
    results want{};
    const float mixed[4] = {1, 2, 3, 4};
    for (int k = 0; k < 4; ++k) {
        want.f[k] = 2.5f;
        want.f[4 + k] = mixed[k];
    }
    const float from_swizzle[4] = {4, 3, 1, 2};
    for (int k = 0; k < 4; ++k)
        want.f[8 + k] = from_swizzle[k];
    want.f[12] = 7.f;
    want.i[0] = 1, want.i[1] = 2, want.i[2] = 3, want.i[3] = 5;
    want.f[13] = 9.f;
    require_equal(got, want);
}

TEST_CASE("vec: element-wise arithmetic, bitwise, shifts, relational and logical operators") {
    device_results run;
    results* out = run.r;
    run.q.single_task([=] {
        results& r = *out;
        sycl::float4 a{1.5f, -2.f, 0.25f, 8.f};
        sycl::float4 b{0.5f, 4.f, -1.f, 3.f};
        const sycl::float4 ops[] = {a + b, a - b, a * b, a / b, a * 2.f, 3.f - a, -a, +b};
        for (int o = 0; o < 8; ++o)
            for (int k = 0; k < 4; ++k)
                r.f[o * 4 + k] = ops[o][k];
        sycl::int4 x{7, -9, 12, 0x0f0f};
        sycl::int4 y{2, 4, -5, 0x00ff};
        const sycl::int4 iops[] = {x % y, x & y, x | y, x ^ y, x << 2, y >> 1, ~x, x / 2};
        for (int o = 0; o < 8; ++o)
            for (int k = 0; k < 4; ++k)
                r.i[o * 4 + k] = iops[o][k];
        const sycl::int4 rel[] = {a < b, a >= b, a == a, a != b, x > 0, !y, x && y, (x > 5) || (y < 0)};
        for (int o = 0; o < 8; ++o)
            for (int k = 0; k < 4; ++k)
                r.i[32 + o * 4 + k] = rel[o][k];
        // Compound assignment, increments.
        sycl::int4 c = x;
        c += 1;
        c *= y;
        c -= sycl::int4{1, 1, 1, 1};
        ++c;
        c++;
        for (int k = 0; k < 4; ++k)
            r.d[k] = c[k];
        sycl::double2 p{0.1, 1e300};
        p *= 10.0;
        r.d[4] = p[0];
        r.d[5] = p[1];
    }).wait();
    const results& got = *out;
    results want{};
    const float a[4] = {1.5f, -2.f, 0.25f, 8.f}, b[4] = {0.5f, 4.f, -1.f, 3.f};
    for (int k = 0; k < 4; ++k) {
        const float v[8] = {a[k] + b[k], a[k] - b[k], a[k] * b[k], a[k] / b[k], a[k] * 2.f, 3.f - a[k], -a[k], b[k]};
        for (int o = 0; o < 8; ++o)
            want.f[o * 4 + k] = v[o];
    }
    const int x[4] = {7, -9, 12, 0x0f0f}, y[4] = {2, 4, -5, 0x00ff};
    for (int k = 0; k < 4; ++k) {
        const int v[8] = {x[k] % y[k], x[k] & y[k], x[k] | y[k], x[k] ^ y[k], x[k] << 2, y[k] >> 1, ~x[k], x[k] / 2};
        for (int o = 0; o < 8; ++o)
            want.i[o * 4 + k] = v[o];
        const bool t[8] = {a[k] < b[k], a[k] >= b[k], true, a[k] != b[k], x[k] > 0, !y[k], x[k] && y[k],
                           x[k] > 5 || y[k] < 0};
        for (int o = 0; o < 8; ++o)
            want.i[32 + o * 4 + k] = t[o] ? -1 : 0;
        want.d[k] = ((x[k] + 1) * y[k] - 1) + 2;
    }
    want.d[4] = 0.1 * 10.0;
    want.d[5] = 1e300 * 10.0; // infinity
    require_equal(got, want);
}

TEST_CASE("vec: swizzles read and write the vec's elements") {
    device_results run;
    results* out = run.r;
    run.q.single_task([=] {
        results& r = *out;
        sycl::float4 v{1.f, 2.f, 3.f, 4.f};
        sycl::float4 reversed = v.wzyx();
        sycl::float3 colour = v.bgr();
        sycl::float2 low = v.lo(), high = v.hi(), even = v.even(), odd = v.odd();
        sycl::float4 picked = v.swizzle<sycl::elem::w, sycl::elem::x, sycl::elem::x, sycl::elem::s2>();
        float single = v.y();
        for (int k = 0; k < 4; ++k) {
            r.f[k] = reversed[k];
            r.f[4 + k] = picked[k];
        }
        for (int k = 0; k < 3; ++k)
            r.f[8 + k] = colour[k];
        for (int k = 0; k < 2; ++k) {
            r.f[11 + k] = low[k];
            r.f[13 + k] = high[k];
            r.f[15 + k] = even[k];
            r.f[17 + k] = odd[k];
        }
        r.f[19] = single;
        // Writes.
        sycl::float4 w{0.f, 0.f, 0.f, 0.f};
        w.xz() = sycl::float2{5.f, 6.f};
        w.hi() += 1.f;
        w.odd() = w.even();
        w.x() = 9.f;
        for (int k = 0; k < 4; ++k)
            r.f[20 + k] = w[k];
        // A 3-element vec: hi() is {z, the unused fourth}; only z is read here.
        sycl::int3 t{10, 20, 30};
        r.i[0] = t.hi()[0];
        t.lo() = t.lo() * 2;
        r.i[1] = t.x(), r.i[2] = t.y(), r.i[3] = t.z();
        // Sixteen elements: s-names and halves.
        sycl::vec<std::int32_t, 16> s;
        for (int k = 0; k < 16; ++k)
            s[k] = k;
        r.i[4] = s.sF() + s.s9();
        sycl::vec<std::int32_t, 8> top = s.hi();
        r.i[5] = top[0] + top[7];
        // Swizzle arithmetic with vecs and scalars.
        sycl::float2 sum = v.xy() + v.zw() * 2.f;
        r.f[24] = sum[0], r.f[25] = sum[1];
    }).wait();
    const results& got = *out;
    results want{};
    const float reversed[4] = {4, 3, 2, 1}, picked[4] = {4, 1, 1, 3};
    for (int k = 0; k < 4; ++k) {
        want.f[k] = reversed[k];
        want.f[4 + k] = picked[k];
    }
    want.f[8] = 3, want.f[9] = 2, want.f[10] = 1;
    want.f[11] = 1, want.f[12] = 2, want.f[13] = 3, want.f[14] = 4;
    want.f[15] = 1, want.f[16] = 3, want.f[17] = 2, want.f[18] = 4;
    want.f[19] = 2;
    // w: xz = {5, 6} -> {5, 0, 6, 0}; hi += 1 -> {5, 0, 7, 1}; odd = even -> {5, 5, 7, 7}; x = 9.
    want.f[20] = 9, want.f[21] = 5, want.f[22] = 7, want.f[23] = 7;
    want.i[0] = 30, want.i[1] = 20, want.i[2] = 40, want.i[3] = 30;
    want.i[4] = 15 + 9, want.i[5] = 8 + 15;
    want.f[24] = 1 + 3 * 2.f, want.f[25] = 2 + 4 * 2.f;
    require_equal(got, want);
}

TEST_CASE("vec: convert with each rounding mode, as, load and store") {
    device_results run;
    results* out = run.r;
    run.q.single_task([=] {
        results& r = *out;
        sycl::float4 f{2.5f, -2.5f, 3.7f, -3.7f};
        const sycl::int4 modes[] = {f.convert<int>(), f.convert<int, sycl::rounding_mode::rte>(),
                                    f.convert<int, sycl::rounding_mode::rtz>(),
                                    f.convert<int, sycl::rounding_mode::rtp>(),
                                    f.convert<int, sycl::rounding_mode::rtn>()};
        for (int m = 0; m < 5; ++m)
            for (int k = 0; k < 4; ++k)
                r.i[m * 4 + k] = modes[m][k];
        // double -> float: 0.1 lies between two floats; each mode picks one.
        sycl::double2 d{0.1, -0.1};
        const sycl::float2 narrow[] = {d.convert<float>(), d.convert<float, sycl::rounding_mode::rtz>(),
                                       d.convert<float, sycl::rounding_mode::rtp>(),
                                       d.convert<float, sycl::rounding_mode::rtn>()};
        for (int m = 0; m < 4; ++m)
            for (int k = 0; k < 2; ++k)
                r.f[m * 2 + k] = narrow[m][k];
        // int -> float beyond 2^24: the nearest, or toward the mode's direction.
        sycl::int2 big{16777217, -16777217};
        const sycl::float2 wide[] = {big.convert<float>(), big.convert<float, sycl::rounding_mode::rtp>(),
                                     big.convert<float, sycl::rounding_mode::rtn>()};
        for (int m = 0; m < 3; ++m)
            for (int k = 0; k < 2; ++k)
                r.f[8 + m * 2 + k] = wide[m][k];
        // Integer to integer: modulo 2^n, as C++ converts.
        sycl::int2 wrap{300, -1};
        sycl::uchar2 bytes = wrap.convert<std::uint8_t>();
        r.i[20] = bytes[0], r.i[21] = bytes[1];
        // as: the same bytes.
        sycl::float2 bits{1.f, -0.f};
        sycl::uint2 raw = bits.as<sycl::uint2>();
        r.i[22] = static_cast<std::int32_t>(raw[0]), r.i[23] = static_cast<std::int32_t>(raw[1]);
        // NaN and infinities survive arithmetic and conversion between floating types.
        sycl::double2 special{std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()};
        sycl::float2 special_f = special.convert<float>();
        r.f[14] = special_f[0], r.f[15] = special_f[1];
        // load and store through multi_ptr.
        float memory[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        sycl::float4 loaded;
        loaded.load(1, sycl::address_space_cast<sycl::access::address_space::private_space,
                                                sycl::access::decorated::no>(&memory[0]));
        (loaded * 10.f).store(0, sycl::address_space_cast<sycl::access::address_space::private_space,
                                                          sycl::access::decorated::no>(&memory[0]));
        for (int k = 0; k < 8; ++k)
            r.f[16 + k] = memory[k];
    }).wait();
    const results& got = *out;
    results want{};
    const float f[4] = {2.5f, -2.5f, 3.7f, -3.7f};
    for (int k = 0; k < 4; ++k) {
        want.i[k] = static_cast<int>(f[k]);
        want.i[4 + k] = static_cast<int>(std::nearbyint(f[k]));
        want.i[8 + k] = static_cast<int>(std::trunc(f[k]));
        want.i[12 + k] = static_cast<int>(std::ceil(f[k]));
        want.i[16 + k] = static_cast<int>(std::floor(f[k]));
    }
    // The floats on either side of 0.1.
    const float nearest = 0.1f;
    const float lower = static_cast<double>(nearest) > 0.1 ? std::nextafter(nearest, 0.f) : nearest;
    const float upper = static_cast<double>(nearest) > 0.1 ? nearest : std::nextafter(nearest, 1.f);
    want.f[0] = 0.1f, want.f[1] = -0.1f;
    want.f[2] = lower, want.f[3] = -lower; // rtz
    want.f[4] = upper, want.f[5] = -lower; // rtp
    want.f[6] = lower, want.f[7] = -upper; // rtn
    want.f[8] = 16777216.f, want.f[9] = -16777216.f;  // nearest even
    want.f[10] = 16777218.f, want.f[11] = -16777216.f; // rtp
    want.f[12] = 16777216.f, want.f[13] = -16777218.f; // rtn
    want.i[20] = 300 % 256, want.i[21] = 255;
    want.i[22] = 0x3f800000, want.i[23] = static_cast<std::int32_t>(0x80000000u);
    want.f[14] = std::numeric_limits<float>::quiet_NaN(), want.f[15] = -std::numeric_limits<float>::infinity();
    const float memory[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int k = 0; k < 8; ++k)
        want.f[16 + k] = k < 4 ? memory[4 + k] * 10.f : memory[k];
    require_equal(got, want);
}

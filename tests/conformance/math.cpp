// SYCL 2020 section 4.17, the built-in functions: math functions within the ULPs the specification allows for
// float (against the same function computed in double on the host and rounded once), with edge values (zeros of
// both signs, denormals, the largest float, infinities, NaN); double functions against the host's; native::
// functions within a loose bound; integer, common, geometric and relational functions exactly against plain C++.
// Scalars and vecs alike (a vec's elements must equal the scalar results). One body built three ways: by g++
// (tests/conformance/meson.build), by encore++ for the native target and by encore++ for cuda:sm_90,native
// (tests/compiler/meson.build; the CUDA build's default queue is the GPU where there is one, run by hand).
#include <doctest/doctest.h>

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include <sycl/sycl.hpp>

namespace {

constexpr int input_count = 16;
constexpr float inputs[input_count] = {0.f,     -0.f,  0.5f,    1.f,      -1.f,      2.5f, -3.75f, 10.f,
                                       100.f,   1e-3f, 1e-40f, 3.4e38f, 0.75f, -0.3f, std::numeric_limits<float>::infinity(),
                                       -std::numeric_limits<float>::infinity()};

// The unary float functions under test, by number: name and the ULPs the specification allows (-1: exact).
struct unary_function {
    const char* name;
    int ulps;
};
constexpr unary_function unary[] = {
    {"acos", 4},  {"acosh", 4}, {"acospi", 5}, {"asin", 4},  {"asinh", 4}, {"asinpi", 5}, {"atan", 5},
    {"atanh", 5}, {"atanpi", 5}, {"cbrt", 2},  {"ceil", 0},  {"cos", 4},   {"cosh", 4},   {"cospi", 4},
    {"erfc", 16}, {"erf", 16},  {"exp", 3},    {"exp2", 3},  {"exp10", 3}, {"expm1", 3},  {"fabs", 0},
    {"floor", 0}, {"log", 3},   {"log2", 3},   {"log10", 3}, {"log1p", 2}, {"logb", 0},   {"rint", 0},
    {"round", 0}, {"rsqrt", 2}, {"sin", 4},    {"sinh", 4},  {"sinpi", 4}, {"sqrt", 3},   {"tan", 5},
    {"tanh", 5},  {"tgamma", 16}, {"trunc", 0}, {"degrees", 2}, {"radians", 2}, {"sign", 0}};
constexpr int unary_count = sizeof(unary) / sizeof(unary[0]);

// Applies unary function `f` to x (a float or a float4): the same switch on the host and on the device.
template <typename T> T apply_unary(int f, T x) {
    switch (f) {
    case 0: return sycl::acos(x);
    case 1: return sycl::acosh(x);
    case 2: return sycl::acospi(x);
    case 3: return sycl::asin(x);
    case 4: return sycl::asinh(x);
    case 5: return sycl::asinpi(x);
    case 6: return sycl::atan(x);
    case 7: return sycl::atanh(x);
    case 8: return sycl::atanpi(x);
    case 9: return sycl::cbrt(x);
    case 10: return sycl::ceil(x);
    case 11: return sycl::cos(x);
    case 12: return sycl::cosh(x);
    case 13: return sycl::cospi(x);
    case 14: return sycl::erfc(x);
    case 15: return sycl::erf(x);
    case 16: return sycl::exp(x);
    case 17: return sycl::exp2(x);
    case 18: return sycl::exp10(x);
    case 19: return sycl::expm1(x);
    case 20: return sycl::fabs(x);
    case 21: return sycl::floor(x);
    case 22: return sycl::log(x);
    case 23: return sycl::log2(x);
    case 24: return sycl::log10(x);
    case 25: return sycl::log1p(x);
    case 26: return sycl::logb(x);
    case 27: return sycl::rint(x);
    case 28: return sycl::round(x);
    case 29: return sycl::rsqrt(x);
    case 30: return sycl::sin(x);
    case 31: return sycl::sinh(x);
    case 32: return sycl::sinpi(x);
    case 33: return sycl::sqrt(x);
    case 34: return sycl::tan(x);
    case 35: return sycl::tanh(x);
    case 36: return sycl::tgamma(x);
    case 37: return sycl::trunc(x);
    case 38: return sycl::degrees(x);
    case 39: return sycl::radians(x);
    default: return sycl::sign(x);
    }
}

// The reference: the function in double (or exactly), rounded to float once.
// sin(pi x), cos(pi x) in double, x reduced exactly first (fmod is exact), the exact zeros exact.
double sinpi_reference(double x) {
    if (!std::isfinite(x)) return NAN;
    const double r = std::fmod(x, 2.0);
    if (r == 0 || r == 1 || r == -1) return std::copysign(0.0, x);
    return std::sin(3.14159265358979323846 * r);
}
double cospi_reference(double x) {
    if (!std::isfinite(x)) return NAN;
    const double r = std::fabs(std::fmod(x, 2.0));
    if (r == 0.5 || r == 1.5) return 0.0;
    return std::cos(3.14159265358979323846 * r);
}
float reference_unary(int f, float xf) {
    const double x = xf, pi = 3.14159265358979323846;
    double r = 0;
    switch (f) {
    case 0: r = std::acos(x); break;
    case 1: r = std::acosh(x); break;
    case 2: r = std::acos(x) / pi; break;
    case 3: r = std::asin(x); break;
    case 4: r = std::asinh(x); break;
    case 5: r = std::asin(x) / pi; break;
    case 6: r = std::atan(x); break;
    case 7: r = std::atanh(x); break;
    case 8: r = std::atan(x) / pi; break;
    case 9: r = std::cbrt(x); break;
    case 10: r = std::ceil(x); break;
    case 11: r = std::cos(x); break;
    case 12: r = std::cosh(x); break;
    case 13: r = cospi_reference(x); break;
    case 14: r = std::erfc(x); break;
    case 15: r = std::erf(x); break;
    case 16: r = std::exp(x); break;
    case 17: r = std::exp2(x); break;
    case 18: r = std::pow(10.0, x); break;
    case 19: r = std::expm1(x); break;
    case 20: r = std::fabs(x); break;
    case 21: r = std::floor(x); break;
    case 22: r = std::log(x); break;
    case 23: r = std::log2(x); break;
    case 24: r = std::log10(x); break;
    case 25: r = std::log1p(x); break;
    case 26: r = std::logb(xf); break; // of the float: a denormal's exponent is below float's
    case 27: r = std::rint(x); break;
    case 28: r = std::round(x); break;
    case 29: r = 1.0 / std::sqrt(x); break;
    case 30: r = std::sin(x); break;
    case 31: r = std::sinh(x); break;
    case 32: r = sinpi_reference(x); break;
    case 33: r = std::sqrt(x); break;
    case 34: r = std::tan(x); break;
    case 35: r = std::tanh(x); break;
    case 36: r = std::tgamma(x); break;
    case 37: r = std::trunc(x); break;
    case 38: r = x * (180.0 / pi); break;
    case 39: r = x * (pi / 180.0); break;
    default: r = std::isnan(x) ? 0.0 : x > 0 ? 1.0 : x < 0 ? -1.0 : x; break;
    }
    return static_cast<float>(r);
}

// The distance in units in the last place between two floats (0 when both are the same NaN or infinity).
long long ulp_distance(float a, float b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : LLONG_MAX;
    if (a == b) return 0;
    auto ordered = [](float v) {
        const auto bits = std::bit_cast<std::int32_t>(v);
        return bits < 0 ? static_cast<long long>(INT32_MIN) - bits : static_cast<long long>(bits);
    };
    const long long d = ordered(a) - ordered(b);
    return d < 0 ? -d : d;
}

template <typename T> struct usm_array {
    sycl::queue& q;
    T* data;
    usm_array(sycl::queue& queue, std::size_t n) : q(queue), data(sycl::malloc_shared<T>(n, q)) {
        REQUIRE(data != nullptr);
        std::memset(static_cast<void*>(data), 0, n * sizeof(T));
    }
    ~usm_array() { sycl::free(data, q); }
    usm_array(const usm_array&) = delete;
    usm_array& operator=(const usm_array&) = delete;
};

} // namespace

TEST_CASE("math functions on float: within the specification's ULPs, edge values included; vecs as scalars") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    usm_array<float> scalar(q, unary_count * input_count), vector(q, unary_count * input_count), in(q, input_count);
    for (int i = 0; i < input_count; ++i)
        in.data[i] = inputs[i];
    float* s = scalar.data;
    float* v = vector.data;
    const float* x = in.data;
    q.single_task([=] {
         for (int f = 0; f < unary_count; ++f)
             for (int i = 0; i < input_count; i += 4) {
                 for (int k = 0; k < 4; ++k)
                     s[f * input_count + i + k] = apply_unary(f, x[i + k]);
                 const sycl::float4 r = apply_unary(f, sycl::float4{x[i], x[i + 1], x[i + 2], x[i + 3]});
                 for (int k = 0; k < 4; ++k)
                     v[f * input_count + i + k] = r[k];
             }
     }).wait();
    for (int f = 0; f < unary_count; ++f)
        for (int i = 0; i < input_count; ++i) {
            CAPTURE(unary[f].name);
            CAPTURE(inputs[i]);
            const float got = s[f * input_count + i], want = reference_unary(f, inputs[i]);
            CAPTURE(got);
            CAPTURE(want);
            // tgamma beyond float's range, and lgamma's poles, are inf or huge: compared as values.
            CHECK(ulp_distance(got, want) <= unary[f].ulps);
            CHECK(ulp_distance(v[f * input_count + i], got) == 0);
        }
}

TEST_CASE("math functions of two arguments and with pointers, double functions, native:: functions") {
    sycl::queue q;
    constexpr int pairs = 8;
    constexpr float xs[pairs] = {1.5f, -2.f, 0.f, 10.f, -7.25f, 1e-3f, 3.f, std::numeric_limits<float>::infinity()};
    constexpr float ys[pairs] = {0.5f, 3.f, -0.f, -4.f, 2.f, 1e3f, 3.f, 2.f};
    constexpr int binary_count = 13;
    usm_array<float> out(q, binary_count * pairs + 64);
    usm_array<double> doubles(q, 16);
    usm_array<int> ints(q, 16);
    float* o = out.data;
    double* d = doubles.data;
    int* n = ints.data;
    q.single_task([=] {
         const float xv[pairs] = {1.5f, -2.f, 0.f, 10.f, -7.25f, 1e-3f, 3.f, 1.f / 0.f};
         const float yv[pairs] = {0.5f, 3.f, -0.f, -4.f, 2.f, 1e3f, 3.f, 2.f};
         for (int i = 0; i < pairs; ++i) {
             const float a = xv[i], b = yv[i];
             const float r[binary_count] = {sycl::atan2(a, b),     sycl::pow(sycl::fabs(a), b), sycl::fmod(a, b),
                                            sycl::hypot(a, b),     sycl::fmax(a, b),            sycl::fmin(a, b),
                                            sycl::copysign(a, b),  sycl::fdim(a, b),            sycl::remainder(a, b),
                                            sycl::nextafter(a, b), sycl::maxmag(a, b),          sycl::minmag(a, b),
                                            sycl::atan2pi(a, b)};
             for (int f = 0; f < binary_count; ++f)
                 o[f * pairs + i] = r[f];
         }
         float* tail = o + binary_count * pairs;
         float whole = 0;
         tail[0] = sycl::fract(-2.25f, &whole);
         tail[1] = whole;
         tail[2] = sycl::modf(-2.25f, &whole);
         tail[3] = whole;
         float c = 0;
         tail[4] = sycl::sincos(0.5f, &c);
         tail[5] = c;
         int e = 0;
         tail[6] = sycl::frexp(48.f, &e);
         n[0] = e;
         int quo = 0;
         tail[7] = sycl::remquo(10.f, 3.f, &quo);
         n[1] = quo;
         int sign = 0;
         tail[8] = sycl::lgamma_r(-2.5f, &sign);
         n[2] = sign;
         tail[9] = sycl::ldexp(3.f, 4);
         n[3] = sycl::ilogb(48.f);
         tail[10] = sycl::pown(2.f, -3);
         tail[11] = sycl::rootn(-27.f, 3);
         tail[12] = sycl::fma(2.f, 3.f, 4.f);
         tail[13] = sycl::mad(2.f, 3.f, 4.f);
         tail[14] = sycl::powr(-1.f, 2.f); // NaN: powr takes x >= 0
         tail[15] = sycl::native::sin(0.5f);
         tail[16] = sycl::native::exp(1.f);
         tail[17] = sycl::native::recip(4.f);
         tail[18] = sycl::native::divide(1.f, 3.f);
         tail[19] = sycl::half_precision::sqrt(2.f);
         sycl::float2 wholes;
         tail[20] = sycl::fract(sycl::float2{0.25f, -0.75f}, &wholes)[1];
         d[0] = sycl::sqrt(2.0);
         d[1] = sycl::exp(1.0);
         d[2] = sycl::sin(1.0);
         d[3] = sycl::pow(1.5, 2.5);
         d[4] = sycl::log(10.0);
         d[5] = sycl::cospi(1.0 / 3.0);
         d[6] = sycl::length(sycl::double3{1.0, 2.0, 2.0});
     }).wait();
    for (int i = 0; i < pairs; ++i) {
        const float a = xs[i], b = ys[i];
        const float want[binary_count] = {
            static_cast<float>(std::atan2(double(a), double(b))), static_cast<float>(std::pow(std::fabs(double(a)), double(b))),
            std::fmod(a, b), static_cast<float>(std::hypot(double(a), double(b))), std::fmax(a, b), std::fmin(a, b),
            std::copysign(a, b), std::fdim(a, b), std::remainder(a, b), std::nextafter(a, b),
            std::fabs(a) > std::fabs(b) ? a : std::fabs(b) > std::fabs(a) ? b : std::fmax(a, b),
            std::fabs(a) < std::fabs(b) ? a : std::fabs(b) < std::fabs(a) ? b : std::fmin(a, b),
            static_cast<float>(std::atan2(double(a), double(b)) / 3.14159265358979323846)};
        const int ulps[binary_count] = {6, 16, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 6};
        for (int f = 0; f < binary_count; ++f) {
            CAPTURE(f);
            CAPTURE(a);
            CAPTURE(b);
            CHECK(ulp_distance(o[f * pairs + i], want[f]) <= ulps[f]);
        }
    }
    const float* tail = o + binary_count * pairs;
    CHECK(tail[0] == 0.75f);
    CHECK(tail[1] == -3.f);
    CHECK(tail[2] == -0.25f);
    CHECK(tail[3] == -2.f);
    CHECK(ulp_distance(tail[4], std::sin(0.5f)) <= 4);
    CHECK(ulp_distance(tail[5], std::cos(0.5f)) <= 4);
    CHECK(tail[6] == 0.75f);
    CHECK(n[0] == 6);
    CHECK(tail[7] == 1.f);
    CHECK((n[1] & 7) == 3);
    CHECK(ulp_distance(tail[8], static_cast<float>(std::lgamma(-2.5))) <= 16);
    CHECK(n[2] == -1); // Gamma(-2.5) < 0
    CHECK(tail[9] == 48.f);
    CHECK(n[3] == 5);
    CHECK(tail[10] == 0.125f);
    CHECK(ulp_distance(tail[11], -3.f) <= 16);
    CHECK(tail[12] == 10.f);
    CHECK(tail[13] == 10.f);
    CHECK(std::isnan(tail[14]));
    CHECK(std::fabs(tail[15] - std::sin(0.5f)) < 1e-5f);
    CHECK(std::fabs(tail[16] - std::exp(1.f)) < 1e-5f);
    CHECK(std::fabs(tail[17] - 0.25f) < 1e-6f);
    CHECK(std::fabs(tail[18] - 1.f / 3.f) < 1e-6f);
    CHECK(std::fabs(tail[19] - std::sqrt(2.f)) < 1e-3f);
    CHECK(tail[20] == 0.25f);
    const double want_d[7] = {std::sqrt(2.0), std::exp(1.0), std::sin(1.0), std::pow(1.5, 2.5), std::log(10.0), 0.5, 3.0};
    for (int k = 0; k < 7; ++k) {
        CAPTURE(k);
        CHECK(std::fabs(d[k] - want_d[k]) <= 4 * std::numeric_limits<double>::epsilon() * std::fabs(want_d[k]));
    }
}

TEST_CASE("integer functions: exactly as plain C++ computes them, at the edges of each type") {
    sycl::queue q;
    constexpr int count = 6;
    const std::int32_t values[count] = {0, 1, -1, INT32_MIN, INT32_MAX, 0x12345678};
    usm_array<std::int32_t> in(q, count);
    usm_array<std::int64_t> out(q, 16 * count * count);
    for (int i = 0; i < count; ++i)
        in.data[i] = values[i];
    const std::int32_t* x = in.data;
    std::int64_t* o = out.data;
    q.single_task([=] {
         for (int i = 0; i < count; ++i)
             for (int j = 0; j < count; ++j) {
                 const std::int32_t a = x[i], b = x[j];
                 std::int64_t* r = o + 16 * (i * count + j);
                 r[0] = sycl::clz(a);
                 r[1] = sycl::ctz(a);
                 r[2] = sycl::popcount(a);
                 r[3] = sycl::abs(a);
                 r[4] = sycl::abs_diff(a, b);
                 r[5] = sycl::add_sat(a, b);
                 r[6] = sycl::sub_sat(a, b);
                 r[7] = sycl::hadd(a, b);
                 r[8] = sycl::rhadd(a, b);
                 r[9] = sycl::mul_hi(a, b);
                 r[10] = sycl::rotate(a, b);
                 r[11] = sycl::mad_sat(a, b, a);
                 r[12] = sycl::max(a, b);
                 r[13] = sycl::clamp(a, -5, 5);
                 r[14] = sycl::upsample(static_cast<std::int16_t>(a), static_cast<std::uint16_t>(b));
                 const sycl::int2 pair = sycl::popcount(sycl::int2{a, b});
                 r[15] = pair[0] + pair[1];
             }
     }).wait();
    for (int i = 0; i < count; ++i)
        for (int j = 0; j < count; ++j) {
            const std::int32_t a = values[i], b = values[j];
            const auto ua = static_cast<std::uint32_t>(a);
            const std::int64_t wide = static_cast<std::int64_t>(a) + b, narrow = static_cast<std::int64_t>(a) - b;
            const std::int64_t product = static_cast<std::int64_t>(a) * b + a;
            const std::int64_t want[16] = {
                std::countl_zero(ua),
                ua == 0 ? 32 : std::countr_zero(ua),
                std::popcount(ua),
                a < 0 ? static_cast<std::int64_t>(0) - a : a,
                a > b ? static_cast<std::int64_t>(a) - b : static_cast<std::int64_t>(b) - a,
                wide > INT32_MAX ? INT32_MAX : wide < INT32_MIN ? INT32_MIN : wide,
                narrow > INT32_MAX ? INT32_MAX : narrow < INT32_MIN ? INT32_MIN : narrow,
                (static_cast<std::int64_t>(a) + b) >> 1,
                (static_cast<std::int64_t>(a) + b + 1) >> 1,
                (static_cast<std::int64_t>(a) * b) >> 32,
                static_cast<std::int32_t>(std::rotl(ua, static_cast<int>(static_cast<std::uint32_t>(b) % 32))),
                product > INT32_MAX ? INT32_MAX : product < INT32_MIN ? INT32_MIN : product,
                a > b ? a : b,
                a < -5 ? -5 : a > 5 ? 5 : a,
                static_cast<std::int32_t>((static_cast<std::uint32_t>(static_cast<std::uint16_t>(a)) << 16) |
                                          static_cast<std::uint16_t>(b)),
                std::popcount(ua) + std::popcount(static_cast<std::uint32_t>(b))};
            // abs answers in the unsigned type: INT32_MIN's is 2^31.
            const std::int64_t* got = o + 16 * (i * count + j);
            for (int k = 0; k < 16; ++k) {
                CAPTURE(k);
                CAPTURE(a);
                CAPTURE(b);
                CHECK(got[k] == want[k]);
            }
        }
}

TEST_CASE("common, geometric and relational functions") {
    sycl::queue q;
    usm_array<float> out(q, 64);
    usm_array<std::int32_t> rel(q, 32);
    float* o = out.data;
    std::int32_t* r = rel.data;
    q.single_task([=] {
         const sycl::float3 a{1.f, 2.f, 2.f}, b{0.f, 1.f, 0.f};
         o[0] = sycl::dot(a, b);
         const sycl::float3 c = sycl::cross(a, b);
         o[1] = c[0], o[2] = c[1], o[3] = c[2];
         o[4] = sycl::length(a);
         o[5] = sycl::distance(a, b);
         const sycl::float3 n = sycl::normalize(a);
         o[6] = n[0], o[7] = n[1], o[8] = n[2];
         o[9] = sycl::fast_length(a);
         o[10] = sycl::clamp(7.f, 0.f, 5.f);
         o[11] = sycl::mix(2.f, 4.f, 0.25f);
         o[12] = sycl::step(0.5f, 0.25f);
         o[13] = sycl::smoothstep(0.f, 1.f, 0.5f);
         o[14] = sycl::max(sycl::float2{1.f, 5.f}, 3.f)[0];
         o[15] = sycl::min(sycl::float2{1.f, 5.f}, 3.f)[1];
         o[16] = sycl::length(sycl::float2{3e30f, 4e30f}); // no overflow in the squares
         const float nan = sycl::nan(0u);
         const sycl::int4 checks = sycl::isnan(sycl::float4{nan, 1.f, 1.f / 0.f, -0.f});
         for (int k = 0; k < 4; ++k)
             r[k] = checks[k];
         r[4] = sycl::isnan(nan);
         r[5] = sycl::isinf(-1.f / 0.f);
         r[6] = sycl::isfinite(1.f);
         r[7] = sycl::isnormal(1e-40f);
         r[8] = sycl::signbit(-0.f);
         r[9] = sycl::isequal(nan, nan);
         r[10] = sycl::isnotequal(nan, nan);
         r[11] = sycl::isunordered(nan, 1.f);
         r[12] = sycl::islessgreater(1.f, 2.f);
         r[13] = sycl::any(sycl::int4{0, 1, -1, 2});
         r[14] = sycl::all(sycl::int4{-1, -2, 0, -4});
         const sycl::int4 picked = sycl::select(sycl::int4{1, 2, 3, 4}, sycl::int4{5, 6, 7, 8}, sycl::int4{-1, 0, INT_MIN, 1});
         for (int k = 0; k < 4; ++k)
             r[15 + k] = picked[k];
         r[19] = sycl::bitselect(0x0f0f, 0x7070, 0x00ff);
         const sycl::int2 greater = sycl::isgreater(sycl::float2{2.f, 0.f}, sycl::float2{1.f, 1.f});
         r[20] = greater[0], r[21] = greater[1];
     }).wait();
    CHECK(o[0] == 2.f);
    CHECK(o[1] == -2.f);
    CHECK(o[2] == 0.f);
    CHECK(o[3] == 1.f);
    CHECK(o[4] == 3.f);
    CHECK(ulp_distance(o[5], std::sqrt(6.f)) <= 2);
    CHECK(ulp_distance(o[6], 1.f / 3.f) <= 2);
    CHECK(ulp_distance(o[7], 2.f / 3.f) <= 2);
    CHECK(std::fabs(o[9] - 3.f) < 1e-5f);
    CHECK(o[10] == 5.f);
    CHECK(o[11] == 2.5f);
    CHECK(o[12] == 0.f);
    CHECK(o[13] == 0.5f);
    CHECK(o[14] == 3.f);
    CHECK(o[15] == 3.f);
    CHECK(ulp_distance(o[16], 5e30f) <= 2);
    const std::int32_t want[22] = {-1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 5, 2, 7, 4, (0x0f0f & ~0x00ff) | (0x7070 & 0x00ff), -1, 0};
    for (int k = 0; k < 22; ++k) {
        CAPTURE(k);
        CHECK(r[k] == want[k]);
    }
}

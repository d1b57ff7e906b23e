// SYCL 2020 built-in functions (section 4.17): math (with native:: and half_precision::), integer, common,
// geometric and relational functions, on scalars and on vec (and swizzles), on the host and in device code.
//
// Every function is one template that takes a scalar or a vec-like of the types its group names, and applies the
// element function element by element (a scalar argument beside a vec stands for every element where the
// specification allows it). The element functions are the host's <cmath> and <bit> on the host, CUDA's device
// math library in CUDA device code (`sqrtf`, `__clz`, ...) and OpenCL's built-ins in spir64 device code
// (sycl/detail/spir_builtins.hpp), so their precision is the platform's: within what the specification requires for
// each function (tests/conformance/math.cpp checks the ULPs on the host, on the GPU and on PoCL).
// native:: and half_precision:: functions use CUDA's fast intrinsics on the GPU (`__sinf`, `__expf`, ...), the
// full-precision function on the host and in spir64 device code.
//
//     sycl::float4 p = ...;
//     float r = sycl::length(p.xyz());
//     sycl::float4 q = sycl::clamp(sycl::sin(p) * 2.f, -1.f, 1.f);
//     int zeros = sycl::ctz(bits);
#pragma once

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "sycl/detail/host_device.hpp"
#if defined(ENCORE_DEVICE_SPIR)
#include "sycl/detail/spir_builtins.hpp"
#endif
#include "sycl/multi_ptr.hpp"
#include "sycl/vector.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

// half computes in float (its element functions are float's, rounded once to half).
template <typename T>
inline constexpr bool is_float_scalar = std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, half>;
template <typename T> inline constexpr bool is_int_scalar = std::is_integral_v<T> && !std::is_same_v<T, bool>;
// genfloat: a float or double, or a vec-like of them; geninteger likewise for integers.
template <typename T> inline constexpr bool genfloat = is_float_scalar<elem_t<T>>;
template <typename T> inline constexpr bool geninteger = is_int_scalar<elem_t<T>>;

// Arguments that go together: each a scalar or a vec-like of one element type, the vec-likes all of one size.
template <typename... Ts> constexpr bool same_shape() {
    constexpr int widths[] = {width_of<Ts>()...};
    int n = 1;
    for (int w : widths)
        if (w != 1) {
            if (n != 1 && n != w) return false;
            n = w;
        }
    return true;
}
// f(lanes..., k) for each element, as map, each int it sets in k stored through `out` (into an int for scalars, a
// vec of int for vecs): the functions that also answer an integer per element.
template <typename F, typename Out, typename... Ts>
ENCORE_HOST_DEVICE auto map_with_int(F f, Out* out, const Ts&... xs) {
    if constexpr (any_vec<Ts...>) {
        constexpr int n = shape_width<Ts...>();
        int k = 0;
        using R = decltype(f(lane(xs, 0)..., k));
        shaped_t<R, n, Ts...> results{};
        for (int i = 0; i < n; ++i) {
            results[i] = f(lane(xs, i)..., k);
            (*out)[i] = k;
        }
        return results;
    } else {
        int k = 0;
        const auto result = f(xs..., k);
        *out = k;
        return result;
    }
}

// The C library's function for T: `name##f` for float, `name` for double (CUDA's device math library has both;
// in spir64 device code OpenCL's built-in of that name; on the host <cmath>'s std:: overloads).
#if defined(__CUDA_ARCH__)
#define ENCORE_CMATH(name, T, ...)                                                                                   \
    [&]() -> T {                                                                                                     \
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half>)                                          \
            return static_cast<T>(::name##f(__VA_ARGS__));                                                           \
        else                                                                                                         \
            return ::name(__VA_ARGS__);                                                                              \
    }()
#elif defined(ENCORE_DEVICE_SPIR) // OpenCL's built-ins (sycl/detail/spir_builtins.hpp)
#define ENCORE_CMATH(name, T, ...) static_cast<T>(::sycl::detail::spir::name(__VA_ARGS__))
#else
#define ENCORE_CMATH(name, T, ...) static_cast<T>(std::name(__VA_ARGS__))
#endif

#if !defined(__CUDA_ARCH__)
// 10^x: glibc's exp10 (one rounding), not pow(10, x).
inline float exp10_of(float x) { return ::exp10f(x); }
inline double exp10_of(double x) { return ::exp10(x); }
#endif

template <typename T> inline constexpr T pi_v = static_cast<T>(3.14159265358979323846264338327950288L);

// sin(pi x) and cos(pi x) without the error of multiplying by pi first: x reduced exactly to [-1, 1], then to
// where the sine's argument stays small.
template <typename T> ENCORE_HOST_DEVICE T sinpi_of(T x) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, float>)
        return ::sinpif(x);
    else
        return ::sinpi(x);
#elif defined(ENCORE_DEVICE_SPIR)
    return spir::sinpi(x);
#else
    if (!std::isfinite(x)) return std::numeric_limits<T>::quiet_NaN();
    T r = std::fmod(x, T(2)); // exact
    if (r > 1) r -= 2;
    if (r < -1) r += 2;
    const T a = std::fabs(r);
    T s = a <= T(0.5) ? std::sin(pi_v<T> * a) : std::sin(pi_v<T> * (1 - a));
    if (a == 0 || a == 1) s = 0;
    return std::copysign(s, r);
#endif
}
template <typename T> ENCORE_HOST_DEVICE T cospi_of(T x) {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, float>)
        return ::cospif(x);
    else
        return ::cospi(x);
#elif defined(ENCORE_DEVICE_SPIR)
    return spir::cospi(x);
#else
    if (!std::isfinite(x)) return std::numeric_limits<T>::quiet_NaN();
    const T a = std::fabs(std::fmod(x, T(2))); // [0, 2)
    const T r = a > 1 ? 2 - a : a;               // cos(pi x) = cos(pi r), r in [0, 1]
    if (r == T(0.5)) return 0;
    return r < T(0.5) ? std::cos(pi_v<T> * r) : -std::cos(pi_v<T> * (1 - r));
#endif
}

} // namespace detail

// ---- Math functions (4.17.5) -------------------------------------------------------------------------------------

// One template per function: `expression` computes an element from `a` (and `b`), E being the element type. The
// arguments' elements must be of `kind` (detail::genfloat or detail::geninteger); the second argument may be a
// scalar beside a vec (not the first).
#define ENCORE_BUILTIN1(name, kind, expression)                                                                      \
    template <typename T>                                                                                            \
        requires kind<T>                                                                                             \
    ENCORE_HOST_DEVICE auto name(const T& x) {                                                                       \
        return detail::map(                                                                                          \
            [](auto a) {                                                                                             \
                using E = decltype(a);                                                                               \
                return expression;                                                                                   \
            },                                                                                                       \
            x);                                                                                                      \
    }
#define ENCORE_BUILTIN2(name, kind, expression)                                                                      \
    template <typename T1, typename T2>                                                                              \
        requires(kind<T1> && std::is_same_v<detail::elem_t<T1>, detail::elem_t<T2>> &&                              \
                 detail::same_shape<T1, T2>() && !(detail::is_vec_like<T2> && !detail::is_vec_like<T1>))             \
    ENCORE_HOST_DEVICE auto name(const T1& x, const T2& y) {                                                         \
        return detail::map(                                                                                          \
            [](auto a, auto b) {                                                                                     \
                using E = decltype(a);                                                                               \
                return expression;                                                                                   \
            },                                                                                                       \
            x, y);                                                                                                   \
    }
#define ENCORE_MATH1(name, expression) ENCORE_BUILTIN1(name, detail::genfloat, static_cast<E>(expression))
#define ENCORE_MATH2(name, expression) ENCORE_BUILTIN2(name, detail::genfloat, static_cast<E>(expression))
#define ENCORE_INT1(name, expression) ENCORE_BUILTIN1(name, detail::geninteger, expression)
#define ENCORE_INT2(name, expression) ENCORE_BUILTIN2(name, detail::geninteger, expression)

ENCORE_MATH1(acos, ENCORE_CMATH(acos, E, a))
ENCORE_MATH1(acosh, ENCORE_CMATH(acosh, E, a))
ENCORE_MATH1(acospi, ENCORE_CMATH(acos, E, a) / detail::pi_v<E>)
ENCORE_MATH1(asin, ENCORE_CMATH(asin, E, a))
ENCORE_MATH1(asinh, ENCORE_CMATH(asinh, E, a))
ENCORE_MATH1(asinpi, ENCORE_CMATH(asin, E, a) / detail::pi_v<E>)
ENCORE_MATH1(atan, ENCORE_CMATH(atan, E, a))
ENCORE_MATH2(atan2, ENCORE_CMATH(atan2, E, a, b))
ENCORE_MATH1(atanh, ENCORE_CMATH(atanh, E, a))
ENCORE_MATH1(atanpi, ENCORE_CMATH(atan, E, a) / detail::pi_v<E>)
ENCORE_MATH2(atan2pi, ENCORE_CMATH(atan2, E, a, b) / detail::pi_v<E>)
ENCORE_MATH1(cbrt, ENCORE_CMATH(cbrt, E, a))
ENCORE_MATH1(ceil, ENCORE_CMATH(ceil, E, a))
ENCORE_MATH2(copysign, ENCORE_CMATH(copysign, E, a, b))
ENCORE_MATH1(cos, ENCORE_CMATH(cos, E, a))
ENCORE_MATH1(cosh, ENCORE_CMATH(cosh, E, a))
ENCORE_MATH1(cospi, detail::cospi_of(a))
ENCORE_MATH1(erfc, ENCORE_CMATH(erfc, E, a))
ENCORE_MATH1(erf, ENCORE_CMATH(erf, E, a))
ENCORE_MATH1(exp, ENCORE_CMATH(exp, E, a))
ENCORE_MATH1(exp2, ENCORE_CMATH(exp2, E, a))
ENCORE_MATH1(expm1, ENCORE_CMATH(expm1, E, a))
ENCORE_MATH1(fabs, ENCORE_CMATH(fabs, E, a))
ENCORE_MATH2(fdim, ENCORE_CMATH(fdim, E, a, b))
ENCORE_MATH1(floor, ENCORE_CMATH(floor, E, a))
ENCORE_MATH2(fmod, ENCORE_CMATH(fmod, E, a, b))
ENCORE_MATH2(hypot, ENCORE_CMATH(hypot, E, a, b))
ENCORE_MATH1(lgamma, ENCORE_CMATH(lgamma, E, a))
ENCORE_MATH1(log, ENCORE_CMATH(log, E, a))
ENCORE_MATH1(log2, ENCORE_CMATH(log2, E, a))
ENCORE_MATH1(log10, ENCORE_CMATH(log10, E, a))
ENCORE_MATH1(log1p, ENCORE_CMATH(log1p, E, a))
ENCORE_MATH1(logb, ENCORE_CMATH(logb, E, a))
ENCORE_MATH2(nextafter, ENCORE_CMATH(nextafter, E, a, b))
ENCORE_MATH2(pow, ENCORE_CMATH(pow, E, a, b))
ENCORE_MATH2(powr, a < 0 ? std::numeric_limits<E>::quiet_NaN() : ENCORE_CMATH(pow, E, a, b))
ENCORE_MATH2(remainder, ENCORE_CMATH(remainder, E, a, b))
ENCORE_MATH1(rint, ENCORE_CMATH(rint, E, a))
ENCORE_MATH1(round, ENCORE_CMATH(round, E, a))
ENCORE_MATH1(sin, ENCORE_CMATH(sin, E, a))
ENCORE_MATH1(sinh, ENCORE_CMATH(sinh, E, a))
ENCORE_MATH1(sinpi, detail::sinpi_of(a))
ENCORE_MATH1(sqrt, ENCORE_CMATH(sqrt, E, a))
ENCORE_MATH1(tan, ENCORE_CMATH(tan, E, a))
ENCORE_MATH1(tanh, ENCORE_CMATH(tanh, E, a))
ENCORE_MATH1(tanpi, detail::sinpi_of(a) / detail::cospi_of(a))
ENCORE_MATH1(tgamma, ENCORE_CMATH(tgamma, E, a))
ENCORE_MATH1(trunc, ENCORE_CMATH(trunc, E, a))
#if defined(__CUDA_ARCH__) || defined(ENCORE_DEVICE_SPIR)
ENCORE_MATH1(exp10, ENCORE_CMATH(exp10, E, a))
ENCORE_MATH1(rsqrt, ENCORE_CMATH(rsqrt, E, a))
#else
ENCORE_MATH1(exp10, (detail::exp10_of(a)))
ENCORE_MATH1(rsqrt, E(1) / std::sqrt(a))
#endif
// fmax, fmin: the other when one is NaN.
ENCORE_MATH2(fmax, ENCORE_CMATH(fmax, E, a, b))
ENCORE_MATH2(fmin, ENCORE_CMATH(fmin, E, a, b))
ENCORE_MATH2(maxmag, ENCORE_CMATH(fabs, E, a) > ENCORE_CMATH(fabs, E, b)   ? a
                          : ENCORE_CMATH(fabs, E, b) > ENCORE_CMATH(fabs, E, a) ? b
                                                                               : ENCORE_CMATH(fmax, E, a, b))
ENCORE_MATH2(minmag, ENCORE_CMATH(fabs, E, a) < ENCORE_CMATH(fabs, E, b)   ? a
                          : ENCORE_CMATH(fabs, E, b) < ENCORE_CMATH(fabs, E, a) ? b
                                                                               : ENCORE_CMATH(fmin, E, a, b))

template <typename T>
    requires detail::genfloat<T>
ENCORE_HOST_DEVICE auto fma(const T& a, const T& b, const T& c) {
    return detail::map([](auto x, auto y, auto z) { return ENCORE_CMATH(fma, decltype(x), x, y, z); }, a, b, c);
}
// mad: a * b + c, which the specification lets trade accuracy for speed (a compiler may fuse it).
template <typename T>
    requires detail::genfloat<T>
ENCORE_HOST_DEVICE auto mad(const T& a, const T& b, const T& c) {
    return detail::map([](auto x, auto y, auto z) { return x * y + z; }, a, b, c);
}
// ilogb, ldexp, pown, rootn: with integer arguments (a vec of int beside a vec).
template <typename T>
    requires detail::genfloat<T>
ENCORE_HOST_DEVICE auto ilogb(const T& x) {
    return detail::map([](auto a) { return static_cast<int>(ENCORE_CMATH(ilogb, int, a)); }, x);
}
template <typename T, typename K>
    requires(detail::genfloat<T> && std::is_same_v<detail::elem_t<K>, int> && detail::same_shape<T, K>())
ENCORE_HOST_DEVICE auto ldexp(const T& x, const K& k) {
    return detail::map([](auto a, int e) { return ENCORE_CMATH(ldexp, decltype(a), a, e); }, x, k);
}
template <typename T, typename K>
    requires(detail::genfloat<T> && std::is_same_v<detail::elem_t<K>, int> && detail::same_shape<T, K>())
ENCORE_HOST_DEVICE auto pown(const T& x, const K& n) {
    return detail::map(
        [](auto a, int e) { return ENCORE_CMATH(pow, decltype(a), a, static_cast<decltype(a)>(e)); }, x, n);
}
template <typename T, typename K>
    requires(detail::genfloat<T> && std::is_same_v<detail::elem_t<K>, int> && detail::same_shape<T, K>())
ENCORE_HOST_DEVICE auto rootn(const T& x, const K& n) {
    return detail::map(
        [](auto a, int e) {
            using E = decltype(a);
            if (e == 0) return std::numeric_limits<E>::quiet_NaN();
            if (a < 0 && e % 2 == 0) return std::numeric_limits<E>::quiet_NaN();
            // In double for float arguments: one rounding at the end.
            using W = std::conditional_t<std::is_same_v<E, float>, double, E>;
            const W m = ENCORE_CMATH(pow, W, static_cast<W>(a < 0 ? -a : a), W(1) / static_cast<W>(e));
            return static_cast<E>(a < 0 ? -m : m);
        },
        x, n);
}
template <typename T>
    requires(std::is_unsigned_v<detail::elem_t<T>> && detail::is_int_scalar<detail::elem_t<T>>)
ENCORE_HOST_DEVICE auto nan(const T& code) {
    return detail::map(
        [](auto c) {
            using F = std::conditional_t<sizeof(c) == 8, double, float>;
            static_cast<void>(c);
            return std::numeric_limits<F>::quiet_NaN();
        },
        code);
}

// The functions that also answer through a pointer (a multi_ptr or a plain pointer to the same shape).
namespace detail {
template <typename P> ENCORE_HOST_DEVICE auto* raw_pointer(P p) {
    if constexpr (std::is_pointer_v<P>)
        return p;
    else
        return p.get_raw();
}
} // namespace detail
template <typename T, typename P>
    requires detail::genfloat<T>
ENCORE_HOST_DEVICE auto fract(const T& x, P iptr) {
    auto* out = detail::raw_pointer(iptr);
    const auto whole = floor(x);
    *out = whole;
    return detail::map(
        [](auto a, auto w) {
            using E = decltype(a);
            const E one_below = std::is_same_v<E, float> ? E(0x1.fffffep-1f) : E(0x1.fffffffffffffp-1);
            const E f = a - w;
            return f < one_below ? f : one_below; // NaN stays NaN (the comparison is false: f is returned)
        },
        x, whole);
}
template <typename T, typename P>
    requires detail::genfloat<T>
ENCORE_HOST_DEVICE auto modf(const T& x, P iptr) {
    auto* out = detail::raw_pointer(iptr);
    const auto whole = trunc(x);
    *out = whole;
    return detail::map(
        [](auto a, auto w) {
            using E = decltype(a);
            return std::isinf(a) ? ENCORE_CMATH(copysign, E, E(0), a) : ENCORE_CMATH(copysign, E, a - w, a);
        },
        x, whole);
}
template <typename T, typename P>
    requires detail::genfloat<T>
ENCORE_HOST_DEVICE auto sincos(const T& x, P cosval) {
    *detail::raw_pointer(cosval) = cos(x);
    return sin(x);
}
template <typename T, typename P>
    requires detail::genfloat<T>
ENCORE_HOST_DEVICE auto frexp(const T& x, P exp) {
    return detail::map_with_int([](auto a, int& e) { return ENCORE_CMATH(frexp, decltype(a), a, &e); },
                                detail::raw_pointer(exp), x);
}
template <typename T, typename P>
    requires detail::genfloat<T>
ENCORE_HOST_DEVICE auto remquo(const T& x, const T& y, P quo) {
    return detail::map_with_int([](auto a, auto b, int& q) { return ENCORE_CMATH(remquo, decltype(a), a, b, &q); },
                                detail::raw_pointer(quo), x, y);
}
// lgamma, and the sign of Gamma: +1 for positive and NaN arguments and at the poles but -0, else the sign of
// sin(pi x) (Gamma(x) Gamma(1 - x) = pi / sin(pi x), and Gamma(1 - x) > 0 for x < 0).
template <typename T, typename P>
    requires detail::genfloat<T>
ENCORE_HOST_DEVICE auto lgamma_r(const T& x, P signp) {
    return detail::map_with_int(
        [](auto a, int& sign) {
            using E = decltype(a);
            if (a > 0 || std::isnan(a))
                sign = 1;
            else if (a == ENCORE_CMATH(floor, E, a))
                sign = a == 0 && std::signbit(a) ? -1 : 1; // poles
            else
                sign = detail::sinpi_of(a) < E(0) ? -1 : 1;
            return ENCORE_CMATH(lgamma, E, a);
        },
        detail::raw_pointer(signp), x);
}

// native:: (and half_precision::): the GPU's fast approximations; the full-precision functions on the host.
namespace native {
#if defined(__CUDA_ARCH__)
#define ENCORE_FAST1(name, fast_float, expression)                                                                   \
    template <typename T>                                                                                            \
        requires detail::genfloat<T>                                                                                 \
    ENCORE_HOST_DEVICE auto name(const T& x) {                                                                       \
        return detail::map(                                                                                          \
            [](auto a) {                                                                                             \
                using E = decltype(a);                                                                               \
                if constexpr (std::is_same_v<E, float>)                                                              \
                    return fast_float(a);                                                                            \
                else                                                                                                 \
                    return static_cast<E>(expression);                                                               \
            },                                                                                                       \
            x);                                                                                                      \
    }
#else
#define ENCORE_FAST1(name, fast_float, expression)                                                                   \
    template <typename T>                                                                                            \
        requires detail::genfloat<T>                                                                                 \
    ENCORE_HOST_DEVICE auto name(const T& x) {                                                                       \
        return detail::map(                                                                                          \
            [](auto a) {                                                                                             \
                using E = decltype(a);                                                                               \
                return static_cast<E>(expression);                                                                   \
            },                                                                                                       \
            x);                                                                                                      \
    }
#endif
ENCORE_FAST1(cos, __cosf, sycl::cos(a))
ENCORE_FAST1(exp, __expf, sycl::exp(a))
ENCORE_FAST1(exp2, exp2f, sycl::exp2(a))
ENCORE_FAST1(exp10, __exp10f, sycl::exp10(a))
ENCORE_FAST1(log, __logf, sycl::log(a))
ENCORE_FAST1(log2, __log2f, sycl::log2(a))
ENCORE_FAST1(log10, __log10f, sycl::log10(a))
ENCORE_FAST1(recip, __frcp_rn, E(1) / a)
ENCORE_FAST1(rsqrt, rsqrtf, sycl::rsqrt(a))
ENCORE_FAST1(sin, __sinf, sycl::sin(a))
ENCORE_FAST1(sqrt, __fsqrt_rn, sycl::sqrt(a))
ENCORE_FAST1(tan, __tanf, sycl::tan(a))
#undef ENCORE_FAST1
template <typename T1, typename T2>
    requires(detail::genfloat<T1> && std::is_same_v<T1, T2>)
ENCORE_HOST_DEVICE auto divide(const T1& x, const T2& y) {
    return detail::map([](auto a, auto b) { return a / b; }, x, y);
}
template <typename T1, typename T2>
    requires(detail::genfloat<T1> && std::is_same_v<T1, T2>)
ENCORE_HOST_DEVICE auto powr(const T1& x, const T2& y) {
    return sycl::powr(x, y);
}
} // namespace native
namespace half_precision {
using native::cos, native::divide, native::exp, native::exp2, native::exp10, native::log, native::log2,
    native::log10, native::powr, native::recip, native::rsqrt, native::sin, native::sqrt, native::tan;
} // namespace half_precision

// ---- Integer functions (4.17.6) ----------------------------------------------------------------------------------

namespace detail {
template <typename T> using unsigned_of = std::make_unsigned_t<T>;
template <typename T> ENCORE_HOST_DEVICE int count_leading_zeros(T x) {
    using U = unsigned_of<T>;
    const U u = static_cast<U>(x);
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(U) == 8)
        return __clzll(static_cast<long long>(u));
    else
        return __clz(static_cast<int>(u)) - static_cast<int>(32 - 8 * sizeof(U));
#else
    return std::countl_zero(u);
#endif
}
template <typename T> ENCORE_HOST_DEVICE int count_trailing_zeros(T x) {
    using U = unsigned_of<T>;
    const U u = static_cast<U>(x);
    if (u == 0) return static_cast<int>(8 * sizeof(U));
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(U) == 8)
        return __ffsll(static_cast<long long>(u)) - 1;
    else
        return __ffs(static_cast<int>(u)) - 1;
#else
    return std::countr_zero(u);
#endif
}
template <typename T> ENCORE_HOST_DEVICE int count_ones(T x) {
    using U = unsigned_of<T>;
    const U u = static_cast<U>(x);
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(U) == 8)
        return __popcll(static_cast<unsigned long long>(u));
    else
        return __popc(static_cast<unsigned>(u));
#else
    return std::popcount(u);
#endif
}
// The high half of x * y.
template <typename T> ENCORE_HOST_DEVICE T high_product(T x, T y) {
    if constexpr (sizeof(T) < 8) {
        using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
        return static_cast<T>((static_cast<W>(x) * static_cast<W>(y)) >> (8 * sizeof(T)));
    } else {
#if defined(__CUDA_ARCH__)
        if constexpr (std::is_signed_v<T>)
            return static_cast<T>(__mul64hi(static_cast<long long>(x), static_cast<long long>(y)));
        else
            return static_cast<T>(__umul64hi(static_cast<unsigned long long>(x), static_cast<unsigned long long>(y)));
#elif defined(ENCORE_DEVICE_SPIR)
        if constexpr (std::is_signed_v<T>)
            return static_cast<T>(spir::mul_hi(static_cast<long>(x), static_cast<long>(y)));
        else
            return static_cast<T>(spir::mul_hi(static_cast<unsigned long>(x), static_cast<unsigned long>(y)));
#else
        __extension__ using wide_signed = __int128; // GCC's and Clang's 128-bit integers
        __extension__ using wide_unsigned = unsigned __int128;
        using W = std::conditional_t<std::is_signed_v<T>, wide_signed, wide_unsigned>;
        return static_cast<T>((static_cast<W>(x) * static_cast<W>(y)) >> 64);
#endif
    }
}
// Saturating add and subtract, the overflow found from the operands' and the wrapped result's signs (nvcc's device
// code has no working __builtin_add_overflow).
template <typename T> ENCORE_HOST_DEVICE T saturate_add(T x, T y) {
    using U = unsigned_of<T>;
    const T r = static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
    if constexpr (std::is_signed_v<T>) {
        if (((x ^ r) & (y ^ r)) < 0) return x < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    } else {
        if (r < x) return std::numeric_limits<T>::max();
    }
    return r;
}
template <typename T> ENCORE_HOST_DEVICE T saturate_sub(T x, T y) {
    using U = unsigned_of<T>;
    const T r = static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
    if constexpr (std::is_signed_v<T>) {
        if (((x ^ y) & (x ^ r)) < 0) return x < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    } else {
        if (x < y) return T(0);
    }
    return r;
}
} // namespace detail

// abs and abs_diff answer in the unsigned type of the argument's size.
ENCORE_INT1(abs, static_cast<detail::unsigned_of<E>>(a < 0 ? detail::unsigned_of<E>(0) - detail::unsigned_of<E>(a)
                                                           : detail::unsigned_of<E>(a)))
ENCORE_INT2(abs_diff, static_cast<detail::unsigned_of<E>>(a > b ? detail::unsigned_of<E>(a) - detail::unsigned_of<E>(b)
                                                                : detail::unsigned_of<E>(b) - detail::unsigned_of<E>(a)))
ENCORE_INT2(add_sat, detail::saturate_add<E>(a, b))
ENCORE_INT2(sub_sat, detail::saturate_sub<E>(a, b))
ENCORE_INT2(hadd, static_cast<E>((a >> 1) + (b >> 1) + (a & b & 1)))
ENCORE_INT2(rhadd, static_cast<E>((a >> 1) + (b >> 1) + ((a | b) & 1)))
ENCORE_INT2(mul_hi, detail::high_product<E>(a, b))
ENCORE_INT1(clz, static_cast<E>(detail::count_leading_zeros(a)))
ENCORE_INT1(ctz, static_cast<E>(detail::count_trailing_zeros(a)))
ENCORE_INT1(popcount, static_cast<E>(detail::count_ones(a)))
ENCORE_INT2(rotate, [&] {
    using U = detail::unsigned_of<E>;
    constexpr unsigned bits = 8 * sizeof(E);
    const unsigned k = static_cast<unsigned>(static_cast<U>(b) % bits);
    const U u = static_cast<U>(a);
    return static_cast<E>(k == 0 ? u : static_cast<U>((u << k) | (u >> (bits - k))));
}())

template <typename T>
    requires detail::geninteger<T>
ENCORE_HOST_DEVICE auto mad_hi(const T& a, const T& b, const T& c) {
    return mul_hi(a, b) + c;
}
// a * b + c computed exactly (in a type twice as wide), then saturated.
template <typename T>
    requires detail::geninteger<T>
ENCORE_HOST_DEVICE auto mad_sat(const T& a, const T& b, const T& c) {
    return detail::map(
        [](auto x, auto y, auto z) {
            using E = decltype(x);
            __extension__ using wide_signed = __int128; // GCC's, Clang's and nvcc's 128-bit integers
            __extension__ using wide_unsigned = unsigned __int128;
            using W = std::conditional_t<sizeof(E) < 8, std::conditional_t<std::is_signed_v<E>, std::int64_t, std::uint64_t>,
                                         std::conditional_t<std::is_signed_v<E>, wide_signed, wide_unsigned>>;
            const W exact = static_cast<W>(x) * static_cast<W>(y) + static_cast<W>(z);
            if (exact > static_cast<W>(std::numeric_limits<E>::max())) return std::numeric_limits<E>::max();
            if (exact < static_cast<W>(std::numeric_limits<E>::min())) return std::numeric_limits<E>::min();
            return static_cast<E>(exact);
        },
        a, b, c);
}
template <typename T>
    requires(detail::geninteger<T> && sizeof(detail::elem_t<T>) == 4)
ENCORE_HOST_DEVICE auto mul24(const T& a, const T& b) {
    return detail::map([](auto x, auto y) { return static_cast<decltype(x)>(x * y); }, a, b);
}
template <typename T>
    requires(detail::geninteger<T> && sizeof(detail::elem_t<T>) == 4)
ENCORE_HOST_DEVICE auto mad24(const T& a, const T& b, const T& c) {
    return detail::map([](auto x, auto y, auto z) { return static_cast<decltype(x)>(x * y + z); }, a, b, c);
}
// upsample(hi, lo): hi in the high half of the type twice as wide, lo (unsigned) in the low half.
template <typename H, typename L>
    requires(detail::geninteger<H> && detail::geninteger<L> && std::is_unsigned_v<detail::elem_t<L>> &&
             sizeof(detail::elem_t<H>) == sizeof(detail::elem_t<L>) && sizeof(detail::elem_t<H>) <= 4 &&
             detail::width_of<H>() == detail::width_of<L>())
ENCORE_HOST_DEVICE auto upsample(const H& hi, const L& lo) {
    return detail::map(
        [](auto h, auto l) {
            using E = decltype(h);
            using W = std::conditional_t<
                sizeof(E) == 1, std::conditional_t<std::is_signed_v<E>, std::int16_t, std::uint16_t>,
                std::conditional_t<sizeof(E) == 2, std::conditional_t<std::is_signed_v<E>, std::int32_t, std::uint32_t>,
                                   std::conditional_t<std::is_signed_v<E>, std::int64_t, std::uint64_t>>>;
            using UW = std::make_unsigned_t<W>;
            return static_cast<W>((static_cast<UW>(static_cast<W>(h)) << (8 * sizeof(E))) | static_cast<UW>(l));
        },
        hi, lo);
}

// ---- Common functions (4.17.7) and the integer max, min, clamp ----------------------------------------------------

namespace detail {
template <typename T1, typename T2> constexpr bool common_pair() {
    return (genfloat<T1> || geninteger<T1>) && std::is_same_v<elem_t<T1>, elem_t<T2>> && same_shape<T1, T2>() &&
           !(is_vec_like<T2> && !is_vec_like<T1>);
}
template <typename E> ENCORE_HOST_DEVICE E larger(E a, E b) {
    if constexpr (std::is_floating_point_v<E>)
        return ENCORE_CMATH(fmax, E, a, b);
    else
        return a < b ? b : a;
}
template <typename E> ENCORE_HOST_DEVICE E smaller(E a, E b) {
    if constexpr (std::is_floating_point_v<E>)
        return ENCORE_CMATH(fmin, E, a, b);
    else
        return b < a ? b : a;
}
} // namespace detail

template <typename T1, typename T2>
    requires(detail::common_pair<T1, T2>())
ENCORE_HOST_DEVICE auto max(const T1& x, const T2& y) {
    return detail::map([](auto a, auto b) { return detail::larger(a, b); }, x, y);
}
template <typename T1, typename T2>
    requires(detail::common_pair<T1, T2>())
ENCORE_HOST_DEVICE auto min(const T1& x, const T2& y) {
    return detail::map([](auto a, auto b) { return detail::smaller(a, b); }, x, y);
}
template <typename T1, typename T2, typename T3>
    requires(detail::common_pair<T1, T2>() && std::is_same_v<T2, T3>)
ENCORE_HOST_DEVICE auto clamp(const T1& x, const T2& lo, const T3& hi) {
    return detail::map([](auto a, auto l, auto h) { return detail::smaller(detail::larger(a, l), h); }, x, lo, hi);
}
ENCORE_MATH1(degrees, a * (E(180) / detail::pi_v<E>))
ENCORE_MATH1(radians, a * (detail::pi_v<E> / E(180)))
ENCORE_MATH1(sign, std::isnan(a) ? E(0) : a > 0 ? E(1) : a < 0 ? E(-1) : a)
template <typename T1, typename T2>
    requires(detail::genfloat<T1> && detail::common_pair<T1, T2>())
ENCORE_HOST_DEVICE auto mix(const T1& x, const T1& y, const T2& a) {
    return detail::map([](auto p, auto q, auto t) { return p + (q - p) * t; }, x, y, a);
}
template <typename T1, typename T2>
    requires(detail::genfloat<T2> && std::is_same_v<detail::elem_t<T1>, detail::elem_t<T2>> &&
             detail::same_shape<T1, T2>())
ENCORE_HOST_DEVICE auto step(const T1& edge, const T2& x) {
    return detail::map([](auto e, auto a) { return a < e ? decltype(a)(0) : decltype(a)(1); }, edge, x);
}
template <typename T1, typename T2>
    requires(detail::genfloat<T2> && std::is_same_v<detail::elem_t<T1>, detail::elem_t<T2>> &&
             detail::same_shape<T1, T2>())
ENCORE_HOST_DEVICE auto smoothstep(const T1& edge0, const T1& edge1, const T2& x) {
    return detail::map(
        [](auto e0, auto e1, auto a) {
            using E = decltype(a);
            E t = (a - e0) / (e1 - e0);
            t = t < 0 ? E(0) : t > 1 ? E(1) : t;
            return t * t * (E(3) - E(2) * t);
        },
        edge0, edge1, x);
}

// ---- Geometric functions (4.17.8) ---------------------------------------------------------------------------------

template <typename T>
    requires(detail::genfloat<T> && detail::width_of<T>() <= 4)
ENCORE_HOST_DEVICE auto dot(const T& a, const T& b) {
    if constexpr (detail::is_vec_like<T>) {
        detail::elem_t<T> sum = 0; // multiply-adds a compiler may fuse (a libm fma call per element is slow on a CPU)
        for (int i = 0; i < detail::width_of<T>(); ++i)
            sum += a[i] * b[i];
        return sum;
    } else {
        return a * b;
    }
}
template <typename T>
    requires(detail::genfloat<T> && (detail::width_of<T>() == 3 || detail::width_of<T>() == 4))
ENCORE_HOST_DEVICE auto cross(const T& a, const T& b) {
    vec<detail::elem_t<T>, detail::width_of<T>()> out{};
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
    return out;
}
template <typename T>
    requires(detail::genfloat<T> && detail::width_of<T>() <= 4)
ENCORE_HOST_DEVICE auto length(const T& p) {
    if constexpr (detail::is_vec_like<T>) {
        using E = detail::elem_t<T>;
        const E squares = dot(p, p);
        if (squares == 0 || (std::isfinite(squares) && squares >= std::numeric_limits<E>::min()))
            return ENCORE_CMATH(sqrt, E, squares);
        // The squares overflowed or fell below the normal range: scale by the largest magnitude first.
        E largest = 0;
        for (int i = 0; i < detail::width_of<T>(); ++i)
            largest = ENCORE_CMATH(fmax, E, largest, ENCORE_CMATH(fabs, E, p[i]));
        if (largest == 0 || !std::isfinite(largest)) return largest; // NaN, infinity, or all zero
        const vec<E, detail::width_of<T>()> scaled = vec<E, detail::width_of<T>()>(p) / largest;
        return largest * ENCORE_CMATH(sqrt, E, dot(scaled, scaled));
    } else {
        return ENCORE_CMATH(fabs, T, p);
    }
}
template <typename T>
    requires(detail::genfloat<T> && detail::width_of<T>() <= 4)
ENCORE_HOST_DEVICE auto distance(const T& p0, const T& p1) {
    return length(vec<detail::elem_t<T>, detail::width_of<T>()>(p0) - p1);
}
template <typename T>
    requires(detail::genfloat<T> && detail::width_of<T>() <= 4)
ENCORE_HOST_DEVICE auto normalize(const T& p) {
    const auto l = length(p);
    if constexpr (detail::is_vec_like<T>) {
        using V = vec<detail::elem_t<T>, detail::width_of<T>()>;
        return l == 0 ? V(p) : V(p) / l;
    } else {
        return l == 0 ? p : p / l;
    }
}
template <typename T>
    requires(std::is_same_v<detail::elem_t<T>, float> && detail::width_of<T>() <= 4)
ENCORE_HOST_DEVICE auto fast_length(const T& p) {
    return native::sqrt(dot(p, p));
}
template <typename T>
    requires(std::is_same_v<detail::elem_t<T>, float> && detail::width_of<T>() <= 4)
ENCORE_HOST_DEVICE auto fast_distance(const T& p0, const T& p1) {
    return fast_length(vec<float, detail::width_of<T>()>(p0) - p1);
}
template <typename T>
    requires(std::is_same_v<detail::elem_t<T>, float> && detail::width_of<T>() <= 4)
ENCORE_HOST_DEVICE auto fast_normalize(const T& p) {
    const float d = dot(p, p);
    if constexpr (detail::is_vec_like<T>)
        return d == 0 ? vec<float, detail::width_of<T>()>(p) : p * native::rsqrt(d);
    else
        return d == 0 ? p : p * native::rsqrt(d);
}

// ---- Relational functions (4.17.9) --------------------------------------------------------------------------------
// On scalars a bool; on vecs a vec of the element's size in signed integers, -1 where true, 0 where false; on
// marrays a marray of bool.

namespace detail {
template <typename T, typename F> ENCORE_HOST_DEVICE auto relational(F f, const T& x) {
    if constexpr (is_vec_like<T>)
        return map([f](auto a) { return truth<decltype(a), T>(f(a)); }, x);
    else
        return static_cast<bool>(f(x));
}
template <typename T1, typename T2, typename F> ENCORE_HOST_DEVICE auto relational(F f, const T1& x, const T2& y) {
    if constexpr (is_vec_like<T1>)
        return map([f](auto a, auto b) { return truth<decltype(a), T1>(f(a, b)); }, x, y);
    else
        return static_cast<bool>(f(x, y));
}
} // namespace detail

#define ENCORE_RELATIONAL2(name, expression)                                                                         \
    template <typename T>                                                                                            \
        requires detail::genfloat<T>                                                                                 \
    ENCORE_HOST_DEVICE auto name(const T& x, const T& y) {                                                           \
        return detail::relational([](auto a, auto b) { return expression; }, x, y);                                  \
    }
#define ENCORE_RELATIONAL1(name, expression)                                                                         \
    template <typename T>                                                                                            \
        requires detail::genfloat<T>                                                                                 \
    ENCORE_HOST_DEVICE auto name(const T& x) {                                                                       \
        return detail::relational([](auto a) { return expression; }, x);                                             \
    }
ENCORE_RELATIONAL2(isequal, a == b)
ENCORE_RELATIONAL2(isnotequal, a != b)
ENCORE_RELATIONAL2(isgreater, a > b)
ENCORE_RELATIONAL2(isgreaterequal, a >= b)
ENCORE_RELATIONAL2(isless, a < b)
ENCORE_RELATIONAL2(islessequal, a <= b)
ENCORE_RELATIONAL2(islessgreater, a < b || a > b)
ENCORE_RELATIONAL2(isordered, a == a && b == b)
ENCORE_RELATIONAL2(isunordered, !(a == a && b == b))
ENCORE_RELATIONAL1(isfinite, std::isfinite(a))
ENCORE_RELATIONAL1(isinf, std::isinf(a))
ENCORE_RELATIONAL1(isnan, std::isnan(a))
ENCORE_RELATIONAL1(isnormal, std::isfinite(a) && (a < 0 ? -a : a) >= std::numeric_limits<decltype(a)>::min())
ENCORE_RELATIONAL1(signbit, std::signbit(a))
#undef ENCORE_RELATIONAL1
#undef ENCORE_RELATIONAL2

// any / all: whether the most significant bit of any / every element is set (a scalar: whether it is set).
template <typename T>
    requires(detail::geninteger<T> && std::is_signed_v<detail::elem_t<T>>)
ENCORE_HOST_DEVICE bool any(const T& x) {
    for (int i = 0; i < detail::width_of<T>(); ++i)
        if (detail::lane(x, i) < 0) return true;
    return false;
}
template <typename T>
    requires(detail::geninteger<T> && std::is_signed_v<detail::elem_t<T>>)
ENCORE_HOST_DEVICE bool all(const T& x) {
    for (int i = 0; i < detail::width_of<T>(); ++i)
        if (!(detail::lane(x, i) < 0)) return false;
    return true;
}
// On a marray of bool (what marray relations answer): whether any / every element is true; select picks b where
// c's element is true.
template <typename T>
    requires(detail::is_vec_like<T> && detail::vec_traits<T>::bool_relations && std::is_same_v<detail::elem_t<T>, bool>)
ENCORE_HOST_DEVICE bool any(const T& x) {
    for (int i = 0; i < detail::width_of<T>(); ++i)
        if (detail::lane(x, i)) return true;
    return false;
}
template <typename T>
    requires(detail::is_vec_like<T> && detail::vec_traits<T>::bool_relations && std::is_same_v<detail::elem_t<T>, bool>)
ENCORE_HOST_DEVICE bool all(const T& x) {
    for (int i = 0; i < detail::width_of<T>(); ++i)
        if (!detail::lane(x, i)) return false;
    return true;
}
template <typename T, typename C>
    requires(detail::is_vec_like<T> && detail::vec_traits<T>::bool_relations && detail::is_vec_like<C> &&
             std::is_same_v<detail::elem_t<C>, bool> && detail::width_of<T>() == detail::width_of<C>())
ENCORE_HOST_DEVICE auto select(const T& a, const T& b, const C& c) {
    return detail::map([](auto x, auto y, bool z) { return z ? y : x; }, a, b, c);
}
// Each bit from b where c's bit is set, else from a (floating-point types bit by bit).
template <typename T>
    requires(detail::genfloat<T> || detail::geninteger<T>)
ENCORE_HOST_DEVICE auto bitselect(const T& a, const T& b, const T& c) {
    return detail::map(
        [](auto x, auto y, auto z) {
            using E = decltype(x);
            using U = std::conditional_t<sizeof(E) == 8, std::uint64_t,
                                         std::conditional_t<sizeof(E) == 4, std::uint32_t,
                                                            std::conditional_t<sizeof(E) == 2, std::uint16_t, std::uint8_t>>>;
            U ux, uy, uz;
            __builtin_memcpy(&ux, &x, sizeof ux);
            __builtin_memcpy(&uy, &y, sizeof uy);
            __builtin_memcpy(&uz, &z, sizeof uz);
            const U r = static_cast<U>((ux & ~uz) | (uy & uz));
            E out;
            __builtin_memcpy(&out, &r, sizeof out);
            return out;
        },
        a, b, c);
}
// select(a, b, c): b where c is true (a scalar c) or where c's element has its most significant bit set (a vec c).
template <typename T, typename C>
    requires((detail::genfloat<T> || detail::geninteger<T>) && detail::width_of<T>() == detail::width_of<C>() &&
             (detail::geninteger<C> || std::is_same_v<C, bool>) &&
             (std::is_same_v<C, bool> || sizeof(detail::elem_t<C>) == sizeof(detail::elem_t<T>)))
ENCORE_HOST_DEVICE auto select(const T& a, const T& b, const C& c) {
    if constexpr (detail::is_vec_like<T>)
        return detail::map([](auto x, auto y, auto z) { return static_cast<std::make_signed_t<decltype(z)>>(z) < 0 ? y : x; }, a, b, c);
    else
        return c ? b : a;
}

#undef ENCORE_MATH1
#undef ENCORE_MATH2
#undef ENCORE_INT1
#undef ENCORE_INT2
#undef ENCORE_BUILTIN1
#undef ENCORE_BUILTIN2
#undef ENCORE_CMATH

} // namespace _V1
} // namespace sycl

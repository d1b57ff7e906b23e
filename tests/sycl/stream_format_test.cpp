// The floating-point formatter sycl::stream uses in device code (sycl::detail::format_floating in sycl/stream.hpp),
// run on the host and compared with printf: defaultfloat (%g), fixed (%f), scientific (%e) and hexfloat (%a), every
// precision from 0 to 15, with and without showpos, over values printf and it must agree on: zeros, infinities and
// NaN, powers of two and of ten, short decimals and their negatives, 2000 values of a few significant digits
// over the whole exponent range, and 2000 doubles of random bits.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <sycl/sycl.hpp>

namespace {

std::string portable(double v, sycl::stream_manipulator mode, int precision, bool showpos) {
    char text[400];
    const int n = sycl::detail::format_floating(text, v, mode, precision, showpos);
    return std::string(text, static_cast<std::size_t>(n));
}

std::string printf_of(double v, sycl::stream_manipulator mode, int precision, bool showpos) {
    char text[400];
    const char* format = mode == sycl::stream_manipulator::fixed        ? (showpos ? "%+.*f" : "%.*f")
                         : mode == sycl::stream_manipulator::scientific ? (showpos ? "%+.*e" : "%.*e")
                                                                        : (showpos ? "%+.*g" : "%.*g");
    if (mode == sycl::stream_manipulator::hexfloat)
        std::snprintf(text, sizeof text, showpos ? "%+a" : "%a", v);
    else
        std::snprintf(text, sizeof text, format, precision, v);
    return text;
}

std::vector<double> values() {
    std::vector<double> v{0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.25, 3.5, 2.5, 1.5, 9.5, 99.5, 1e-7, 6.02e23, 1234567.0,
                          123456.0, 0.0001, 0.00012, 12345.678, 9.999, 1.0 / 3, 2.0 / 3, 3.14159265358979,
                          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN(), 1e300, 1e-300, 5e-324, 1.7976931348623157e308};
    for (int e = -30; e <= 30; ++e) {
        v.push_back(std::ldexp(1.0, e));
        v.push_back(std::pow(10.0, e));
    }
    // A few significant digits at every scale: d.dd x 10^e.
    unsigned state = 12345;
    for (int i = 0; i < 2000; ++i) {
        state = state * 1103515245u + 12345u;
        const int digits = static_cast<int>((state >> 8) % 1000);
        const int e = static_cast<int>((state >> 18) % 61) - 30;
        const double value = digits * std::pow(10.0, e - 2);
        v.push_back((state >> 31) ? -value : value);
    }
    // And 2000 doubles of any bits (all 53 of their mantissa significant), from 1e-300 to 1e300.
    unsigned long long bits = 0x243f6a8885a308d3ull;
    for (int i = 0; i < 2000; ++i) {
        bits ^= bits << 13;
        bits ^= bits >> 7;
        bits ^= bits << 17;
        double x;
        const unsigned long long exponent = 1023 - 996 + (bits >> 11) % 1993; // 2^-996 .. 2^996
        const unsigned long long pattern = (bits & 0x800fffffffffffffull) | (exponent << 52);
        std::memcpy(&x, &pattern, sizeof x);
        v.push_back(x);
    }
    return v;
}

} // namespace

TEST_CASE("stream formatting: the device formatter prints floating-point values as printf does") {
    const auto all = values();
    int compared = 0, differing = 0;
    for (double v : all)
        for (auto mode : {sycl::stream_manipulator::defaultfloat, sycl::stream_manipulator::fixed,
                          sycl::stream_manipulator::scientific, sycl::stream_manipulator::hexfloat})
            for (int precision = 0; precision <= 15; ++precision)
                for (bool showpos : {false, true}) {
                    if (mode == sycl::stream_manipulator::hexfloat && precision > 0) continue;
                    if (std::isnan(v) && std::signbit(v)) continue; // printf's "-nan"
                    // %f of a huge value: printf prints every digit of the binary value, the formatter 17.
                    if (mode == sycl::stream_manipulator::fixed && std::fabs(v) >= 1e17) continue;
                    ++compared;
                    const std::string expected = printf_of(v, mode, precision, showpos);
                    const std::string got = portable(v, mode, precision, showpos);
                    if (got != expected) {
                        if (++differing <= 20)
                            MESSAGE("value " << v << " mode " << static_cast<int>(mode) << " precision "
                                             << precision << ": printf " << expected << ", formatter " << got);
                    }
                }
    MESSAGE(compared << " formats compared");
    CHECK(differing == 0);
}

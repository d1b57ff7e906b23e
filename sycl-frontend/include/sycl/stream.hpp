// sycl::stream (SYCL 2020 section 4.16): text a kernel writes to the program's standard output.
//
//     q.submit([&](sycl::handler& h) {
//         sycl::stream out(1024, 256, h);
//         h.parallel_for(sycl::range<1>{4}, [=](sycl::id<1> i) { out << "item " << i << sycl::endl; });
//     });
//
// How Encore writes it: each statement (`out << a << b << sycl::endl;`) formats into a buffer of its own and writes
// it out whole when the statement ends, so the statements of different work-items never interleave (one statement
// of more than `statement_capacity` bytes is written in pieces). On the host (native backend) a statement is one
// fwrite to stdout; on CUDA one device printf, which the driver hands to stdout when the host next waits for the
// GPU. Manipulators (sycl::hex, sycl::setprecision(3), sycl::setw(8), ...) last until the end of their statement:
// a statement starts in decimal, defaultfloat, precision 6, no width. `totalBufferSize` and `workItemBufferSize`
// are kept and answered by the queries; output is not cut at either size. A stream belongs to eager command
// groups: constructing one in a graph's command group throws errc::invalid (sycl_ext_oneapi_graph).
#pragma once

#include <cstddef>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "sycl/detail/host_device.hpp"
#include "sycl/half_type.hpp"
#include "sycl/item.hpp"
#include "sycl/nd_range.hpp"
#include "sycl/property_list.hpp"
#include "sycl/vector.hpp"

namespace sycl {
inline namespace _V1 {

class handler;

enum class stream_manipulator {
    dec,
    hex,
    oct,
    noshowbase,
    showbase,
    noshowpos,
    showpos,
    endl,
    flush,
    fixed,
    scientific,
    hexfloat,
    defaultfloat
};
inline constexpr stream_manipulator dec = stream_manipulator::dec;
inline constexpr stream_manipulator hex = stream_manipulator::hex;
inline constexpr stream_manipulator oct = stream_manipulator::oct;
inline constexpr stream_manipulator noshowbase = stream_manipulator::noshowbase;
inline constexpr stream_manipulator showbase = stream_manipulator::showbase;
inline constexpr stream_manipulator noshowpos = stream_manipulator::noshowpos;
inline constexpr stream_manipulator showpos = stream_manipulator::showpos;
inline constexpr stream_manipulator endl = stream_manipulator::endl;
inline constexpr stream_manipulator flush = stream_manipulator::flush;
inline constexpr stream_manipulator fixed = stream_manipulator::fixed;
inline constexpr stream_manipulator scientific = stream_manipulator::scientific;
inline constexpr stream_manipulator hexfloat = stream_manipulator::hexfloat;
inline constexpr stream_manipulator defaultfloat = stream_manipulator::defaultfloat;

namespace detail {
struct precision_manipulator {
    int precision;
};
struct width_manipulator {
    int width;
};
} // namespace detail
ENCORE_HOST_DEVICE inline detail::precision_manipulator setprecision(int precision) { return {precision}; }
ENCORE_HOST_DEVICE inline detail::width_manipulator setw(int width) { return {width}; }

class stream {
public:
    // Throws errc::invalid when a size is 0, the work-item size exceeds the total, or `cgh` is a graph's command
    // group.
    stream(std::size_t totalBufferSize, std::size_t workItemBufferSize, handler& cgh, const property_list& = {});

    ENCORE_HOST_DEVICE std::size_t size() const noexcept { return total_; }
    [[deprecated("use size()")]] std::size_t get_size() const { return total_; }
    std::size_t get_work_item_buffer_size() const { return item_; }
    [[deprecated("use get_work_item_buffer_size()")]] std::size_t get_max_statement_size() const { return item_; }
    std::size_t get_precision() const { return 6; }
    stream_manipulator get_stream_mode() const { return stream_manipulator::dec; }

    friend bool operator==(const stream& a, const stream& b) { return a.id_ == b.id_; }
    friend bool operator!=(const stream& a, const stream& b) { return !(a == b); }

private:
    std::size_t total_, item_;
    std::uint64_t id_; // the construction it comes from (copies compare equal)
};

namespace detail {

// One statement's text and format state; written out when the statement ends (its destructor), at endl and flush,
// and whenever its buffer fills.
class stream_statement {
public:
    static constexpr int statement_capacity = 256;

    ENCORE_HOST_DEVICE stream_statement() {}
    // A statement opened by its first value (operator<< below).
    template <typename T> ENCORE_HOST_DEVICE explicit stream_statement(const T& first);
    stream_statement(const stream_statement&) = delete;
    stream_statement& operator=(const stream_statement&) = delete;
    ENCORE_HOST_DEVICE ~stream_statement() { write_out(); }

    ENCORE_HOST_DEVICE void put(char c) {
        if (used_ == statement_capacity - 1) write_out();
        text_[used_++] = c;
    }
    ENCORE_HOST_DEVICE void put(const char* s) {
        for (; s && *s; ++s)
            put(*s);
    }
    // `s` (n characters) right-aligned in the pending width.
    ENCORE_HOST_DEVICE void put_field(const char* s, int n) {
        for (int pad = width_ - n; pad > 0; --pad)
            put(' ');
        width_ = 0;
        for (int i = 0; i < n; ++i)
            put(s[i]);
    }
    ENCORE_HOST_DEVICE void write_out() {
        if (used_ == 0) return;
        text_[used_] = '\0';
#if defined(__CUDA_ARCH__)
        printf("%s", text_);
#else
        std::fwrite(text_, 1, static_cast<std::size_t>(used_), stdout);
#endif
        used_ = 0;
    }

    ENCORE_HOST_DEVICE void apply(stream_manipulator m) {
        switch (m) {
        case stream_manipulator::dec: base_ = 10; break;
        case stream_manipulator::hex: base_ = 16; break;
        case stream_manipulator::oct: base_ = 8; break;
        case stream_manipulator::noshowbase: showbase_ = false; break;
        case stream_manipulator::showbase: showbase_ = true; break;
        case stream_manipulator::noshowpos: showpos_ = false; break;
        case stream_manipulator::showpos: showpos_ = true; break;
        case stream_manipulator::endl: put('\n'); write_out(); break;
        case stream_manipulator::flush: write_out(); break;
        case stream_manipulator::fixed:
        case stream_manipulator::scientific:
        case stream_manipulator::hexfloat:
        case stream_manipulator::defaultfloat: float_mode_ = m; break;
        }
    }
    ENCORE_HOST_DEVICE void set_precision(int p) { precision_ = p < 0 ? 6 : p; }
    ENCORE_HOST_DEVICE void set_width(int w) { width_ = w < 0 ? 0 : w; }

    ENCORE_HOST_DEVICE void write_unsigned(unsigned long long v, bool negative);
    template <typename T> ENCORE_HOST_DEVICE void write_integer(T v) {
        if constexpr (std::is_signed_v<T>) {
            const bool negative = v < 0 && base_ == 10;
            const unsigned long long magnitude = negative ? 0ull - static_cast<unsigned long long>(v)
                                                          : static_cast<unsigned long long>(static_cast<std::make_unsigned_t<T>>(v));
            write_unsigned(magnitude, negative);
        } else {
            write_unsigned(static_cast<unsigned long long>(v), false);
        }
    }
    ENCORE_HOST_DEVICE void write_floating(double v);
    ENCORE_HOST_DEVICE void write_pointer(const void* p) {
        const int base = base_;
        const bool show = showbase_;
        base_ = 16;
        showbase_ = true;
        write_unsigned(reinterpret_cast<std::uintptr_t>(p), false);
        base_ = base;
        showbase_ = show;
    }

private:
    char text_[statement_capacity];
    int used_ = 0;
    int base_ = 10;
    bool showbase_ = false, showpos_ = false;
    stream_manipulator float_mode_ = stream_manipulator::defaultfloat;
    int precision_ = 6, width_ = 0;
};

// Formatting on the device (CUDA has no snprintf there): digits from integers scaled by exact powers of ten. The
// host formats with snprintf instead.
// A value as the sum hi + lo of two doubles (about 106 bits): scaling by powers of ten keeps enough of the exact
// product for printf's rounding of up to 17 significant digits.
struct wide {
    double hi, lo;
};
ENCORE_HOST_DEVICE inline double fused_multiply_add(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
    return ::fma(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}
ENCORE_HOST_DEVICE inline wide wide_sum(double hi, double lo) {
    const double s = hi + lo;
    return {s, lo - (s - hi)};
}
ENCORE_HOST_DEVICE inline wide wide_times(wide a, wide b) {
    const double p = a.hi * b.hi;
    return wide_sum(p, fused_multiply_add(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi));
}
ENCORE_HOST_DEVICE inline wide wide_divide(wide a, wide d) {
    const double q = a.hi / d.hi;
    const wide back = wide_times(d, {q, 0.0});
    return wide_sum(q, (((a.hi - back.hi) - back.lo) + a.lo) / d.hi);
}
// 10^n for 0 <= n <= 300.
ENCORE_HOST_DEVICE inline wide wide_power_of_ten(int n) {
    wide p{1.0, 0.0}, step{10.0, 0.0};
    for (unsigned k = static_cast<unsigned>(n); k; k >>= 1, step = wide_times(step, step))
        if (k & 1) p = wide_times(p, step);
    return p;
}
// x * 10^k without overflowing on the way (|k| up to 600: a denormal's digits, a huge value's). No recursion
// anywhere here: the GPU's stack size must be known when the kernel is compiled.
ENCORE_HOST_DEVICE inline wide times_power_of_ten(wide x, int k) {
    for (; k > 300; k -= 300)
        x = wide_times(x, wide_power_of_ten(300));
    for (; k < -300; k += 300)
        x = wide_divide(x, wide_power_of_ten(300));
    return k >= 0 ? wide_times(x, wide_power_of_ten(k)) : wide_divide(x, wide_power_of_ten(-k));
}
// The decimal exponent of x > 0: 10^e <= x < 10^(e+1).
ENCORE_HOST_DEVICE inline int decimal_exponent(double x) {
    unsigned long long bits = 0;
    for (unsigned i = 0; i < sizeof bits; ++i)
        reinterpret_cast<unsigned char*>(&bits)[i] = reinterpret_cast<const unsigned char*>(&x)[i];
    int binary = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    if (binary == -1023) { // a denormal: its highest mantissa bit
        binary = -1075;
        for (unsigned long long m = bits & ((1ull << 52) - 1); m; m >>= 1)
            ++binary;
    }
    int e = binary >= 0 ? binary * 30103 / 100000 : -((-binary * 30103 + 99999) / 100000);
    auto at_least = [](wide v, double bound) { return v.hi > bound || (v.hi == bound && v.lo >= 0); };
    while (at_least(times_power_of_ten({x, 0.0}, -e), 10.0))
        ++e;
    while (!at_least(times_power_of_ten({x, 0.0}, -e), 1.0))
        --e;
    return e;
}
// `value` (>= 0, below 2^63) rounded to an integer, ties to even (as printf rounds exact ties): the low part
// decides a value whose high part is a tie or an integer.
ENCORE_HOST_DEVICE inline unsigned long long round_half_even(wide value) {
    unsigned long long r = static_cast<unsigned long long>(value.hi);
    double fraction = value.hi - static_cast<double>(r); // exact
    double low = value.lo;
    const long long whole_low = static_cast<long long>(low); // above 2^53 the low part holds units too
    r += static_cast<unsigned long long>(whole_low);
    low -= static_cast<double>(whole_low);
    if (fraction == 0 && low < 0) { // just below r
        --r;
        fraction = 1;
    }
    const double above_half = (fraction - 0.5) + low; // fraction - 0.5 is exact where low can tip it
    if (above_half > 0 || (above_half == 0 && (r & 1))) ++r;
    return r;
}
// Writes the `digits` lowest decimal digits of `v` (with leading zeros) into `out`; returns the count written.
ENCORE_HOST_DEVICE inline int decimal_digits(unsigned long long v, int digits, char* out) {
    for (int i = digits - 1; i >= 0; --i) {
        out[i] = static_cast<char>('0' + v % 10);
        v /= 10;
    }
    return digits;
}
ENCORE_HOST_DEVICE inline int count_digits(unsigned long long v) {
    int n = 1;
    while (v >= 10) {
        v /= 10;
        ++n;
    }
    return n;
}

ENCORE_HOST_DEVICE inline void stream_statement::write_unsigned(unsigned long long v, bool negative) {
    char digits[72];
    int n = 0;
    char reversed[64];
    int r = 0;
    do {
        const unsigned d = static_cast<unsigned>(v % static_cast<unsigned>(base_));
        reversed[r++] = static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10);
        v /= static_cast<unsigned>(base_);
    } while (v);
    if (negative)
        digits[n++] = '-';
    else if (showpos_ && base_ == 10)
        digits[n++] = '+';
    if (showbase_ && base_ == 16) {
        digits[n++] = '0';
        digits[n++] = 'x';
    } else if (showbase_ && base_ == 8 && !(r == 1 && reversed[0] == '0')) {
        digits[n++] = '0';
    }
    while (r)
        digits[n++] = reversed[--r];
    put_field(digits, n);
}

// `v` as printf formats it with "%.*g" (defaultfloat), "%.*f" (fixed), "%.*e" (scientific) or "%a" (hexfloat),
// with a '+' when `showpos`, into `text` (400 bytes); returns the length. What device code formats with (CUDA has no
// snprintf there): digits from integers scaled by powers of ten, so values of up to 17 significant digits come out
// as printf's; beyond 17 the digits are zeros. tests/sycl/stream_format_test.cpp compares it with printf.
ENCORE_HOST_DEVICE inline int format_floating(char* text, double v, stream_manipulator mode, int precision,
                                              bool showpos) {
    int n = 0;
    const bool negative = v < 0 || (v == 0 && 1 / v < 0);
    double a = negative ? -v : v;
    if (negative)
        text[n++] = '-';
    else if (showpos)
        text[n++] = '+';
    if (a != a || a > 1.7976931348623157e308) {
        for (const char* s = a != a ? "nan" : "inf"; *s; ++s)
            text[n++] = *s;
    } else if (mode == stream_manipulator::hexfloat) {
        unsigned long long bits;
        for (unsigned i = 0; i < sizeof bits; ++i)
            reinterpret_cast<unsigned char*>(&bits)[i] = reinterpret_cast<const unsigned char*>(&a)[i];
        int exponent = static_cast<int>((bits >> 52) & 0x7ff);
        unsigned long long mantissa = bits & ((1ull << 52) - 1);
        const bool zero = exponent == 0 && mantissa == 0;
        text[n++] = '0';
        text[n++] = 'x';
        text[n++] = zero || exponent == 0 ? '0' : '1';
        exponent = zero ? 0 : exponent == 0 ? -1022 : exponent - 1023;
        int hex_digits = 13;
        while (hex_digits > 0 && (mantissa & 0xf) == 0) {
            mantissa >>= 4;
            --hex_digits;
        }
        if (hex_digits) {
            text[n++] = '.';
            for (int i = hex_digits - 1; i >= 0; --i) {
                const unsigned d = static_cast<unsigned>((mantissa >> (4 * i)) & 0xf);
                text[n++] = static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10);
            }
        }
        text[n++] = 'p';
        text[n++] = exponent < 0 ? '-' : '+';
        const int digits = count_digits(static_cast<unsigned long long>(exponent < 0 ? -exponent : exponent));
        n += decimal_digits(static_cast<unsigned long long>(exponent < 0 ? -exponent : exponent), digits, text + n);
    } else {
        const int p = precision > 17 ? 17 : precision;
        // The decimal exponent of a, after rounding to `significant` digits.
        auto exponent_of = [](double x, int significant, unsigned long long& digits) {
            int e = x != 0 ? decimal_exponent(x) : 0;
            digits = round_half_even(times_power_of_ten({x, 0.0}, (significant - 1) - e));
            if (digits >= static_cast<unsigned long long>(wide_power_of_ten(significant).hi)) {
                digits /= 10;
                ++e;
            }
            return e;
        };
        auto put_scientific = [&](unsigned long long digits, int significant, int e, bool strip) {
            char d[24];
            decimal_digits(digits, significant, d);
            int last = significant - 1;
            if (strip)
                while (last > 0 && d[last] == '0') --last;
            text[n++] = d[0];
            if (last > 0) {
                text[n++] = '.';
                for (int i = 1; i <= last; ++i)
                    text[n++] = d[i];
            }
            text[n++] = 'e';
            text[n++] = e < 0 ? '-' : '+';
            const unsigned long long magnitude = static_cast<unsigned long long>(e < 0 ? -e : e);
            n += decimal_digits(magnitude, magnitude < 10 ? 2 : count_digits(magnitude), text + n);
        };
        auto put_fixed = [&](int decimals, bool strip) {
            if (a >= 1e17) { // beyond exact integers: the 17 significant digits, then zeros
                unsigned long long digits;
                const int e = exponent_of(a, 17, digits);
                char d[24];
                decimal_digits(digits, 17, d);
                for (int i = 0; i <= e && n < 380; ++i)
                    text[n++] = i < 17 ? d[i] : '0';
                if (decimals > 0 && !strip) {
                    text[n++] = '.';
                    for (int i = 0; i < decimals && n < 398; ++i)
                        text[n++] = '0';
                }
                return;
            }
            const int shown = decimals > 17 ? 17 : decimals;
            // The whole part and the fraction apart (a < 1e17: both exact), the fraction rounded to `shown` digits.
            unsigned long long whole = static_cast<unsigned long long>(a);
            const double part = a - static_cast<double>(whole);
            unsigned long long fraction = 0;
            const unsigned long long unit = static_cast<unsigned long long>(wide_power_of_ten(shown).hi);
            if (shown == 0) { // the whole part takes the rounding
                if (part > 0.5 || (part == 0.5 && (whole & 1))) ++whole;
            } else {
                fraction = round_half_even(wide_times({part, 0.0}, wide_power_of_ten(shown)));
                if (fraction >= unit) { // rounded up into the whole part
                    fraction -= unit;
                    ++whole;
                }
            }
            n += decimal_digits(whole, count_digits(whole), text + n);
            char f[24];
            decimal_digits(fraction, shown, f);
            int last = shown;
            if (strip)
                while (last > 0 && f[last - 1] == '0') --last;
            if (last > 0 || (decimals > 0 && !strip)) text[n++] = '.';
            for (int i = 0; i < last; ++i)
                text[n++] = f[i];
            if (!strip)
                for (int i = shown; i < decimals && n < 398; ++i)
                    text[n++] = '0';
        };
        if (mode == stream_manipulator::fixed) {
            put_fixed(precision, false);
        } else if (mode == stream_manipulator::scientific) {
            unsigned long long digits;
            const int e = exponent_of(a, p + 1, digits);
            put_scientific(digits, p + 1, e, false);
        } else { // defaultfloat: printf's %g
            const int significant = p == 0 ? 1 : p;
            unsigned long long digits;
            const int e = a == 0 ? 0 : exponent_of(a, significant, digits);
            if (a == 0) {
                text[n++] = '0';
            } else if (e < -4 || e >= significant) {
                put_scientific(digits, significant, e, true);
            } else { // the same significant digits with the point inside them, trailing zeros dropped
                char d[24];
                decimal_digits(digits, significant, d);
                int last = significant - 1;
                while (last > e && last > 0 && d[last] == '0')
                    --last;
                if (e < 0) {
                    text[n++] = '0';
                    text[n++] = '.';
                    for (int i = 0; i < -e - 1; ++i)
                        text[n++] = '0';
                }
                for (int i = 0; i <= last; ++i) {
                    text[n++] = d[i];
                    if (i == e && i < last) text[n++] = '.';
                }
            }
        }
    }
    return n;
}

ENCORE_HOST_DEVICE inline void stream_statement::write_floating(double v) {
    char text[400];
#if !defined(__CUDA_ARCH__)
    const char* format = float_mode_ == stream_manipulator::fixed        ? (showpos_ ? "%+.*f" : "%.*f")
                         : float_mode_ == stream_manipulator::scientific ? (showpos_ ? "%+.*e" : "%.*e")
                         : float_mode_ == stream_manipulator::hexfloat   ? (showpos_ ? "%+a" : "%a")
                                                                         : (showpos_ ? "%+.*g" : "%.*g");
    int n = float_mode_ == stream_manipulator::hexfloat ? std::snprintf(text, sizeof text, format, v)
                                                        : std::snprintf(text, sizeof text, format, precision_, v);
    if (n > static_cast<int>(sizeof text) - 1) n = static_cast<int>(sizeof text) - 1;
#else
    const int n = format_floating(text, v, float_mode_, precision_, showpos_);
#endif
    put_field(text, n);
}

template <typename T> struct is_stream_char : std::bool_constant<std::is_same_v<T, char> || std::is_same_v<T, signed char> ||
                                                                  std::is_same_v<T, unsigned char>> {};

// Writes one value of any type operator<< takes.
template <typename T> ENCORE_HOST_DEVICE void stream_write(stream_statement& s, const T& v);

template <int D, typename A> ENCORE_HOST_DEVICE void stream_write_array(stream_statement& s, const A& a) {
    s.put('{');
    for (int d = 0; d < D; ++d) {
        if (d) s.put(", ");
        s.write_integer(static_cast<unsigned long long>(a[d]));
    }
    s.put('}');
}

template <typename T> ENCORE_HOST_DEVICE void stream_write(stream_statement& s, const T& v) {
    if constexpr (std::is_same_v<T, stream_manipulator>) {
        s.apply(v);
    } else if constexpr (std::is_same_v<T, precision_manipulator>) {
        s.set_precision(v.precision);
    } else if constexpr (std::is_same_v<T, width_manipulator>) {
        s.set_width(v.width);
    } else if constexpr (std::is_same_v<T, bool>) {
        s.put_field(v ? "true" : "false", v ? 4 : 5);
    } else if constexpr (is_stream_char<T>::value) {
        const char c = static_cast<char>(v);
        s.put_field(&c, 1);
    } else if constexpr (std::is_integral_v<T>) {
        s.write_integer(v);
    } else if constexpr (std::is_floating_point_v<T>) {
        s.write_floating(static_cast<double>(v));
    } else if constexpr (std::is_same_v<T, half>) {
        s.write_floating(static_cast<double>(static_cast<float>(v)));
    } else if constexpr (std::is_pointer_v<T>) {
        if constexpr (is_stream_char<std::remove_cv_t<std::remove_pointer_t<T>>>::value) {
            int n = 0;
            while (v && v[n])
                ++n;
            s.put_field(reinterpret_cast<const char*>(v), n);
        } else {
            s.write_pointer(reinterpret_cast<const void*>(v));
        }
    } else if constexpr (std::is_array_v<T>) { // a string literal
        stream_write(s, static_cast<const std::remove_extent_t<T>*>(v));
    } else if constexpr (requires { typename T::value_type; v.size(); v[0]; }) { // vec, marray
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) s.put(", ");
            stream_write(s, static_cast<typename T::value_type>(v[i]));
        }
    } else {
        static_assert(sizeof(T) == 0, "sycl::stream: no operator<< for this type");
    }
}
// "name(label: {..}, label: {..})": an index-space object by its ranges and ids.
template <int D, typename... A>
ENCORE_HOST_DEVICE void stream_write_fields(stream_statement& s, const char* name,
                                            const char* const (&labels)[sizeof...(A)], const A&... arrays) {
    s.put(name);
    s.put('(');
    int field = 0;
    ((s.put(field ? ", " : ""), s.put(labels[field++]), s.put(": "), stream_write_array<D>(s, arrays)), ...);
    s.put(')');
}
template <int D> ENCORE_HOST_DEVICE void stream_write(stream_statement& s, const id<D>& v) { stream_write_array<D>(s, v); }
template <int D> ENCORE_HOST_DEVICE void stream_write(stream_statement& s, const range<D>& v) { stream_write_array<D>(s, v); }
template <int D, bool O> ENCORE_HOST_DEVICE void stream_write(stream_statement& s, const item<D, O>& v) {
    stream_write_fields<D>(s, "item", {"range", "id"}, v.get_range(), v.get_id());
}
template <int D> ENCORE_HOST_DEVICE void stream_write(stream_statement& s, const nd_item<D>& v) {
    stream_write_fields<D>(s, "nd_item", {"global_id", "local_id"}, v.get_global_id(), v.get_local_id());
}
template <int D> ENCORE_HOST_DEVICE void stream_write(stream_statement& s, const group<D>& v) {
    stream_write_fields<D>(s, "group", {"id", "local_range", "group_range"}, v.get_group_id(), v.get_local_range(),
                           v.get_group_range());
}
template <int D> ENCORE_HOST_DEVICE void stream_write(stream_statement& s, const h_item<D>& v) {
    stream_write_fields<D>(s, "h_item", {"global_id", "logical_local_id", "physical_local_id"}, v.get_global_id(),
                           v.get_logical_local_id(), v.get_physical_local_id());
}
template <int D> ENCORE_HOST_DEVICE void stream_write(stream_statement& s, const nd_range<D>& v) {
    stream_write_fields<D>(s, "nd_range", {"global_range", "local_range"}, v.get_global_range(), v.get_local_range());
}

template <typename T> ENCORE_HOST_DEVICE stream_statement::stream_statement(const T& first) {
    stream_write(*this, first);
}

// `out << a << b ...;`: the statement the first << opened takes the rest (found by argument-dependent lookup).
template <typename T> ENCORE_HOST_DEVICE stream_statement&& operator<<(stream_statement&& s, const T& v) {
    stream_write(s, v);
    return static_cast<stream_statement&&>(s);
}
// A statement kept in a variable (`auto line = out << "["; line << x;`): written out when the variable goes.
template <typename T> ENCORE_HOST_DEVICE stream_statement& operator<<(stream_statement& s, const T& v) {
    stream_write(s, v);
    return s;
}

// Manipulators by value: device code may not bind a reference to sycl::endl and its kin (host variables).
ENCORE_HOST_DEVICE inline stream_statement&& operator<<(stream_statement&& s, stream_manipulator m) {
    s.apply(m);
    return static_cast<stream_statement&&>(s);
}
ENCORE_HOST_DEVICE inline stream_statement& operator<<(stream_statement& s, stream_manipulator m) {
    s.apply(m);
    return s;
}

} // namespace detail

// `out << a << b ...;`: the first << opens the statement, which is written out when it ends.
template <typename T> ENCORE_HOST_DEVICE detail::stream_statement operator<<(const stream&, const T& v) {
    return detail::stream_statement(v);
}
ENCORE_HOST_DEVICE inline detail::stream_statement operator<<(const stream&, stream_manipulator m) {
    return detail::stream_statement(m);
}
} // namespace _V1
} // namespace sycl

// What sycl::half and sycl::ext::oneapi::bfloat16 share: 16 bits of storage, and arithmetic, comparisons and mixed
// operations with the other arithmetic types, each defined through float. Not for you: include <sycl/sycl.hpp>.
//
// Derived provides `static float to_float(std::uint16_t)` and `static std::uint16_t from_float(float)` (rounding to
// nearest even), and `static constexpr bool native_arithmetic`: when true, `static Derived apply(Op, Derived,
// Derived)` computes in its own arithmetic (half on a CUDA device); otherwise an operation is done in float and
// rounded once. For +, -, * and / of 16-bit operands
// that is the correctly rounded result: float's 24 bits hold twice the 11 (or 8) of the operands plus two, so the
// double rounding cannot err.
//
// Mixed operations follow DPC++: with an integer the result is the 16-bit type, with float or double it is that type.
#pragma once

#include <cstdint>
#include <type_traits>

#include "host_device.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

struct narrow_plus {
    ENCORE_HOST_DEVICE float operator()(float a, float b) const { return a + b; }
};
struct narrow_minus {
    ENCORE_HOST_DEVICE float operator()(float a, float b) const { return a - b; }
};
struct narrow_times {
    ENCORE_HOST_DEVICE float operator()(float a, float b) const { return a * b; }
};
struct narrow_divide {
    ENCORE_HOST_DEVICE float operator()(float a, float b) const { return a / b; }
};

template <typename D> class narrow_float {
public:
    using encore_vec_element = void; // sycl::vec takes it as an element type
    constexpr narrow_float() = default;
    ENCORE_HOST_DEVICE narrow_float(float x) : bits_(D::from_float(x)) {}
    ENCORE_HOST_DEVICE operator float() const { return D::to_float(bits_); }

    // The stored bits, and a value made from them.
    ENCORE_HOST_DEVICE constexpr std::uint16_t bits() const { return bits_; }
    ENCORE_HOST_DEVICE static constexpr D from_bits(std::uint16_t b) {
        D d;
        d.bits_ = b;
        return d;
    }

#define ENCORE_NARROW_OP(op, fn)                                                                                    \
    friend ENCORE_HOST_DEVICE D operator op(D a, D b) { return combine(fn{}, a, b); }                               \
    template <typename T>                                                                                            \
        requires std::is_arithmetic_v<T>                                                                             \
    friend ENCORE_HOST_DEVICE auto operator op(D a, T b) {                                                           \
        if constexpr (std::is_integral_v<T>) return combine(fn{}, a, D(static_cast<float>(b)));                      \
        else return static_cast<T>(static_cast<float>(a)) op b;                                                      \
    }                                                                                                                \
    template <typename T>                                                                                            \
        requires std::is_arithmetic_v<T>                                                                             \
    friend ENCORE_HOST_DEVICE auto operator op(T a, D b) {                                                           \
        if constexpr (std::is_integral_v<T>) return combine(fn{}, D(static_cast<float>(a)), b);                      \
        else return a op static_cast<T>(static_cast<float>(b));                                                      \
    }                                                                                                                \
    ENCORE_HOST_DEVICE D& operator op##=(D b) { return self() = self() op b; }                                       \
    template <typename T>                                                                                            \
        requires std::is_arithmetic_v<T>                                                                             \
    ENCORE_HOST_DEVICE D& operator op##=(T b) {                                                                      \
        return self() = D(static_cast<float>(self() op b));                                                          \
    }
    ENCORE_NARROW_OP(+, narrow_plus)
    ENCORE_NARROW_OP(-, narrow_minus)
    ENCORE_NARROW_OP(*, narrow_times)
    ENCORE_NARROW_OP(/, narrow_divide)
#undef ENCORE_NARROW_OP

    ENCORE_HOST_DEVICE D operator-() const { return from_bits(static_cast<std::uint16_t>(bits_ ^ 0x8000u)); }
    ENCORE_HOST_DEVICE D operator+() const { return self(); }
    ENCORE_HOST_DEVICE D& operator++() { return self() += D(1.0f); }
    ENCORE_HOST_DEVICE D operator++(int) {
        D old = self();
        ++*this;
        return old;
    }
    ENCORE_HOST_DEVICE D& operator--() { return self() -= D(1.0f); }
    ENCORE_HOST_DEVICE D operator--(int) {
        D old = self();
        --*this;
        return old;
    }

    // Comparisons in float (exact: every 16-bit value is a float); NaN compares unequal to everything.
#define ENCORE_NARROW_CMP(op)                                                                                        \
    friend ENCORE_HOST_DEVICE bool operator op(D a, D b) { return static_cast<float>(a) op static_cast<float>(b); }  \
    template <typename T>                                                                                            \
        requires std::is_arithmetic_v<T>                                                                             \
    friend ENCORE_HOST_DEVICE bool operator op(D a, T b) {                                                           \
        return static_cast<float>(a) op b;                                                                           \
    }                                                                                                                \
    template <typename T>                                                                                            \
        requires std::is_arithmetic_v<T>                                                                             \
    friend ENCORE_HOST_DEVICE bool operator op(T a, D b) {                                                           \
        return a op static_cast<float>(b);                                                                           \
    }
    ENCORE_NARROW_CMP(==)
    ENCORE_NARROW_CMP(!=)
    ENCORE_NARROW_CMP(<)
    ENCORE_NARROW_CMP(<=)
    ENCORE_NARROW_CMP(>)
    ENCORE_NARROW_CMP(>=)
#undef ENCORE_NARROW_CMP

private:
    ENCORE_HOST_DEVICE D& self() { return static_cast<D&>(*this); }
    ENCORE_HOST_DEVICE const D& self() const { return static_cast<const D&>(*this); }
    template <typename Op> ENCORE_HOST_DEVICE static D combine(Op op, D a, D b) {
        if constexpr (D::native_arithmetic) return D::apply(op, a, b);
        else return D(op(static_cast<float>(a), static_cast<float>(b)));
    }
    std::uint16_t bits_ = 0;
};

// float's bits and back, without aliasing.
ENCORE_HOST_DEVICE inline std::uint32_t float_bits(float x) {
    std::uint32_t u;
    __builtin_memcpy(&u, &x, 4);
    return u;
}
ENCORE_HOST_DEVICE inline float float_of_bits(std::uint32_t u) {
    float x;
    __builtin_memcpy(&x, &u, 4);
    return x;
}

} // namespace detail
} // namespace _V1
} // namespace sycl

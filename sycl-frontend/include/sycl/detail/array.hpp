// The common base of sycl::range and sycl::id: Dimensions sizes or indices, element-wise arithmetic.
// Not for you: include <sycl/sycl.hpp>.
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>

#include "host_device.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

template <int Dimensions, typename Derived> class array {
    static_assert(Dimensions >= 1 && Dimensions <= 3, "SYCL index spaces have 1, 2 or 3 dimensions");

public:
    static constexpr int dimensions = Dimensions;

    ENCORE_HOST_DEVICE constexpr std::size_t get(int dimension) const { return values_[dimension]; }
    ENCORE_HOST_DEVICE constexpr std::size_t& operator[](int dimension) { return values_[dimension]; }
    ENCORE_HOST_DEVICE constexpr std::size_t operator[](int dimension) const { return values_[dimension]; }

    // Element by element: std::array's operator== compares with __builtin_memcmp, which answered wrongly in CUDA
    // device code (found by tests/conformance/hierarchical.cpp on an H100).
    friend ENCORE_HOST_DEVICE constexpr bool operator==(const Derived& a, const Derived& b) {
        for (int d = 0; d < Dimensions; ++d)
            if (a.values_[d] != b.values_[d]) return false;
        return true;
    }
    friend ENCORE_HOST_DEVICE constexpr bool operator!=(const Derived& a, const Derived& b) { return !(a == b); }

#define ENCORE_SYCL_ARRAY_OPERATOR(op)                                                                                 \
    friend ENCORE_HOST_DEVICE constexpr Derived operator op(const Derived& a, const Derived& b) {                                  \
        Derived r = a;                                                                                                 \
        for (int d = 0; d < Dimensions; ++d) r.values_[d] = a.values_[d] op b.values_[d];                              \
        return r;                                                                                                      \
    }                                                                                                                  \
    /* Any integer type, so that `i - 1` on an id<1> (which also converts to size_t) is not ambiguous. */          \
    template <typename T>                                                                                              \
        requires std::is_integral_v<T>                                                                                 \
    friend ENCORE_HOST_DEVICE constexpr Derived operator op(const Derived& a, T b) {                                   \
        Derived r = a;                                                                                                 \
        for (int d = 0; d < Dimensions; ++d) r.values_[d] = a.values_[d] op static_cast<std::size_t>(b);               \
        return r;                                                                                                      \
    }                                                                                                                  \
    template <typename T>                                                                                              \
        requires std::is_integral_v<T>                                                                                 \
    friend ENCORE_HOST_DEVICE constexpr Derived operator op(T a, const Derived& b) {                                   \
        Derived r = b;                                                                                                 \
        for (int d = 0; d < Dimensions; ++d) r.values_[d] = static_cast<std::size_t>(a) op b.values_[d];               \
        return r;                                                                                                      \
    }                                                                                                                  \
    friend ENCORE_HOST_DEVICE constexpr Derived& operator op##=(Derived& a, const Derived& b) { return a = a op b; }\
    template <typename T>                                                                                              \
        requires std::is_integral_v<T>                                                                                 \
    friend ENCORE_HOST_DEVICE constexpr Derived& operator op##=(Derived& a, T b) { return a = a op b; }
    ENCORE_SYCL_ARRAY_OPERATOR(+)
    ENCORE_SYCL_ARRAY_OPERATOR(-)
    ENCORE_SYCL_ARRAY_OPERATOR(*)
    ENCORE_SYCL_ARRAY_OPERATOR(/)
    ENCORE_SYCL_ARRAY_OPERATOR(%)
#undef ENCORE_SYCL_ARRAY_OPERATOR

protected:
    constexpr array() = default;
    ENCORE_HOST_DEVICE constexpr explicit array(std::array<std::size_t, Dimensions> values) : values_(values) {}
    std::array<std::size_t, Dimensions> values_{};
};

// Row-major linearisation: the last dimension varies fastest (SYCL 2020 section 3.11.1).
template <int Dimensions, typename Index, typename Range>
ENCORE_HOST_DEVICE constexpr std::size_t linearize(const Index& index, const Range& range) {
    std::size_t linear = 0;
    for (int d = 0; d < Dimensions; ++d) linear = linear * range[d] + index[d];
    return linear;
}

} // namespace detail
} // namespace _V1
} // namespace sycl

// sycl::marray (SYCL 2020 section 4.14.3): an array of any number of elements with vec's element-wise operators and
// the built-in functions, but no swizzles, and relations that answer a marray of bool.
//
// It is a vec-like for the operators of sycl/vector.hpp and the built-ins of sycl/builtins.hpp (detail::vec_traits
// below): each applies element by element and makes a marray of the result. A marray never mixes with a vec in one
// operation. Its layout is the elements one after the other (no padding or extra alignment), so an array of
// marray<float, 3> in USM is 12 bytes an element on the host and the device alike.
//
//     sycl::marray<float, 5> a{1, 2, 3, 4, 5};
//     sycl::marray<float, 5> b = sycl::sqrt(a) * 2.f;
//     sycl::marray<bool, 5> big = b > 3.f;   // any(big), all(big), select(x, y, big)
//     sycl::mfloat3 p{0.f};
#pragma once

#include <cstddef>
#include <type_traits>

#include "detail/host_device.hpp"
#include "vector.hpp"

namespace sycl {
inline namespace _V1 {

template <typename DataT, std::size_t NumElements> class marray;

namespace detail {
template <typename T, std::size_t N> struct vec_traits<marray<T, N>> {
    static constexpr bool is_vec = true;
    using element = T;
    static constexpr int size = static_cast<int>(N);
    template <typename R, int M> using with = marray<R, static_cast<std::size_t>(M)>;
    static constexpr bool bool_relations = true;
};
// How many elements a constructor argument gives: one for a scalar, N for a marray of N.
template <typename T> struct marray_count : std::integral_constant<std::size_t, 1> {};
template <typename T, std::size_t N> struct marray_count<marray<T, N>> : std::integral_constant<std::size_t, N> {};
} // namespace detail

template <typename DataT, std::size_t NumElements> class marray {
    static_assert(NumElements >= 1, "sycl::marray: at least one element");

public:
    using value_type = DataT;
    using reference = DataT&;
    using const_reference = const DataT&;
    using iterator = DataT*;
    using const_iterator = const DataT*;

    ENCORE_HOST_DEVICE constexpr marray() : data_{} {}
    ENCORE_HOST_DEVICE explicit constexpr marray(const DataT& value) : data_{} {
        for (auto& e : data_) e = value;
    }
    // Scalars and marrays of DataT, NumElements elements in all, in order.
    template <typename... Args>
        requires(sizeof...(Args) >= 2 && (detail::marray_count<std::remove_cvref_t<Args>>::value + ...) == NumElements)
    ENCORE_HOST_DEVICE constexpr marray(const Args&... args) : data_{} {
        std::size_t i = 0;
        (put(i, args), ...);
    }
    constexpr marray(const marray&) = default;
    constexpr marray& operator=(const marray&) = default;
    ENCORE_HOST_DEVICE constexpr marray& operator=(const DataT& value) {
        for (auto& e : data_) e = value;
        return *this;
    }

    ENCORE_HOST_DEVICE constexpr operator DataT() const requires(NumElements == 1) { return data_[0]; }
    static constexpr std::size_t size() noexcept { return NumElements; }

    ENCORE_HOST_DEVICE constexpr reference operator[](std::size_t i) { return data_[i]; }
    ENCORE_HOST_DEVICE constexpr const_reference operator[](std::size_t i) const { return data_[i]; }
    ENCORE_HOST_DEVICE constexpr iterator begin() noexcept { return data_; }
    ENCORE_HOST_DEVICE constexpr const_iterator begin() const noexcept { return data_; }
    ENCORE_HOST_DEVICE constexpr iterator end() noexcept { return data_ + NumElements; }
    ENCORE_HOST_DEVICE constexpr const_iterator end() const noexcept { return data_ + NumElements; }

private:
    template <typename A> ENCORE_HOST_DEVICE constexpr void put(std::size_t& i, const A& a) {
        if constexpr (detail::marray_count<A>::value > 1 || detail::is_vec_like<A>)
            for (int k = 0; k < detail::width_of<A>(); ++k) data_[i++] = static_cast<DataT>(a[k]);
        else
            data_[i++] = static_cast<DataT>(a);
    }
    DataT data_[NumElements];
};

// The aliases: m<type><N> for N = 2, 3, 4, 8, 16.
#define ENCORE_MARRAY_ALIASES(name, type)                                                                            \
    using m##name##2 = marray<type, 2>;                                                                              \
    using m##name##3 = marray<type, 3>;                                                                              \
    using m##name##4 = marray<type, 4>;                                                                              \
    using m##name##8 = marray<type, 8>;                                                                              \
    using m##name##16 = marray<type, 16>;
ENCORE_MARRAY_ALIASES(bool, bool)
ENCORE_MARRAY_ALIASES(char, std::int8_t)
ENCORE_MARRAY_ALIASES(schar, std::int8_t)
ENCORE_MARRAY_ALIASES(uchar, std::uint8_t)
ENCORE_MARRAY_ALIASES(short, std::int16_t)
ENCORE_MARRAY_ALIASES(ushort, std::uint16_t)
ENCORE_MARRAY_ALIASES(int, std::int32_t)
ENCORE_MARRAY_ALIASES(uint, std::uint32_t)
ENCORE_MARRAY_ALIASES(long, std::int64_t)
ENCORE_MARRAY_ALIASES(ulong, std::uint64_t)
ENCORE_MARRAY_ALIASES(longlong, std::int64_t)
ENCORE_MARRAY_ALIASES(ulonglong, std::uint64_t)
ENCORE_MARRAY_ALIASES(half, half)
ENCORE_MARRAY_ALIASES(float, float)
ENCORE_MARRAY_ALIASES(double, double)
#undef ENCORE_MARRAY_ALIASES

} // namespace _V1
} // namespace sycl

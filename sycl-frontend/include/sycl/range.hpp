// sycl::range and sycl::id (SYCL 2020 sections 4.9.1.1 and 4.9.1.3).
//
//     sycl::range<2> r{64, 32};   r.size() == 2048
//     sycl::id<2> i{3, 4};        i[1] == 4
#pragma once

#include "detail/array.hpp"

namespace sycl {
inline namespace _V1 {

template <int Dimensions = 1> class range : public detail::array<Dimensions, range<Dimensions>> {
    using base = detail::array<Dimensions, range<Dimensions>>;

public:
    constexpr range() = default;
    ENCORE_HOST_DEVICE constexpr range(std::size_t x) requires(Dimensions == 1) : base({x}) {}
    ENCORE_HOST_DEVICE constexpr range(std::size_t x, std::size_t y) requires(Dimensions == 2) : base({x, y}) {}
    ENCORE_HOST_DEVICE constexpr range(std::size_t x, std::size_t y, std::size_t z) requires(Dimensions == 3) : base({x, y, z}) {}

    ENCORE_HOST_DEVICE constexpr std::size_t size() const {
        std::size_t s = 1;
        for (int d = 0; d < Dimensions; ++d) s *= (*this)[d];
        return s;
    }
};
range(std::size_t) -> range<1>;
range(std::size_t, std::size_t) -> range<2>;
range(std::size_t, std::size_t, std::size_t) -> range<3>;

template <int Dimensions, bool WithOffset> class item;

template <int Dimensions = 1> class id : public detail::array<Dimensions, id<Dimensions>> {
    using base = detail::array<Dimensions, id<Dimensions>>;

public:
    constexpr id() = default;
    ENCORE_HOST_DEVICE constexpr explicit id(std::size_t x) requires(Dimensions == 1) : base({x}) {}
    ENCORE_HOST_DEVICE constexpr id(std::size_t x, std::size_t y) requires(Dimensions == 2) : base({x, y}) {}
    ENCORE_HOST_DEVICE constexpr id(std::size_t x, std::size_t y, std::size_t z) requires(Dimensions == 3) : base({x, y, z}) {}
    ENCORE_HOST_DEVICE constexpr id(const range<Dimensions>& r) {
        for (int d = 0; d < Dimensions; ++d) (*this)[d] = r[d];
    }
    template <bool WithOffset> ENCORE_HOST_DEVICE constexpr id(const item<Dimensions, WithOffset>& it) : id(it.get_id()) {}

    ENCORE_HOST_DEVICE constexpr operator std::size_t() const requires(Dimensions == 1) { return (*this)[0]; }
};
id(std::size_t) -> id<1>;
id(std::size_t, std::size_t) -> id<2>;
id(std::size_t, std::size_t, std::size_t) -> id<3>;

namespace detail {
// The id of linear index `linear` in `r` (detail::linearize's inverse: the last dimension varies fastest).
template <int Dimensions> ENCORE_HOST_DEVICE constexpr id<Dimensions> delinearize(std::size_t linear, const range<Dimensions>& r) {
    id<Dimensions> index;
    for (int d = Dimensions - 1; d >= 0; --d) {
        index[d] = linear % r[d];
        linear /= r[d];
    }
    return index;
}
} // namespace detail

} // namespace _V1
} // namespace sycl

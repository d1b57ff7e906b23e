// Linear <-> 3-d index conversions for the native backend. Not for you.
//
// SYCL linearises with the last dimension fastest; Encore's ranges always carry three extents (unused ones
// are 1), so the same formula serves 1, 2 and 3 dimensions.
#pragma once

#include <array>
#include <cstddef>

namespace encore::native::detail {

using index3 = std::array<std::size_t, 3>;

inline index3 delinearize(std::size_t linear, const index3& extent) noexcept {
    index3 id;
    id[2] = linear % extent[2];
    linear /= extent[2];
    id[1] = linear % extent[1];
    id[0] = linear / extent[1];
    return id;
}

// The next id in linear order.
inline void advance(index3& id, const index3& extent) noexcept {
    if (++id[2] < extent[2]) return;
    id[2] = 0;
    if (++id[1] < extent[1]) return;
    id[1] = 0;
    ++id[0];
}

} // namespace encore::native::detail

// SYCL ranges as the engine's encore::nd_range, and the work-group rules both kernel submission and node range
// updates enforce. Not for you: the handler and the graph extension use them.
#pragma once

#include <string>

#include "encore/graph/kernel.hpp"
#include "sycl/device.hpp"
#include "sycl/item.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

template <int D> encore::nd_range to_engine(const range<D>& r) {
    encore::nd_range out;
    out.dimensions = D;
    for (int d = 0; d < D; ++d) out.global[d] = r[d];
    return out;
}

// Throws errc::nd_range, naming `call`, when the local range is 0 in some dimension.
template <int D> encore::nd_range to_engine(const nd_range<D>& r, const char* call) {
    encore::nd_range out;
    out.dimensions = D;
    for (int d = 0; d < D; ++d) {
        if (r.get_local_range()[d] == 0)
            throw exception(errc::nd_range, std::string(call) + ": the local range is 0 in dimension " + std::to_string(d));
        out.global[d] = r.get_global_range()[d];
        out.local[d] = r.get_local_range()[d];
        out.offset[d] = r.get_offset()[d];
    }
    for (int d = D; d < 3; ++d) out.local[d] = 1;
    return out;
}

// A program built by encore++ assumes, as DPC++ does by default (-fsycl-id-queries-fit-in-int), that every id
// and range a kernel reads fits in an int (sycl/item.hpp's id_value). Throws errc::nd_range naming `call` for a
// launch where that does not hold: an extent, an offset, the last global id or the number of work-items above
// 2^31 - 1.
inline void check_ids_fit_in_int(const encore::nd_range& r, const char* call) {
    constexpr std::size_t limit = 2147483647u;
    bool fits = r.global_count() <= limit;
    for (int d = 0; d < r.dimensions; ++d)
        fits = fits && r.global[d] <= limit && r.offset[d] <= limit - r.global[d];
    if (!fits)
        throw exception(errc::nd_range,
                        std::string(call) + ": the launch's ids do not fit in an int (" +
                            std::to_string(r.global_count()) + " work-items) and this program was built assuming "
                            "they do (encore++'s default, -fsycl-id-queries-fit-in-int); build it with "
                            "-fno-sycl-id-queries-fit-in-int for larger launches");
}

// For an nd_range launch (local size given): the local range divides the global one, and a work-group fits the
// device. Throws errc::nd_range naming `call` otherwise.
void check_work_groups(const encore::nd_range& r, const device& d, const char* call);

} // namespace detail
} // namespace _V1
} // namespace sycl

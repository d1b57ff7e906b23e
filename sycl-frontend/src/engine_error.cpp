#include "sycl/detail/engine_error.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

errc to_errc(encore::errc code) noexcept {
    switch (code) {
    case encore::errc::invalid_argument:
    case encore::errc::unknown_node:
    case encore::errc::foreign_node:
    case encore::errc::self_edge:
    case encore::errc::duplicate_edge:
    case encore::errc::cycle:
    case encore::errc::topology_mismatch: return errc::invalid;
    case encore::errc::feature_not_supported: return errc::feature_not_supported;
    case encore::errc::kernel_not_supported: return errc::kernel_not_supported;
    case encore::errc::backend_failure:
    case encore::errc::user_exception: return errc::runtime;
    }
    return errc::runtime;
}

void throw_as_sycl(const encore::error& e) { throw exception(to_errc(e.code()), e.what()); }

} // namespace detail
} // namespace _V1
} // namespace sycl

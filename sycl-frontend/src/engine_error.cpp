#include "sycl/detail/engine_error.hpp"

#include <new>
#include <utility>

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
    case encore::errc::build_failure: return errc::build;
    case encore::errc::backend_failure:
    case encore::errc::user_exception: return errc::runtime;
    }
    return errc::runtime;
}

void throw_as_sycl(const encore::error& e) { throw exception(to_errc(e.code()), e.what()); }

namespace {
// `outer` with the exception being handled now nested in it (call from a catch block).
std::exception_ptr nesting_current(exception outer) {
    try {
        std::throw_with_nested(std::move(outer));
    } catch (...) {
        return std::current_exception();
    }
}
} // namespace

std::exception_ptr as_sycl_error(std::exception_ptr error) {
    try {
        std::rethrow_exception(error);
    } catch (const exception&) {
        return error;
    } catch (const encore::error& e) {
        return nesting_current(exception(to_errc(e.code()), e.what()));
    } catch (const std::bad_alloc& e) {
        return nesting_current(exception(errc::memory_allocation, std::string("a kernel or host task ran out of "
                                                                              "memory: ") + e.what()));
    } catch (const std::exception& e) {
        return nesting_current(exception(errc::runtime, std::string("a kernel or host task threw: ") + e.what()));
    } catch (...) {
        return nesting_current(
            exception(errc::runtime, "a kernel or host task threw an exception that is not a std::exception"));
    }
}

} // namespace detail
} // namespace _V1
} // namespace sycl

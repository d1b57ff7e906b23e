// How engine errors reach SYCL programs: every encore::error becomes a sycl::exception with the matching errc.
// Not for you: the front end's implementation uses it.
#pragma once

#include <exception>
#include <string>
#include <utility>

#include "encore/graph/error.hpp"
#include "sycl/exception.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

errc to_errc(encore::errc code) noexcept;
[[noreturn]] void throw_as_sycl(const encore::error& e);
// An asynchronous error as SYCL 2020 hands it to a program: a sycl::exception. A sycl::exception stays as it is;
// anything else a kernel or host task threw becomes a sycl::exception (errc::runtime, or the errc of an
// encore::error) with the original nested in it (std::rethrow_if_nested gets it back).
std::exception_ptr as_sycl_error(std::exception_ptr error);

// Runs `f`, turning an encore::error it throws into the sycl::exception the specification asks for.
template <typename F> decltype(auto) translate_errors(F&& f) {
    try {
        return std::forward<F>(f)();
    } catch (const encore::error& e) {
        throw_as_sycl(e);
    }
}

} // namespace detail
} // namespace _V1
} // namespace sycl

// A doctest check for the SYCL tests: `f` throws sycl::exception with `code` (the message is shown when the code
// differs) and, where given, a message containing `words`; anything else, or nothing, fails the test.
#pragma once

#include <string>

#include <doctest/doctest.h>

#include <sycl/exception.hpp>

namespace encore::testing {

template <typename F> void require_sycl_error(F&& f, sycl::errc code) {
    try {
        f();
        FAIL("no exception; expected a sycl::exception with errc " << static_cast<int>(code));
    } catch (const sycl::exception& e) {
        CHECK_MESSAGE(e.code() == code, e.what());
    }
}
template <typename F> void require_sycl_error(F&& f, sycl::errc code, const char* words) {
    try {
        f();
        FAIL("no exception; expected a sycl::exception with errc " << static_cast<int>(code) << " saying '" << words
                                                                   << "'");
    } catch (const sycl::exception& e) {
        CHECK_MESSAGE(e.code() == code, e.what());
        CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
    }
}

} // namespace encore::testing

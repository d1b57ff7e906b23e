// What the conformance tests share: USM arrays, and the error code a call throws.
#pragma once

#include <algorithm>
#include <cstddef>
#include <system_error>

#include <doctest/doctest.h>
#include <sycl/sycl.hpp>

// n value-initialized elements of shared memory on q's device, checked not null.
template <typename T> T* shared_array(sycl::queue& q, std::size_t n) {
    T* p = sycl::malloc_shared<T>(n, q);
    REQUIRE(p != nullptr);
    std::fill(p, p + n, T{});
    return p;
}

// The code of the sycl::exception `f` throws, or an empty one when it throws none.
template <typename F> std::error_code errc_of(F&& f) {
    try {
        f();
    } catch (const sycl::exception& e) {
        return e.code();
    }
    return std::error_code{};
}

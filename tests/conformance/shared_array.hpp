// The conformance tests' USM: n value-initialized elements of shared memory on q's device, checked not null.
#pragma once

#include <algorithm>
#include <cstddef>

#include <doctest/doctest.h>
#include <sycl/sycl.hpp>

template <typename T> T* shared_array(sycl::queue& q, std::size_t n) {
    T* p = sycl::malloc_shared<T>(n, q);
    REQUIRE(p != nullptr);
    std::fill(p, p + n, T{});
    return p;
}

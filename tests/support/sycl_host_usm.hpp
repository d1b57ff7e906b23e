// Test cases that read their results through shared or host USM need a default device that has both. On one
// without (NVIDIA's OpenCL, coarse-grain SVM only, where sycl::malloc_shared and sycl::malloc_host answer nullptr as
// SYCL specifies) they say so and skip:
//
//     TEST_CASE("...") {
//         ENCORE_SKIP_WITHOUT_HOST_USM();
//         int* x = sycl::malloc_shared<int>(n, q);
//
// A case that only needs memory for its kernels and commands, and checks it from the host afterwards, runs on every
// device with support/sycl_test_memory.hpp instead.
#pragma once

#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#define ENCORE_SKIP_WITHOUT_HOST_USM()                                                                                \
    do {                                                                                                              \
        if (const sycl::device d; !d.has(sycl::aspect::usm_shared_allocations) ||                                    \
                                  !d.has(sycl::aspect::usm_host_allocations)) {                                      \
            MESSAGE("skipped: the default device (" << d.get_info<sycl::info::device::name>()                       \
                                                    << ") has no shared or no host USM, which this case uses");    \
            return;                                                                                                   \
        }                                                                                                             \
    } while (false)

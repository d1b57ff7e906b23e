// Types declared inside functions, as programs written for DPC++ use them in kernels: a struct captured by a lambda
// kernel (with member functions), a functor kernel declared in the test's function, a kernel body that constructs
// a local struct, a local struct captured in an array. Each result is compared with the same arithmetic on the
// host. Built by g++ and by encore++ for native and CUDA (tests/compiler/meson.build, "corpus").
#include <doctest/doctest.h>

#include <cstddef>

#include <sycl/sycl.hpp>

#include "../../conformance/shared_array.hpp"

TEST_CASE("corpus: function-local types captured, launched and named in kernels") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    constexpr std::size_t n = 64;
    int* out = shared_array<int>(q, n);

    struct params {
        int scale;
        int offset;
        int apply(int x) const { return x * scale + offset; }
    };
    const params p{3, -2};
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = p.apply(static_cast<int>(i[0])); }).wait();
    for (std::size_t i = 0; i < n; ++i)
        CHECK(out[i] == static_cast<int>(i) * 3 - 2);

    struct doubler {
        int* data;
        int times;
        void operator()(sycl::id<1> i) const { data[i] *= times; }
    };
    q.parallel_for(sycl::range<1>(n), doubler{out, 2}).wait();
    for (std::size_t i = 0; i < n; ++i)
        CHECK(out[i] == (static_cast<int>(i) * 3 - 2) * 2);

    struct point {
        int x;
        int y;
    };
    const point corners[2] = {{1, 2}, {5, 7}};
    q.single_task([=] {
         const point swapped{corners[1].y, corners[0].x}; // a local type named in the body
         out[0] = swapped.x * 100 + swapped.y + corners[0].y;
     }).wait();
    CHECK(out[0] == 7 * 100 + 1 + 2);
    sycl::free(out, q);
}

// A correct program is never rejected: freeing USM memory and then using ordinary host memory (which the system
// allocator may place at the addresses the USM memory had) works for copies, memcpy, fill, memset, kernels and
// graph nodes. Use after free is still diagnosed where it is certain (tests/sycl/errors_test.cpp).
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <memory>
#include <vector>

#include "support/sycl_host_usm.hpp"

namespace exp_ext = sycl::ext::oneapi::experimental;

TEST_CASE("the issue's program: free USM, copy from a std::vector, fifty times") {
    sycl::queue q;
    for (int it = 0; it < 50; ++it) {
        int* a = sycl::malloc_device<int>(1024, q);
        sycl::free(a, q);
        std::vector<int> host(1024, 1); // plain host memory
        int* c = sycl::malloc_device<int>(1024, q);
        q.copy(host.data(), c, 1024).wait();
        std::vector<int> back(1024, 0);
        q.copy(c, back.data(), 1024).wait();
        CHECK(back[1023] == 1);
        sycl::free(c, q);
    }
}

// Its kernels work on plain host memory (std::vector), which only the native device reaches: native.
TEST_CASE("host memory at freed USM addresses works with memcpy, fill, memset, kernels and graph nodes"
          * doctest::test_suite("native")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q{sycl::property::queue::in_order()};
    // Free many USM blocks of a few sizes, then take host memory of the same sizes: the system allocator reuses
    // what it can, so some of these vectors sit where USM memory was (the test does not depend on which).
    constexpr std::size_t sizes[] = {64, 256, 1024, 4096, 65536};
    for (int round = 0; round < 20; ++round) {
        for (std::size_t n : sizes) {
            for (int k = 0; k < 4; ++k) sycl::free(sycl::malloc_shared<char>(n, q), q);
            std::vector<char> a(n, 'a'), b(n, 'b');
            q.memcpy(b.data(), a.data(), n);
            q.memset(a.data(), 'x', n / 2);
            q.fill(a.data() + n / 2, 'y', n / 2);
            char* pa = a.data();
            q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { pa[i] += 1; });
            q.wait();
            REQUIRE(b[n - 1] == 'a');
            REQUIRE(a[0] == 'x' + 1);
            REQUIRE(a[n - 1] == 'y' + 1);

            exp_ext::command_graph g{q};
            auto copy = g.add([&](sycl::handler& h) { h.memcpy(pa, b.data(), n); });
            g.add([&](sycl::handler& h) { h.fill(pa, 'z', n / 4); }, {exp_ext::property::node::depends_on(copy)});
            auto exec = g.finalize();
            q.ext_oneapi_graph(exec).wait();
            REQUIRE(a[0] == 'z');
            REQUIRE(a[n - 1] == 'a');
        }
    }
}

TEST_CASE("memory given back past the quarantine is no longer called freed") {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    // More frees than the quarantine keeps: the oldest go back to the backend and may be reused by anyone.
    std::vector<int*> blocks;
    for (int i = 0; i < 3000; ++i) blocks.push_back(sycl::malloc_host<int>(16, q));
    for (int* p : blocks) sycl::free(p, q);
    std::vector<std::unique_ptr<int[]>> host;
    for (int i = 0; i < 3000; ++i) host.push_back(std::make_unique<int[]>(16));
    int* usm = sycl::malloc_host<int>(16, q);
    for (const auto& h : host) {
        h[0] = 5;
        q.memcpy(usm, h.get(), sizeof(int)).wait(); // never "freed": only quarantined ranges are
    }
    CHECK(usm[0] == 5);
    sycl::free(usm, q);
}

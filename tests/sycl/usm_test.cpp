// Unified shared memory: the allocation functions, free, get_pointer_type/device and usm_allocator, written as
// ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <cstdint>
#include <vector>

#include "support/sycl_host_usm.hpp"
#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

using namespace encore::testing::sycl_kernels;

TEST_CASE("malloc_device, malloc_host and malloc_shared allocate memory of their kind") {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    auto ctx = q.get_context();
    auto dev = q.get_device();
    void* d = sycl::malloc_device(256, q);
    void* h = sycl::malloc_host(256, q);
    void* s = sycl::malloc_shared(256, q);
    float* typed = sycl::malloc_shared<float>(64, dev, ctx);
    void* h2 = sycl::malloc_host(16, ctx);
    void* d2 = sycl::malloc_device(16, dev, ctx);
    void* k = sycl::malloc(32, q, sycl::usm::alloc::shared);
    int* k2 = sycl::malloc<int>(8, dev, ctx, sycl::usm::alloc::device);
    for (void* p : {d, h, s, static_cast<void*>(typed), h2, d2, k, static_cast<void*>(k2)}) REQUIRE(p != nullptr);

    CHECK(sycl::get_pointer_type(d, ctx) == sycl::usm::alloc::device);
    CHECK(sycl::get_pointer_type(h, ctx) == sycl::usm::alloc::host);
    CHECK(sycl::get_pointer_type(s, ctx) == sycl::usm::alloc::shared);
    CHECK(sycl::get_pointer_type(typed + 10, ctx) == sycl::usm::alloc::shared); // interior pointers count
    CHECK(sycl::get_pointer_type(k, ctx) == sycl::usm::alloc::shared);
    CHECK(sycl::get_pointer_type(k2, ctx) == sycl::usm::alloc::device);
    int on_stack = 0;
    CHECK(sycl::get_pointer_type(&on_stack, ctx) == sycl::usm::alloc::unknown);
    CHECK(sycl::get_pointer_type(nullptr, ctx) == sycl::usm::alloc::unknown);
    CHECK(sycl::get_pointer_device(d, ctx) == dev);
    CHECK(sycl::get_pointer_device(s, ctx) == dev);
    CHECK(sycl::get_pointer_device(h, ctx) == ctx.get_devices().front());

    // Another context does not know these allocations.
    sycl::context other{dev};
    CHECK(sycl::get_pointer_type(s, other) == sycl::usm::alloc::unknown);

    for (void* p : {d, h, s, static_cast<void*>(typed), h2, d2, k, static_cast<void*>(k2)}) sycl::free(p, ctx);
    CHECK(sycl::get_pointer_type(s, ctx) == sycl::usm::alloc::unknown);
}

TEST_CASE("aligned allocations honour the alignment; a non-power-of-two alignment gives nullptr") {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    for (std::size_t alignment : {64u, 256u, 4096u}) {
        void* d = sycl::aligned_alloc_device(alignment, 100, q);
        void* h = sycl::aligned_alloc_host(alignment, 100, q);
        void* s = sycl::aligned_alloc_shared(alignment, 100, q);
        double* t = sycl::aligned_alloc_shared<double>(alignment, 10, q);
        void* g = sycl::aligned_alloc(alignment, 100, q, sycl::usm::alloc::host);
        for (void* p : {d, h, s, static_cast<void*>(t), g}) {
            REQUIRE(p != nullptr);
            CHECK(reinterpret_cast<std::uintptr_t>(p) % alignment == 0);
            sycl::free(p, q);
        }
    }
    CHECK(sycl::aligned_alloc_shared(48, 100, q) == nullptr);
    CHECK(sycl::aligned_alloc_host(3, 100, q.get_context()) == nullptr);
}

TEST_CASE("zero-byte and impossible allocations return nullptr") {
    sycl::queue q;
    CHECK(sycl::malloc_shared(0, q) == nullptr);
    CHECK(sycl::malloc_device<int>(0, q) == nullptr);
    CHECK(sycl::malloc_host<double>(SIZE_MAX / 2, q) == nullptr); // count * sizeof overflows
    sycl::free(nullptr, q); // ignored
}

TEST_CASE("kernels read and write device, host and shared memory") {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q{sycl::property::queue::in_order{}};
    constexpr std::size_t n = 512;
    int* d = sycl::malloc_device<int>(n, q);
    int* h = sycl::malloc_host<int>(n, q);
    int* s = sycl::malloc_shared<int>(n, q);
    for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<int>(i);
    q.memcpy(d, h, n * sizeof(int));
    scaled_copy.parallel_for(q, sycl::range<1>{n}, {}, s, d, 3);
    q.wait();
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i) ok = ok && s[i] == 3 * static_cast<int>(i);
    CHECK(ok);
    sycl::free(d, q);
    sycl::free(h, q);
    sycl::free(s, q);
}

TEST_CASE("queues of one device share the default context, so they share allocations") {
    sycl::queue a, b;
    encore::testing::test_memory<int> memory(a, 4); // shared where the device has it
    CHECK(b.get_context() == a.get_context());
    b.fill(memory.get(), 9, 4).wait();
    CHECK(memory.read()[3] == 9);
    int* p = sycl::malloc<int>(4, a, encore::testing::test_memory_kind(a.get_device()));
    CHECK_NOTHROW(sycl::free(p, b)); // b's context frees what a allocated
}

TEST_CASE("usm_allocator backs standard containers with shared or host memory") {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    sycl::usm_allocator<int, sycl::usm::alloc::shared> alloc{q};
    std::vector<int, sycl::usm_allocator<int, sycl::usm::alloc::shared>> v(100, 1, alloc);
    CHECK(sycl::get_pointer_type(v.data(), q.get_context()) == sycl::usm::alloc::shared);
    int* data = v.data();
    add_index.parallel_for(q, sycl::range<1>{v.size()}, {}, data).wait();
    CHECK(v[99] == 100);
    v.resize(1000, 0); // reallocates through the allocator, frees the old block
    CHECK(sycl::get_pointer_type(v.data(), q.get_context()) == sycl::usm::alloc::shared);
    CHECK(v[99] == 100);

    sycl::usm_allocator<double, sycl::usm::alloc::host, 256> host_alloc{q.get_context(), q.get_device()};
    std::vector<double, decltype(host_alloc)> h(10, 0.5, host_alloc);
    CHECK(reinterpret_cast<std::uintptr_t>(h.data()) % 256 == 0);
    CHECK(sycl::get_pointer_type(h.data(), q.get_context()) == sycl::usm::alloc::host);

    sycl::usm_allocator<float, sycl::usm::alloc::shared> rebound{alloc};
    CHECK(rebound == alloc);
    sycl::usm_allocator<int, sycl::usm::alloc::shared> copy = alloc;
    CHECK(copy == alloc);
    CHECK_FALSE(copy != alloc);
    auto moved = std::move(v);
    CHECK(moved[0] == 1);
}

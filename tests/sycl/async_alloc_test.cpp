// sycl_ext_oneapi_async_memory_alloc, eagerly: async_malloc / async_free on in-order and out-of-order queues,
// the handler forms, memory pools (reuse up to the threshold, maximum_size, zero_init, the size queries), and
// the errors. Graph-owned allocations are in graph/graph_async_alloc_test.cpp.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "../support/sycl_error.hpp"
#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

namespace syclex = sycl::ext::oneapi::experimental;

using encore::testing::require_sycl_error;
using encore::testing::test_memory_kind;
using namespace encore::testing::sycl_kernels;

TEST_CASE("async_malloc on an in-order queue: the memory is usable by the next commands, freed after them") {
    sycl::queue q{sycl::property::queue::in_order{}};
    CHECK(q.get_device().has(sycl::aspect::ext_oneapi_async_memory_alloc));
    const std::size_t n = 1000;
    const auto kind = test_memory_kind(q.get_device()); // shared where the device has it
    int* p = static_cast<int*>(syclex::async_malloc(q, kind, n * sizeof(int)));
    REQUIRE(p != nullptr);
    CHECK(sycl::get_pointer_type(p, q.get_context()) == kind);
    q.fill(p, 7, n);
    add_index.parallel_for(q, sycl::range<1>{n}, {}, p);
    std::vector<int> out(n);
    q.memcpy(out.data(), p, n * sizeof(int));
    syclex::async_free(q, p);
    q.wait_and_throw();
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(out[i] == 7 + static_cast<int>(i));
    // Freed: the USM table no longer knows the pointer.
    CHECK(sycl::get_pointer_type(p, q.get_context()) == sycl::usm::alloc::unknown);
}

TEST_CASE("async_free waits for the commands it depends on (out-of-order queue, handler forms)") {
    sycl::queue q;
    std::atomic<bool> release{false};
    // Host USM, which the task below writes, where the device has it; else device USM, which the task leaves alone.
    const bool host_usm = q.get_device().has(sycl::aspect::usm_host_allocations);
    const auto kind = host_usm ? sycl::usm::alloc::host : sycl::usm::alloc::device;
    void* p = nullptr;
    auto alloc = q.submit([&](sycl::handler& h) { p = syclex::async_malloc(h, kind, 64); });
    auto slow = q.submit([&](sycl::handler& h) {
        h.depends_on(alloc);
        h.host_task([&] {
            while (!release.load())
                std::this_thread::yield();
            if (host_usm) static_cast<char*>(p)[0] = 1; // still allocated: the free waits for this task
        });
    });
    auto freed = q.submit([&](sycl::handler& h) {
        h.depends_on(slow);
        syclex::async_free(h, p);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(sycl::get_pointer_type(p, q.get_context()) == kind); // not freed before `slow`
    release = true;
    freed.wait_and_throw();
    CHECK(sycl::get_pointer_type(p, q.get_context()) == sycl::usm::alloc::unknown);
}

TEST_CASE("async_malloc / async_free errors") {
    sycl::queue q{sycl::property::queue::in_order{}};
    require_sycl_error([&] { syclex::async_malloc(q, sycl::usm::alloc::unknown, 16); }, sycl::errc::invalid);
    int* plain = sycl::malloc_device<int>(4, q);
    require_sycl_error([&] { syclex::async_free(q, plain); }, sycl::errc::invalid); // not async_malloc's
    sycl::free(plain, q);
    void* p = syclex::async_malloc(q, sycl::usm::alloc::device, 16);
    syclex::async_free(q, p);
    require_sycl_error([&] { syclex::async_free(q, p); }, sycl::errc::invalid); // twice
    syclex::async_free(q, nullptr);                                        // ignored
    require_sycl_error(
        [&] {
            q.submit([&](sycl::handler& h) {
                syclex::async_malloc(h, sycl::usm::alloc::device, 16);
                h.single_task([] {});
            });
        },
        sycl::errc::invalid); // an allocation is a command group of its own
    q.wait_and_throw();
}

TEST_CASE("memory pools: reuse within the threshold, sizes, maximum_size, zero_init") {
    sycl::queue q{sycl::property::queue::in_order{}};
    const auto kind = test_memory_kind(q.get_device()); // shared where the device has it
    syclex::memory_pool pool(
        q, kind, syclex::properties{syclex::initial_threshold(4096), syclex::maximum_size(8192), syclex::zero_init{}});
    CHECK(pool.get_alloc_kind() == kind);
    CHECK(pool.get_device() == q.get_device());
    CHECK(pool.get_context() == q.get_context());
    CHECK(pool.get_threshold() == 4096);
    CHECK(pool.get_used_size_current() == 0);

    // What the pool's block holds, copied to the host (the host may not reach device memory).
    auto contents = [&](const int* block) {
        std::vector<int> values(256, -1);
        q.memcpy(values.data(), block, 1024).wait();
        return values;
    };
    int* a = static_cast<int*>(syclex::async_malloc_from_pool(q, 1024, pool));
    q.wait();
    CHECK(contents(a) == std::vector<int>(256, 0)); // zero_init
    q.fill(a, 5, 256);
    CHECK(pool.get_used_size_current() == 1024);
    syclex::async_free(q, a);
    q.wait_and_throw();
    CHECK(pool.get_used_size_current() == 0);
    CHECK(pool.get_reserved_size_current() == 1024); // kept for reuse (within the threshold)
    int* b = static_cast<int*>(syclex::async_malloc_from_pool(q, 1024, pool));
    CHECK(b == a); // the kept block, handed out again
    q.wait();
    CHECK(contents(b) == std::vector<int>(256, 0)); // zeroed again
    require_sycl_error([&] { syclex::async_malloc_from_pool(q, 8192, pool); }, sycl::errc::memory_allocation);
    CHECK(pool.get_used_size_current() == 1024); // the refused allocation left nothing behind

    pool.increase_threshold_to(100);
    CHECK(pool.get_threshold() == 4096); // only ever raised
    pool.increase_threshold_to(6000);
    CHECK(pool.get_threshold() == 6000);
    require_sycl_error([&] { pool.increase_threshold_to(10000); }, sycl::errc::invalid); // past maximum_size
    syclex::async_free(q, b);
    q.wait_and_throw();

    syclex::memory_pool no_keep(q, sycl::usm::alloc::device);
    void* c = syclex::async_malloc_from_pool(q, 512, no_keep);
    syclex::async_free(q, c);
    q.wait_and_throw();
    CHECK(no_keep.get_reserved_size_current() == 0); // threshold 0: given back to the device

    sycl::context other;
    require_sycl_error([&] { syclex::memory_pool bad(other, q.get_device(), sycl::usm::alloc::unknown); },
                  sycl::errc::invalid);
    syclex::memory_pool elsewhere(other, q.get_device(), sycl::usm::alloc::device);
    require_sycl_error([&] { syclex::async_malloc_from_pool(q, 16, elsewhere); }, sycl::errc::invalid);
}

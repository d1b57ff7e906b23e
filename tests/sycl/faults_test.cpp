// Faults surface once, through the channel SYCL 2020 gives them, and everything goes on working: kernels and host
// tasks that throw (eagerly and in graph replays), std::bad_alloc inside a node, USM exhaustion, errors without an
// async handler. (Driver failures on CUDA: tests/cuda/cuda_error_test.cpp.)
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <limits>
#include <mutex>
#include <new>
#include <stdexcept>
#include <vector>

#include "support/sycl_host_usm.hpp"
#include "support/sycl_test_memory.hpp"

namespace syclex = sycl::ext::oneapi::experimental;

namespace {
// Every asynchronous error a queue's handler received, as (errc, message).
struct collected_errors {
    std::mutex mutex;
    std::vector<std::pair<sycl::errc, std::string>> seen;
    sycl::async_handler handler() {
        return [this](sycl::exception_list errors) {
            std::lock_guard lock(mutex);
            for (auto& e : errors) {
                try {
                    std::rethrow_exception(e);
                } catch (const sycl::exception& s) {
                    seen.emplace_back(static_cast<sycl::errc>(s.code().value()), s.what());
                } catch (...) {
                    seen.emplace_back(sycl::errc::success, "not a sycl::exception");
                }
            }
        };
    }
    std::size_t count(sycl::errc code) {
        std::lock_guard lock(mutex);
        return static_cast<std::size_t>(std::count_if(seen.begin(), seen.end(), [&](auto& s) { return s.first == code; }));
    }
    std::size_t size() {
        std::lock_guard lock(mutex);
        return seen.size();
    }
};
} // namespace

// Kernels that throw are host code (SYCL lambdas): native, as the next two cases.
TEST_CASE("faults in eager commands reach the async handler once; the queue goes on" * doctest::test_suite("native")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    collected_errors errors;
    sycl::queue q{sycl::default_selector_v, errors.handler()};
    const std::size_t n = 64;
    int* data = sycl::malloc_shared<int>(n, q);
    q.single_task([] { throw std::runtime_error("kernel fault"); });
    q.submit([&](sycl::handler& h) { h.host_task([] { throw std::bad_alloc(); }); });
    q.submit([&](sycl::handler& h) { h.host_task([] { throw 42; }); });
    q.wait_and_throw();
    CHECK(errors.size() == 3);
    CHECK(errors.count(sycl::errc::runtime) == 2);
    CHECK(errors.count(sycl::errc::memory_allocation) == 1);
    q.wait_and_throw(); // reported once: nothing new
    CHECK(errors.size() == 3);

    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { data[i] = static_cast<int>(i[0]); }).wait_and_throw();
    CHECK(data[63] == 63);
    CHECK(errors.size() == 3);
    sycl::free(data, q);
}

// Kernels that throw (host code): native.
TEST_CASE("faults in graph nodes: each replay reports once, the other nodes run, the graph replays again"
          * doctest::test_suite("native")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    collected_errors errors;
    sycl::queue q{sycl::default_selector_v, errors.handler(), sycl::property::queue::in_order{}};
    const std::size_t n = 32;
    int* data = sycl::malloc_shared<int>(n, q);
    syclex::command_graph g{q};
    g.begin_recording(q);
    q.fill(data, 0, n);
    q.submit([&](sycl::handler& h) { h.host_task([] { throw std::bad_alloc(); }); });
    q.single_task([] { throw std::logic_error("node fault"); });
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { data[i] += 5; }); // after both faults
    g.end_recording();
    auto exec = g.finalize();
    for (int run = 1; run <= 3; ++run) {
        q.ext_oneapi_graph(exec);
        q.wait_and_throw();
        CHECK(errors.size() == 2 * static_cast<std::size_t>(run));
        for (std::size_t i = 0; i < n; ++i) REQUIRE(data[i] == 5);
    }
    CHECK(errors.count(sycl::errc::memory_allocation) == 3);
    CHECK(errors.count(sycl::errc::runtime) == 3);
    sycl::free(data, q);
}

// Kernels that throw (host code): native.
TEST_CASE("without an async handler: the first fault is rethrown once as a sycl::exception"
          * doctest::test_suite("native")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    q.single_task([] { throw std::bad_alloc(); }).wait();
    try {
        q.wait_and_throw();
        FAIL("the fault was lost");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::memory_allocation);
        try {
            std::rethrow_if_nested(e);
            FAIL("the original exception is not nested");
        } catch (const std::bad_alloc&) {
        }
    }
    q.wait_and_throw(); // surfaced once
    int* p = sycl::malloc_shared<int>(1, q);
    q.single_task([=] { *p = 7; }).wait_and_throw();
    CHECK(*p == 7);
    sycl::free(p, q);
}

TEST_CASE("USM exhaustion: allocations answer nullptr (or memory_allocation for async_malloc), nothing breaks") {
    sycl::queue q{sycl::property::queue::in_order{}};
    const std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
    CHECK(sycl::malloc_device(huge, q) == nullptr);
    CHECK(sycl::malloc_shared(huge, q) == nullptr);
    CHECK(sycl::malloc_host(huge, q) == nullptr);
    CHECK(sycl::aligned_alloc_device(64, huge, q) == nullptr);
    try {
        syclex::async_malloc(q, sycl::usm::alloc::device, huge);
        FAIL("async_malloc of an impossible size succeeded");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::memory_allocation);
    }
    // A graph that fails to allocate is left as it was.
    syclex::command_graph g{q};
    try {
        g.add([&](sycl::handler& h) { syclex::async_malloc(h, sycl::usm::alloc::device, huge); });
        FAIL("a graph allocation of an impossible size succeeded");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::memory_allocation);
    }
    CHECK(g.get_nodes().empty());
    encore::testing::test_memory<int> memory(q, 16); // throws where there is no memory
    q.fill(memory.get(), 3, 16).wait_and_throw();
    CHECK(memory.read()[15] == 3);
}

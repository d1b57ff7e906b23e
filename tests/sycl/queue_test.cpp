// sycl::queue and sycl::handler: construction, properties, shortcuts, command groups, host tasks and the async
// handler, written as ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "support/sycl_host_usm.hpp"
#include "support/sycl_test_memory.hpp"

#include "order_log.hpp"

// What the default device is (the native CPU): native.
TEST_CASE("queues are made from the default device, a selector, a device or a context and device"
          * doctest::test_suite("native")) {
    sycl::queue by_default;
    CHECK(by_default.get_device() == sycl::device());
    CHECK(by_default.get_backend() == sycl::backend::ext_oneapi_native_cpu);
    CHECK_FALSE(by_default.is_in_order());

    sycl::queue by_selector{sycl::cpu_selector_v};
    CHECK(by_selector.get_device().is_cpu());
    // Queues made without a context share their platform's default context, and so their USM allocations.
    CHECK(by_selector.get_context() == by_default.get_context());

    sycl::device d;
    sycl::queue by_device{d};
    CHECK(by_device.get_device() == d);
    CHECK(by_device.get_info<sycl::info::queue::device>() == d);
    CHECK(by_device.get_info<sycl::info::queue::context>() == by_device.get_context());

    sycl::context c{d};
    sycl::queue in_context{c, d};
    CHECK(in_context.get_context() == c);
    CHECK_FALSE(in_context.get_context() == by_default.get_context());
    sycl::queue in_context_by_selector{c, sycl::default_selector_v};
    CHECK(in_context_by_selector.get_context() == c);

    CHECK_THROWS_AS(sycl::queue{sycl::gpu_selector_v}, sycl::exception); // no GPU backend in this test
    CHECK(by_default == by_default);
    sycl::queue copy = by_default;
    CHECK(copy == by_default);
    CHECK_FALSE(copy == by_device);
}

TEST_CASE("queue properties: in_order and enable_profiling") {
    sycl::queue q{sycl::property_list{sycl::property::queue::in_order{}, sycl::property::queue::enable_profiling{}}};
    CHECK(q.is_in_order());
    CHECK(q.has_property<sycl::property::queue::in_order>());
    CHECK(q.has_property<sycl::property::queue::enable_profiling>());
    sycl::queue plain{sycl::default_selector_v, sycl::property::queue::in_order{}};
    CHECK(plain.is_in_order());
    CHECK_FALSE(plain.has_property<sycl::property::queue::enable_profiling>());
    try {
        (void)plain.get_property<sycl::property::queue::enable_profiling>();
        FAIL("get_property of a property the queue does not have");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
    }
}

TEST_CASE("an in-order queue runs its command groups one after the other") {
    sycl::queue q{sycl::property::queue::in_order{}};
    order_log log;
    for (int i = 0; i < 5; ++i)
        q.submit([&](sycl::handler& h) {
            h.host_task([&log, i] {
                if (i % 2 == 0) nap(); // the slow ones would be overtaken if the queue did not order them
                log.add(i);
            });
        });
    q.wait();
    CHECK(log.order == std::vector<int>{0, 1, 2, 3, 4});
}

TEST_CASE("depends_on orders command groups of an out-of-order queue") {
    sycl::queue q;
    order_log log;
    auto first = q.submit([&](sycl::handler& h) {
        h.host_task([&] {
            nap();
            log.add(1);
        });
    });
    auto second = q.submit([&](sycl::handler& h) {
        h.depends_on(first);
        h.host_task([&] {
            nap();
            log.add(2);
        });
    });
    q.submit([&](sycl::handler& h) {
        h.depends_on({first, second});
        h.host_task([&] { log.add(3); });
    });
    q.wait();
    CHECK(log.order == std::vector<int>{1, 2, 3});
}

// The queue shortcuts for kernels take SYCL lambdas (host-compiled); kernels that throw are host code too: native.
TEST_CASE("queue shortcuts: memset, fill, memcpy, copy, single_task and parallel_for with dependencies"
          * doctest::test_suite("native")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    constexpr std::size_t n = 1000;
    int* a = sycl::malloc_shared<int>(n, q);
    int* b = sycl::malloc_device<int>(n, q);
    int* c = sycl::malloc_host<int>(n, q);
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(c);

    auto zeroed = q.memset(a, 0, n * sizeof(int));
    auto filled = q.fill(b, 7, n, zeroed);
    auto counted = q.parallel_for(sycl::range<1>{n}, filled, [=](sycl::id<1> i) { a[i] = b[i] + static_cast<int>(i); });
    auto copied = q.memcpy(c, a, n * sizeof(int), counted);
    auto tail = q.single_task(std::vector<sycl::event>{copied}, [=] { c[0] = -1; });
    tail.wait();
    CHECK(c[0] == -1);
    bool all = true;
    for (std::size_t i = 1; i < n; ++i) all = all && c[i] == 7 + static_cast<int>(i);
    CHECK(all);

    q.copy(c, a, n).wait();
    CHECK(a[0] == -1);
    CHECK(a[n - 1] == 7 + static_cast<int>(n - 1));
    q.single_task([=] { a[1] = 42; }).wait();
    CHECK(a[1] == 42);
    q.prefetch(a, n * sizeof(int)).wait();
    q.mem_advise(a, n * sizeof(int), 0).wait();

    sycl::free(a, q);
    sycl::free(b, q);
    sycl::free(c, q);
}

TEST_CASE("the handler's USM commands: memcpy, copy, memset, fill, prefetch, mem_advise") {
    sycl::queue q{sycl::property::queue::in_order{}};
    constexpr std::size_t n = 64;
    encore::testing::test_memory<double> x_memory(q, n), y_memory(q, n);
    double *x = x_memory.get(), *y = y_memory.get();
    q.submit([&](sycl::handler& h) { h.fill(x, 2.5, n); });
    q.submit([&](sycl::handler& h) { h.memset(y, 0, n * sizeof(double)); });
    q.submit([&](sycl::handler& h) { h.prefetch(x, n * sizeof(double)); });
    q.submit([&](sycl::handler& h) { h.mem_advise(x, n * sizeof(double), 0); });
    q.submit([&](sycl::handler& h) { h.copy(x, y, n / 2); });
    q.wait();
    const auto copied = y_memory.read();
    CHECK(copied[0] == 2.5);
    CHECK(copied[n / 2 - 1] == 2.5);
    CHECK(copied[n / 2] == 0.0);
    q.submit([&](sycl::handler& h) { h.memcpy(x, y + n / 2, sizeof(double)); }).wait();
    const auto after_memcpy = x_memory.read();
    CHECK(after_memcpy[0] == 0.0);
    CHECK(after_memcpy[1] == 2.5);
}

TEST_CASE("a command group holds one command") {
    sycl::queue q;
    encore::testing::test_memory<int> memory(q, 4);
    int* p = memory.get();
    try {
        q.submit([&](sycl::handler& h) {
            h.memset(p, 0, 4 * sizeof(int));
            h.single_task([=] { p[0] = 1; });
        });
        FAIL("two commands in one group");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
        CHECK(std::string(e.what()).find("one command") != std::string::npos);
    }
    // A group without a command completes once its dependencies have.
    std::atomic<int> written{0};
    auto slow = q.submit([&](sycl::handler& h) {
        h.host_task([&written] {
            nap();
            written = 5;
        });
    });
    q.submit([&](sycl::handler& h) { h.depends_on(slow); }).wait();
    CHECK(written == 5);
    q.wait();
}

TEST_CASE("host tasks, with and without an interop_handle") {
    sycl::queue q;
    std::atomic<int> ran{0};
    sycl::backend seen = sycl::backend::ext_oneapi_hip; // none of the backends the suites run on
    REQUIRE(q.get_backend() != seen);
    q.submit([&](sycl::handler& h) { h.host_task([&] { ++ran; }); });
    q.submit([&](sycl::handler& h) {
        h.host_task([&](sycl::interop_handle ih) {
            seen = ih.get_backend();
            ++ran;
        });
    });
    q.wait();
    CHECK(ran == 2);
    CHECK(seen == q.get_backend());
}

TEST_CASE("ext_oneapi_submit_barrier waits for everything before it, or for the events given") {
    sycl::queue q;
    order_log log;
    auto a = q.submit([&](sycl::handler& h) {
        h.host_task([&] {
            nap();
            log.add(1);
        });
    });
    auto barrier = q.ext_oneapi_submit_barrier();
    q.submit([&](sycl::handler& h) {
        h.depends_on(barrier);
        h.host_task([&] { log.add(2); });
    });
    q.wait();
    auto b = q.submit([&](sycl::handler& h) {
        h.host_task([&] {
            nap();
            log.add(3);
        });
    });
    auto only_b = q.ext_oneapi_submit_barrier({b});
    q.submit([&](sycl::handler& h) {
        h.depends_on(only_b);
        h.host_task([&] { log.add(4); });
    });
    q.wait();
    CHECK(log.order == std::vector<int>{1, 2, 3, 4});
    (void)a;
}

// Kernels that throw (host code): native.
TEST_CASE("errors thrown by kernels and host tasks reach the queue's async handler" * doctest::test_suite("native")) {
    std::vector<std::string> seen;
    sycl::async_handler handler = [&](sycl::exception_list errors) {
        for (const auto& e : errors) try {
                std::rethrow_exception(e);
            } catch (const std::exception& x) {
                seen.push_back(x.what());
            }
    };
    {
        sycl::queue q{handler};
        q.submit([&](sycl::handler& h) { h.host_task([] { throw std::runtime_error("host task failed"); }); });
        q.single_task([] { throw std::runtime_error("kernel failed"); });
        q.wait();
        CHECK(seen.empty()); // wait() does not hand errors over
        q.wait_and_throw();
        CHECK(seen.size() == 2);
        q.throw_asynchronous(); // nothing is left
        CHECK(seen.size() == 2);
    }
    // A context's handler serves queues made without one.
    seen.clear();
    sycl::context c{sycl::device{}, handler};
    sycl::queue q{c, sycl::device{}};
    q.single_task([] { throw std::runtime_error("in the context"); });
    q.wait_and_throw();
    REQUIRE(seen.size() == 1);
    CHECK(seen[0] == "a kernel or host task threw: in the context"); // a sycl::exception, the original nested
}

// Kernels that throw (host code): native.
TEST_CASE("without an async handler, wait_and_throw rethrows what the work threw as sycl::exception (Encore's choice)"
          * doctest::test_suite("native")) {
    sycl::queue q;
    q.single_task([] { throw std::runtime_error("lost?"); });
    CHECK_THROWS_WITH_AS(q.wait_and_throw(), "a kernel or host task threw: lost?", sycl::exception);
    CHECK_NOTHROW(q.wait_and_throw());
    auto e = q.single_task([] { throw std::runtime_error("via the event"); });
    CHECK_THROWS_WITH_AS(e.wait_and_throw(), "a kernel or host task threw: via the event", sycl::exception);
}

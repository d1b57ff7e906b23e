// sycl::event: wait, status and profiling information, written as ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

using namespace encore::testing::sycl_kernels;
using encore::testing::test_memory;

TEST_CASE("an event's status moves from submitted or running to complete; wait blocks until then") {
    sycl::queue q;
    std::atomic<bool> release{false};
    auto e = q.submit([&](sycl::handler& h) {
        h.host_task([&] {
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
    });
    auto status = e.get_info<sycl::info::event::command_execution_status>();
    CHECK(status != sycl::info::event_command_status::complete);
    auto after = q.submit([&](sycl::handler& h) {
        h.depends_on(e);
        h.host_task([] {});
    });
    CHECK(after.get_info<sycl::info::event::command_execution_status>() != sycl::info::event_command_status::complete);
    release = true;
    after.wait();
    CHECK(e.get_info<sycl::info::event::command_execution_status>() == sycl::info::event_command_status::complete);
    CHECK(after.get_info<sycl::info::event::command_execution_status>() == sycl::info::event_command_status::complete);
    CHECK(e.get_backend() == q.get_backend());
}

TEST_CASE("a default-constructed event is complete; static wait takes a list") {
    sycl::event none;
    CHECK(none.get_info<sycl::info::event::command_execution_status>() == sycl::info::event_command_status::complete);
    none.wait();
    none.wait_and_throw();
    sycl::queue q;
    test_memory<int> memory(q, 2);
    int* p = memory.get();
    auto a = set_to.single_task(q, {}, p, 1);
    auto b = set_to.single_task(q, {}, p + 1, 2);
    sycl::event::wait({a, b, none});
    const auto seen = memory.read();
    CHECK(seen[0] + seen[1] == 3);
    sycl::event::wait_and_throw({a, b});
    CHECK(a == a);
    CHECK_FALSE(a == b);
}

TEST_CASE("profiling: submit <= start <= end on a queue with enable_profiling") {
    sycl::queue q{sycl::property::queue::enable_profiling{}};
    test_memory<int> memory(q, 1 << 16);
    auto e = index_times.parallel_for(q, sycl::range<1>{1 << 16}, {}, memory.get(), 1);
    // get_profiling_info waits for the command itself.
    const auto submit = e.get_profiling_info<sycl::info::event_profiling::command_submit>();
    const auto start = e.get_profiling_info<sycl::info::event_profiling::command_start>();
    const auto end = e.get_profiling_info<sycl::info::event_profiling::command_end>();
    CHECK(submit <= start);
    CHECK(start <= end);
    CHECK(end > 0);
    auto host = q.submit([&](sycl::handler& h) { h.host_task([] {}); });
    CHECK(host.get_profiling_info<sycl::info::event_profiling::command_start>() <=
          host.get_profiling_info<sycl::info::event_profiling::command_end>());
}

TEST_CASE("profiling information without enable_profiling is errc::invalid") {
    sycl::queue q;
    sycl::event e;
    {
        test_memory<int> memory(q, 1);
        e = set_to.single_task(q, {}, memory.get(), 0);
        e.wait();
    } // the memory goes before the event is asked
    try {
        (void)e.get_profiling_info<sycl::info::event_profiling::command_start>();
        FAIL("profiling info from a queue without enable_profiling");
    } catch (const sycl::exception& x) {
        CHECK(x.code() == sycl::errc::invalid);
        CHECK(std::string(x.what()).find("enable_profiling") != std::string::npos);
    }
    CHECK_THROWS_AS((void)e.get_profiling_info<sycl::info::event_profiling::command_submit>(), sycl::exception);
    CHECK_THROWS_AS((void)e.get_profiling_info<sycl::info::event_profiling::command_end>(), sycl::exception);
    sycl::event none;
    CHECK_THROWS_AS((void)none.get_profiling_info<sycl::info::event_profiling::command_end>(), sycl::exception);
}

// A kernel that throws is host code (a SYCL lambda): native.
TEST_CASE("event::wait_and_throw hands the queue's errors to its async handler" * doctest::test_suite("native")) {
    int handled = 0;
    sycl::queue q{[&](sycl::exception_list errors) { handled += static_cast<int>(errors.size()); }};
    auto e = q.single_task([] { throw sycl::exception(sycl::errc::kernel, "from the kernel"); });
    e.wait();
    CHECK(handled == 0);
    e.wait_and_throw();
    CHECK(handled == 1);
}

// What kernels and host tasks throw reaches the user through the queue (async handler or wait_and_throw),
// never terminates the process, and never stops dependent work (the failed command's event completes, as in
// SYCL).
#include <doctest/doctest.h>

#include <stdexcept>

#include "runtime_support.hpp"

using namespace encore;
using namespace encore::testing;

namespace {
std::shared_ptr<const kernel> throwing_kernel(std::size_t bad_item) {
    return make_kernel("throws", [bad_item](const work_item& it) {
        if (it.global_id[0] == bad_item)
            throw std::runtime_error("item " + std::to_string(bad_item) + " failed");
    });
}

std::string message_of(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        return x.what();
    } catch (...) {
        return "?";
    }
}
} // namespace

TEST_CASE("wait_and_throw rethrows what a kernel threw, with its own type") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        if (!runs_host_kernels(d)) { // device code cannot throw
            MESSAGE(host_kernels_skip_reason(d));
            continue;
        }
        queue q(d);
        for (std::size_t items : {std::size_t(8), std::size_t(100000)}) { // inline and parallel launches
            q.parallel_for(range(items), throwing_kernel(items / 2));
            CHECK_THROWS_WITH_AS(q.wait_and_throw(),
                                 ("item " + std::to_string(items / 2) + " failed").c_str(),
                                 std::runtime_error);
            q.wait_and_throw(); // reported once
        }
    }
}

TEST_CASE("the async handler receives what host tasks and kernels threw") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        if (!runs_host_kernels(d)) { // device code cannot throw
            MESSAGE(host_kernels_skip_reason(d));
            continue;
        }
        std::vector<std::string> received;
        queue q(d, {}, [&](exception_list errors) {
            for (auto& e : errors)
                received.push_back(message_of(e));
        });
        q.host_task([] { throw std::logic_error("host task failed"); });
        q.parallel_for(range(4), throwing_kernel(3));
        q.wait();
        CHECK(received.empty()); // wait() reports nothing
        q.throw_asynchronous();
        REQUIRE(received.size() == 2);
        std::sort(received.begin(), received.end());
        CHECK(received[0] == "host task failed");
        CHECK(received[1] == "item 3 failed");
    }
}

TEST_CASE("without a handler the first error is rethrown and the rest dropped") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d, {.in_order = true});
        q.host_task([] { throw std::runtime_error("first"); });
        q.host_task([] { throw std::runtime_error("second"); });
        CHECK_THROWS_WITH(q.wait_and_throw(), "first");
        CHECK_NOTHROW(q.wait_and_throw());
    }
}

TEST_CASE("commands that depend on a failed command still run") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        int after = 0;
        auto failed = q.host_task([] { throw std::runtime_error("boom"); });
        auto dependent = q.host_task([&] { after = 1; }, failed);
        dependent.wait();
        CHECK(failed.is_complete());
        CHECK(after == 1);
        CHECK_THROWS_WITH(q.wait_and_throw(), "boom");
    }
}

TEST_CASE("encore::error thrown by a kernel keeps its errc") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        if (!runs_host_kernels(d)) { // device code cannot throw
            MESSAGE(host_kernels_skip_reason(d));
            continue;
        }
        queue q(d);
        q.parallel_for(range(1),
                       [](const work_item&) { throw encore::error(errc::backend_failure, "device lost"); });
        try {
            q.wait_and_throw();
            FAIL("nothing thrown");
        } catch (const encore::error& e) {
            CHECK(e.code() == errc::backend_failure);
        }
    }
}

TEST_CASE(
    "a failing node of an executable graph is reported at each launch and does not stop its successors") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> x(1, d);
        graph g;
        auto a = g.add(add_command(d, x.data(), 1, 1));
        // A kernel that throws where device code can (host-compiled kernels), else an empty node.
        const bool kernel_throws = runs_host_kernels(d);
        auto bad = kernel_throws ? g.add(kernel_command{throwing_kernel(0), {}, range(1)}, {a})
                                 : g.add(empty_command{}, {a});
        auto host = g.add(host_task_command{[] { throw std::runtime_error("host node"); }}, {bad});
        g.add(add_command(d, x.data(), 10, 1), {host});
        executable_graph exec(g, d);
        int reports = 0;
        queue q(d, {}, [&](exception_list errors) { reports += static_cast<int>(errors.size()); });
        for (int launch = 1; launch <= 3; ++launch) {
            q.launch(exec).wait();
            CHECK(x[0] == 11 * launch);
            q.throw_asynchronous();
            CHECK(reports == (kernel_throws ? 2 : 1) * launch);
        }
    }
}

TEST_CASE("a queue that goes away hands unreported errors to its handler") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        int handled = 0;
        {
            queue q(d, {}, [&](exception_list errors) { handled += static_cast<int>(errors.size()); });
            q.host_task([] { throw std::runtime_error("late"); });
        }
        CHECK(handled == 1);
        {
            // A handler that throws while the queue is destroyed must not terminate the program.
            queue q(d, {}, [](exception_list) { throw std::runtime_error("handler"); });
            q.host_task([] { throw std::runtime_error("late"); });
        }
        {
            queue q(d); // no handler: errors are dropped
            q.host_task([] { throw std::runtime_error("late"); });
        }
    }
}

// Updating an executable graph between launches: kernel arguments and ranges of one node (node update), every
// command from a graph of the same shape (whole-graph update), the rules that refuse an update, and an update
// issued while a launch is in flight.
#include <doctest/doctest.h>

#include <thread>

#include "runtime_support.hpp"
#include "support/error_code.hpp"

using namespace encore;
using namespace encore::testing;

TEST_CASE("kernel arguments and ranges of a node can be updated between launches") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> a(64, d), b(64, d);
        graph g;
        auto k = g.add(add_command(d, a.data(), 1, 16));
        auto h = g.add(host_task_command{[] {}}, {k});
        g.add(add_command(d, a.data() + 32, 1, 1), {h});
        executable_graph exec(g, d);
        queue q(d);
        q.launch(exec).wait();
        CHECK(a[0] == 1);
        CHECK(a[15] == 1);
        CHECK(a[16] == 0);

        exec.update_arguments(k, {kernel_argument::from_pointer(b.data()), kernel_argument::from_scalar(5)});
        q.launch(exec).wait();
        CHECK(a[0] == 1); // untouched now
        CHECK(b[0] == 5);
        CHECK(b[15] == 5);

        exec.update_range(k, range(64));
        q.launch(exec).wait();
        CHECK(b[0] == 10);
        CHECK(b[63] == 5);
        CHECK(a[32] == 3); // the other nodes ran every time
        q.wait_and_throw();
    }
}

TEST_CASE("commands of other kinds can be updated too") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> x(8, d);
        int host_value = 0;
        graph g;
        auto set = g.add(memset_command{x.data(), 1, 8 * sizeof(int)});
        auto host = g.add(host_task_command{[&] { host_value = 1; }}, {set});
        executable_graph exec(g, d);
        queue q(d);
        q.launch(exec).wait();
        CHECK(x[0] == 0x01010101);
        CHECK(host_value == 1);
        exec.update(set, memset_command{x.data(), 2, 4 * sizeof(int)});
        exec.update(host, host_task_command{[&] { host_value = 2; }});
        q.launch(exec).wait();
        CHECK(x[0] == 0x02020202);
        CHECK(x[4] == 0x01010101);
        CHECK(host_value == 2);
    }
}

TEST_CASE("whole-graph update takes every command from a graph of the same shape") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> a(16, d), b(16, d);
        auto build = [&](int* target, int value) {
            graph g;
            auto first = g.add(memset_command{target, 0, 16 * sizeof(int)});
            auto child = std::make_shared<graph>();
            child->add(add_command(d, target, value, 16));
            g.add(subgraph_command{child}, {first});
            return g;
        };
        graph original = build(a.data(), 1);
        executable_graph exec(original, d);
        queue q(d);
        q.launch(exec).wait();
        CHECK(a[15] == 1);
        exec.update(build(b.data(), 7));
        q.launch(exec).wait();
        CHECK(b[15] == 7);
        CHECK(a[15] == 1);
        // Node update of a subgraph node: the child is replaced by one of the same shape.
        auto child = std::make_shared<graph>();
        child->add(add_command(d, b.data(), 100, 16));
        exec.update(original.node_at(1), subgraph_command{child});
        q.launch(exec).wait();
        CHECK(b[0] == 100);
        q.wait_and_throw();
    }
}

TEST_CASE("updates that would change the graph's shape or a kernel's identity are refused") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> x(16, d);
        graph g;
        auto k = g.add(add_command(d, x.data(), 1, 16));
        auto m = g.add(memset_command{x.data(), 0, 4}, {k});
        executable_graph exec(g, d);
        CHECK(code_of([&] { exec.update(k, memset_command{x.data(), 0, 4}); }) == errc::invalid_argument);
        CHECK(code_of([&] {
                  exec.update(k, kernel_command{kernels_for(d).scale,
                                                {kernel_argument::from_pointer(x.data()),
                                                 kernel_argument::from_scalar(1)},
                                                range(16)});
              }) == errc::invalid_argument);
        CHECK(code_of([&] { exec.update_range(k, range(4, 4)); }) == errc::invalid_argument);
        CHECK(code_of([&] { exec.update_arguments(m, {}); }) == errc::invalid_argument);
        CHECK(code_of([&] { exec.update_range(m, range(4)); }) == errc::invalid_argument);
        CHECK(code_of([&] { exec.update(m, memset_command{nullptr, 0, 4}); }) == errc::invalid_argument);

        graph other;
        auto foreign = other.add(empty_command{});
        CHECK(code_of([&] { exec.update(foreign, empty_command{}); }) == errc::foreign_node);
        CHECK(code_of([&] { exec.update(node{g.id(), 99}, empty_command{}); }) == errc::unknown_node);

        graph longer;
        auto l1 = longer.add(add_command(d, x.data(), 1, 16));
        auto l2 = longer.add(memset_command{x.data(), 0, 4}, {l1});
        longer.add(empty_command{}, {l2});
        CHECK(code_of([&] { exec.update(longer); }) == errc::topology_mismatch);
        graph unlinked;
        unlinked.add(add_command(d, x.data(), 1, 16));
        unlinked.add(memset_command{x.data(), 0, 4});
        CHECK(code_of([&] { exec.update(unlinked); }) == errc::topology_mismatch);

        // Nothing above changed anything.
        queue q(d);
        q.launch(exec).wait();
        CHECK(x[15] == 1);
    }
}

TEST_CASE("an update waits for the launch in flight, which keeps the old commands") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> a(1, d), b(1, d);
        gate release;
        graph g;
        auto wait = g.add(host_task_command{[&] { release.wait(); }});
        auto k = g.add(add_command(d, a.data(), 1, 1), {wait});
        executable_graph exec(g, d);
        queue q(d);
        auto in_flight = q.launch(exec);
        std::thread updater([&] {
            exec.update_arguments(k,
                                  {kernel_argument::from_pointer(b.data()), kernel_argument::from_scalar(1)});
        });
        release.open();
        updater.join();
        CHECK(in_flight.is_complete()); // the update returned only after the launch had completed
        CHECK(a[0] == 1);
        CHECK(b[0] == 0);
        q.launch(exec).wait();
        CHECK(a[0] == 1);
        CHECK(b[0] == 1);
    }
}

TEST_CASE("replace gives a kernel node another kernel and range; update refuses that") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> a(16, d);
        graph g;
        auto k = g.add(add_command(d, a.data(), 1, 16));
        executable_graph exec(g, d);
        queue q(d);
        q.launch(exec).wait();
        CHECK(a[15] == 1);
        int* data = a.data();
        kernel_command replacement{kernels_for(d).set_2d,
                                   {kernel_argument::from_pointer(data), kernel_argument::from_scalar(9),
                                    kernel_argument::from_scalar(4u)},
                                   range(4, 4)};
        CHECK_THROWS_AS(exec.update(k, replacement), error); // update keeps the kernel
        exec.replace(k, replacement);
        q.launch(exec).wait();
        CHECK(a[15] == 9);
        CHECK_THROWS_AS(exec.replace(k, memset_command{data, 0, 4}), error); // still a kernel node
        q.wait_and_throw();
    }
}

// Updating executable graphs on the Level Zero backend: the test driver has no mutable command lists, so an
// update marks the partition's main list stale and the next launch records it again (ENCORE_TRACE says so).
#include <doctest/doctest.h>

#include "level_zero_support.hpp"

using namespace encore;
using namespace encore::level_zero_testing;

TEST_CASE("update_arguments and update_range of a kernel node") {
    const device d = level_zero_device();
    queue q(d, {.in_order = true});
    usm<int> a(1024), b(1024);
    graph g;
    auto k =
        g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(512)});
    executable_graph exec(g, d);
    q.launch(exec).wait();
    CHECK(a[0] == 1);
    CHECK(a[600] == 0);
    exec.update_arguments(k, {kernel_argument::from_pointer(b.data())});
    q.launch(exec).wait();
    CHECK(a[0] == 1);
    CHECK(b[0] == 1);
    exec.update_range(k, range(1024));
    q.launch(exec).wait();
    CHECK(b[0] == 2);
    CHECK(b[1000] == 1);
    CHECK(a[0] == 1);
}

TEST_CASE("an update in the middle of a chain keeps the chain's order, and memcpy nodes update too") {
    const device d = level_zero_device();
    queue q(d, {.in_order = true});
    usm<int> a(64), b(64), c(64);
    graph g;
    auto set = g.add(memset_command{a.data(), 0, 64 * sizeof(int)});
    auto bump = g.add(
        kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(64)}, {set});
    auto copy = g.add(memcpy_command{b.data(), a.data(), 64 * sizeof(int)}, {bump});
    executable_graph exec(g, d);
    q.launch(exec).wait();
    CHECK(b[3] == 1);
    exec.update(copy, memcpy_command{c.data(), a.data(), 64 * sizeof(int)});
    exec.replace(bump, kernel_command{
                           test_kernel("copy_plus_one"),
                           {kernel_argument::from_pointer(a.data()), kernel_argument::from_pointer(b.data())},
                           range(64)});
    q.launch(exec).wait();
    CHECK(a[3] == 2); // b (1) + 1, after the memset
    CHECK(c[3] == 2);
}

TEST_CASE("whole-graph update takes every command from a graph of the same shape") {
    const device d = level_zero_device();
    queue q(d, {.in_order = true});
    usm<int> a(32), b(32);
    auto build = [&](int* x) {
        graph g;
        auto m = g.add(memset_command{x, 0, 32 * sizeof(int)});
        auto k =
            g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(x)}, range(32)}, {m});
        g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(x)}, range(32)}, {k});
        return g;
    };
    graph ga = build(a.data()), gb = build(b.data());
    executable_graph exec(ga, d);
    q.launch(exec).wait();
    CHECK(a[0] == 2);
    exec.update(gb);
    q.launch(exec).wait();
    CHECK(b[31] == 2);
    a[0] = 9;
    q.launch(exec).wait();
    CHECK(a[0] == 9); // untouched: the graph now works on b
}

// Graphs on the Level Zero backend: each device partition is the design's command-list chain (reset, prefix,
// main, suffix) on a command queue of its own. Chains replay in order, fan-out/fan-in joins, partitions
// around host tasks wait for them, independent partitions run at the same time, launches carry profiling.
#include <doctest/doctest.h>

#include <atomic>
#include <vector>

#include "level_zero_support.hpp"

using namespace encore;
using namespace encore::level_zero_testing;

namespace {
kernel_command add_one(int* x, std::size_t n) {
    return kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(x)}, range(n)};
}
kernel_command copy_plus_one(int* to, int* from, std::size_t n) {
    return kernel_command{test_kernel("copy_plus_one"),
                          {kernel_argument::from_pointer(to), kernel_argument::from_pointer(from)},
                          range(n)};
}
} // namespace

TEST_CASE("a chain of kernels, replayed in order") {
    const device d = level_zero_device();
    queue q(d, {.in_order = true});
    usm<int> a(512), b(512);
    graph g;
    auto prev = g.add(memset_command{a.data(), 0, 512 * sizeof(int)});
    for (int i = 0; i < 10; ++i) {
        prev = g.add(copy_plus_one(b.data(), a.data(), 512), {prev});
        prev = g.add(copy_plus_one(a.data(), b.data(), 512), {prev});
    }
    executable_graph exec(g, d);
    for (int replay = 0; replay < 3; ++replay) {
        q.launch(exec).wait();
        REQUIRE(a[0] == 20);
        REQUIRE(a[511] == 20);
    }
    for (int replay = 0; replay < 5; ++replay)
        q.launch(exec); // back to back: ordered by the in-order queue
    q.wait_and_throw();
    CHECK(a[100] == 20);
}

TEST_CASE("fan-out and fan-in with every device command kind") {
    const device d = level_zero_device();
    queue q(d);
    constexpr std::size_t n = 256, branches = 16;
    usm<int> src(n), total(n);
    std::vector<std::unique_ptr<usm<int>>> outs;
    for (std::size_t i = 0; i < branches; ++i)
        outs.push_back(std::make_unique<usm<int>>(n));
    usm<int> staged(n, memory_kind::device);
    graph g;
    auto root = g.add(fill_command{src.data(), std::vector<std::byte>(sizeof(int), std::byte{0}), n});
    auto bump = g.add(add_one(src.data(), n), {root});
    std::vector<node> joins;
    for (std::size_t i = 0; i < branches; ++i)
        joins.push_back(g.add(copy_plus_one(outs[i]->data(), src.data(), n), {bump}));
    auto barrier = g.add(barrier_command{}, joins);
    auto copy = g.add(memcpy_command{staged.data(), outs[branches - 1]->data(), n * sizeof(int)}, {barrier});
    auto back = g.add(memcpy_command{total.data(), staged.data(), n * sizeof(int)}, {copy});
    g.add(prefetch_command{total.data(), n * sizeof(int)}, {back});
    executable_graph exec(g, d);
    for (int replay = 0; replay < 4; ++replay) {
        q.launch(exec).wait();
        for (std::size_t i = 0; i < branches; ++i)
            REQUIRE((*outs[i])[n - 1] == 2);
        REQUIRE(total[0] == 2);
    }
}

TEST_CASE("partitions around host tasks wait for them, and the launch waits for every tail") {
    const device d = level_zero_device();
    queue q(d, {.in_order = true});
    usm<int> a(128);
    std::atomic<int> seen{-1};
    graph g;
    auto first = g.add(memset_command{a.data(), 0, 128 * sizeof(int)});
    auto k1 = g.add(add_one(a.data(), 128), {first});
    auto host = g.add(host_task_command{[&] { seen = a[5]; }}, {k1});
    auto k2 = g.add(add_one(a.data(), 128), {host});
    g.add(add_one(a.data(), 128), {k2});
    executable_graph exec(g, d);
    for (int replay = 0; replay < 3; ++replay) {
        seen = -1;
        q.launch(exec).wait();
        CHECK(seen.load() == 1);
        CHECK(a[5] == 3);
    }
}

TEST_CASE("independent partitions run at the same time (each has its own command queue)") {
    const device d = level_zero_device();
    queue q(d);
    usm<int> flag(1), seen(1);
    graph g;
    // Two branches, each behind a host task, so each device node is a partition of its own; the waiting
    // kernel's partition comes first. Run one after the other, it would wait 5 s and report that it never saw
    // the flag.
    auto h1 = g.add(host_task_command{[] {}});
    auto h2 = g.add(host_task_command{[] {}});
    g.add(kernel_command{test_kernel("wait_for_flag"),
                         {kernel_argument::from_pointer(flag.data()),
                          kernel_argument::from_pointer(seen.data())},
                         range(1)},
          {h1});
    g.add(kernel_command{test_kernel("set_flag"), {kernel_argument::from_pointer(flag.data())}, range(1)},
          {h2});
    executable_graph exec(g, d);
    q.launch(exec).wait();
    CHECK(seen[0] == 1);
}

TEST_CASE("a launch on a profiling queue spans the partition's work") {
    const device d = level_zero_device();
    queue q(d, {.in_order = true, .enable_profiling = true});
    usm<int> a(4096);
    graph g;
    auto prev = g.add(memset_command{a.data(), 0, 4096 * sizeof(int)});
    for (int i = 0; i < 20; ++i)
        prev = g.add(add_one(a.data(), 4096), {prev});
    executable_graph exec(g, d);
    for (int replay = 0; replay < 2; ++replay) {
        const auto t = q.launch(exec).profiling();
        CHECK(t.submit <= t.start);
        CHECK(t.start <= t.end);
        CHECK(t.end > t.start); // twenty kernels take some time
        CHECK(a[0] == 20);
    }
}

TEST_CASE("a graph with a kernel that has no Level Zero code is refused at finalize") {
    const device d = level_zero_device();
    graph g;
    g.add(kernel_command{make_kernel("host_only", [](const work_item&) {}), {}, range(4)});
    CHECK_THROWS_AS(executable_graph(g, d), error);
}

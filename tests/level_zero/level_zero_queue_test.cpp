// Eager work on the Level Zero backend (immediate command lists over the test driver): memory of each kind,
// copies and fills, kernels from a native binary in 1 and 2 dimensions and with local memory, ordering by
// in-order queues and by events (also of another backend), profiling.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "level_zero_support.hpp"

using namespace encore;
using namespace encore::level_zero_testing;

TEST_CASE("the device says what it is") {
    const device d = level_zero_device();
    const auto& p = d.properties();
    MESSAGE("device: " << p.name << ", " << p.driver_version);
    CHECK(p.native_graphs);
    CHECK_FALSE(p.host_kernels);
    CHECK(p.profiling);
    CHECK(p.max_work_group_size >= 1);
    CHECK(p.global_memory_bytes > 0);
    CHECK(p.graph_lowering == "Level Zero command-list chain");
    CHECK_FALSE(p.sub_group_sizes.empty());
    if (p.name == "Encore Level Zero test driver (host threads)") {
        // The CPU test driver's answers (driver/driver_entry_points.cpp): no SPIR-V compiler, sub-groups of
        // one.
        CHECK_FALSE(p.spirv);
        CHECK(p.sub_group_sizes == std::vector<std::uint32_t>{1});
    }
}

TEST_CASE("memory of every kind: memset, memcpy, fills of every pattern size") {
    const device d = level_zero_device();
    queue q(d, {.in_order = true});
    for (auto kind : {memory_kind::device, memory_kind::host, memory_kind::shared}) {
        CAPTURE(to_string(kind));
        usm<int> a(1000, kind), b(1000, memory_kind::shared);
        q.memset(a.data(), 1, 1000 * sizeof(int));
        q.memcpy(b.data(), a.data(), 1000 * sizeof(int));
        q.wait_and_throw();
        CHECK(b[0] == 0x01010101);
        CHECK(b[999] == 0x01010101);
        q.fill(a.data(), 7, 1000);
        q.memcpy(b.data(), a.data(), 1000 * sizeof(int)).wait();
        CHECK(b[500] == 7);
    }
    struct triple {
        int x, y, z;
    };
    usm<triple> t(33);
    q.fill(t.data(), triple{1, 2, 3}, 33).wait(); // 12 bytes: staged through host memory
    CHECK(t[0].value().x == 1);
    CHECK(t[32].value().z == 3);
    usm<char> c(5);
    q.memset(c.data(), 'x', 0).wait(); // nothing to do, still an event
    CHECK(c[0] == 0);
}

TEST_CASE("kernels from a native binary: 1-D, float arguments, 2-D, local memory") {
    const device d = level_zero_device();
    queue q(d, {.in_order = true});
    usm<int> x(1024);
    for (int i = 0; i < 3; ++i)
        q.parallel_for(range(1024), test_kernel("add_one"), {kernel_argument::from_pointer(x.data())});
    q.wait_and_throw();
    CHECK(x[0] == 3);
    CHECK(x[1023] == 3);

    usm<float> f(100);
    for (int i = 0; i < 100; ++i)
        f[i] = float(i);
    q.parallel_for(range(100), test_kernel("scale_f32"),
                   {kernel_argument::from_scalar(2.5f), kernel_argument::from_pointer(f.data())})
        .wait();
    CHECK(f[10] == doctest::Approx(25.0));

    usm<int> grid(24 * 40);
    q.parallel_for(
         range(24, 40), test_kernel("index_2d"),
         {kernel_argument::from_pointer(grid.data()), kernel_argument::from_scalar(std::uint32_t{40})})
        .wait();
    CHECK(grid[0] == 0);
    CHECK(grid[39] == 39);             // row 0, column 39
    CHECK(grid[23 * 40 + 5] == 23005); // row 23, column 5

    usm<int> in(256), sums(4);
    for (int i = 0; i < 256; ++i)
        in[i] = i;
    q.parallel_for(make_nd_range(1, {256, 1, 1}, {64, 1, 1}), test_kernel("group_sum"),
                   {kernel_argument::from_pointer(sums.data()), kernel_argument::from_pointer(in.data()),
                    kernel_argument::local(64 * sizeof(int))})
        .wait();
    CHECK(sums[0] == 63 * 64 / 2);
    CHECK(sums[3] == (192 + 255) * 64 / 2);
}

TEST_CASE("an out-of-order queue orders work by its events") {
    const device d = level_zero_device();
    queue q(d);
    usm<int> a(512), b(512);
    event last = q.memset(a.data(), 0, 512 * sizeof(int));
    for (int i = 0; i < 50; ++i)
        last = q.parallel_for(range(512), test_kernel("add_one"), {kernel_argument::from_pointer(a.data())},
                              {last});
    q.parallel_for(range(512), test_kernel("copy_plus_one"),
                   {kernel_argument::from_pointer(b.data()), kernel_argument::from_pointer(a.data())},
                   {last});
    q.wait_and_throw();
    CHECK(a[17] == 50);
    CHECK(b[17] == 51);
}

TEST_CASE("work waits for an event of another backend") {
    const device d = level_zero_device();
    queue native_q(native_device());
    queue q(d);
    usm<int> a(64);
    std::atomic<bool> released{false};
    event gate = native_q.host_task([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        a[0] = 41;
        released = true;
    });
    event after =
        q.parallel_for(range(64), test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, {gate});
    after.wait();
    CHECK(released.load());
    CHECK(a[0] == 42);
    native_q.wait_and_throw();
}

TEST_CASE("profiling timestamps of eager commands") {
    const device d = level_zero_device();
    queue q(d, {.enable_profiling = true});
    usm<int> a(1 << 16);
    auto e = q.memset(a.data(), 0, (1 << 16) * sizeof(int));
    const auto t = e.profiling();
    CHECK(t.submit <= t.start);
    CHECK(t.start <= t.end);
    queue plain(d);
    auto f = plain.memset(a.data(), 0, 16);
    f.wait();
    CHECK_THROWS_AS(f.profiling(), error);
}

// Graphs on the OpenCL backend: each partition is one command buffer (cl_khr_command_buffer) or, without it
// (or with ENCORE_OPENCL_COMMAND_BUFFERS=0: the opencl_launch_plan test), one launch plan. The same bodies
// run on both.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <thread>

#include "opencl_support.hpp"

using namespace encore;
using namespace encore::opencl_testing;

namespace {
kernel_command step(int* in, int* out, std::size_t n) {
    return kernel_command{test_kernel("twice_plus_one"),
                          {kernel_argument::from_pointer(in), kernel_argument::from_pointer(out)},
                          range(n)};
}
int chain_value(int start, int steps) {
    for (int i = 0; i < steps; ++i)
        start = start * 2 + 1;
    return start;
}
} // namespace

TEST_CASE("a chain of kernels, replayed in order") {
    const device d = opencl_device();
    MESSAGE("graphs lower to " << std::string(uses_command_buffers() ? "command buffers" : "launch plans"));
    queue q(d, {.in_order = true});
    usm<int> a(512), b(512);
    graph g;
    auto prev = g.add(memset_command{a.data(), 0, 512 * sizeof(int)});
    for (int i = 0; i < 10; ++i) {
        prev = g.add(step(a.data(), b.data(), 512), {prev});
        prev = g.add(step(b.data(), a.data(), 512), {prev});
    }
    executable_graph exec(g, d);
    for (int replay = 0; replay < 3; ++replay) {
        q.launch(exec).wait();
        REQUIRE(a[0] == chain_value(0, 20));
        REQUIRE(a[511] == chain_value(0, 20));
    }
    for (int replay = 0; replay < 5; ++replay)
        q.launch(exec); // back to back: ordered by the in-order queue
    q.wait_and_throw();
    CHECK(a[100] == chain_value(0, 20));
}

TEST_CASE("fan-out and fan-in with every device command kind") {
    const device d = opencl_device();
    queue q(d);
    constexpr std::size_t n = 256, branches = 16;
    usm<int> src(n), sums(n);
    std::vector<std::unique_ptr<usm<int>>> outs;
    for (std::size_t i = 0; i < branches; ++i)
        outs.push_back(std::make_unique<usm<int>>(n));
    usm<std::uint32_t> pattern(n);
    usm<int> copied(n, memory_kind::device), back(n, memory_kind::host);
    graph g;
    auto root =
        g.add(kernel_command{test_kernel("set_value"),
                             {kernel_argument::from_pointer(src.data()), kernel_argument::from_scalar(3)},
                             range(n)});
    auto clear = g.add(memset_command{sums.data(), 0, n * sizeof(int)});
    std::vector<node> leaves;
    for (std::size_t i = 0; i < branches; ++i)
        leaves.push_back(g.add(step(src.data(), outs[i]->data(), n), {root}));
    auto join = g.add(barrier_command{}, leaves);
    std::vector<node> adds;
    node last = join;
    for (std::size_t i = 0; i < branches; ++i) // serial adds into sums (a race otherwise)
        last = g.add(kernel_command{test_kernel("add"),
                                    {kernel_argument::from_pointer(sums.data()),
                                     kernel_argument::from_scalar(static_cast<int>(i))},
                                    range(n)},
                     {last, clear});
    auto fill =
        g.add(fill_command{pattern.data(), {std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}}, n});
    usm<unsigned char> threes(300);
    g.add(fill_command{threes.data(), {std::byte{5}, std::byte{6}, std::byte{7}}, 100},
          {fill}); // the fill kernel
    auto c1 = g.add(memcpy_command{copied.data(), sums.data(), n * sizeof(int)}, {last});
    auto c2 = g.add(memcpy_command{back.data(), copied.data(), n * sizeof(int)}, {c1});
    g.add(empty_command{}, {c2, fill});
    g.add(prefetch_command{src.data(), n * sizeof(int)}, {root});
    g.add(mem_advise_command{src.data(), n * sizeof(int), 0});
    executable_graph exec(g, d);
    for (int replay = 0; replay < 2; ++replay) {
        q.launch(exec).wait();
        for (std::size_t i = 0; i < branches; ++i)
            REQUIRE((*outs[i])[n - 1] == 7);
        REQUIRE(back[0] == 120);
        REQUIRE(back[n - 1] == 120);
        REQUIRE(pattern[7] == 0x04030201u);
        REQUIRE(threes[0] == 5);
        REQUIRE(threes[299] == 7);
    }
}

TEST_CASE("host tasks split a graph into partitions that run in order; launches wait for other backends") {
    const device d = opencl_device();
    queue q(d, {.in_order = true});
    queue native(native_device());
    usm<int> a(64);
    std::atomic<int> seen{-1};
    graph g;
    auto k1 =
        g.add(kernel_command{test_kernel("set_value"),
                             {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(10)},
                             range(64)});
    auto h = g.add(host_task_command{[&] {
                       seen.store(a[5]);
                       a[5] = 100;
                   }},
                   {k1});
    g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(64)}, {h});
    executable_graph exec(g, d);
    std::atomic<bool> gate{false};
    auto before = native.host_task([&] {
        while (!gate.load())
            std::this_thread::yield();
    });
    auto e = q.launch(exec, {before});
    CHECK(!e.is_complete());
    gate.store(true);
    e.wait();
    CHECK(seen.load() == 10);
    CHECK(a[5] == 101);
    CHECK(a[6] == 11);
}

TEST_CASE("a graph copy between encore::buffers, with a host view where the device has host-unified memory") {
    const device d = opencl_device();
    queue q(d, {.in_order = true});
    auto a = std::make_shared<encore::buffer>(128), b = std::make_shared<encore::buffer>(128);
    for (int i = 0; i < 128; ++i)
        a->data()[i] = static_cast<std::byte>(i + 1);
    graph g;
    g.add(copy_command{a, 0, b, 0, 128});
    executable_graph exec(g, d);
    q.launch(exec).wait();
    CHECK(b->data()[0] == std::byte{1});
    CHECK(b->data()[127] == std::byte{128});
}

TEST_CASE("an empty partition and a graph of ordering-only nodes launch and complete") {
    const device d = opencl_device();
    queue q(d);
    graph g;
    auto b = g.add(barrier_command{});
    g.add(empty_command{}, {b});
    executable_graph exec(g, d);
    q.launch(exec).wait();
    q.launch(exec).wait();
}

TEST_CASE("profiling of graph launches") {
    const device d = opencl_device();
    queue q(d, {.in_order = true, .enable_profiling = true});
    usm<int> a(1024);
    graph g;
    auto k =
        g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(1024)});
    g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(1024)},
          {k});
    executable_graph exec(g, d);
    auto e = q.launch(exec);
    auto t = e.profiling();
    CHECK(t.start <= t.end);
    CHECK(a[3] == 2);
}

// Graphs lowered to GPU graphs (CUDA graphs, HIP graphs): every command kind, edges, replays, multi-partition
// graphs with host tasks.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>

#include "gpu/gpu_support.hpp"

using namespace encore;
using namespace encore::gpu_testing;

TEST_CASE("a graph with every device command kind, replayed") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<int> data(1024, memory_kind::device), out(1024, memory_kind::shared);
    usm<std::uint64_t> wide(100, memory_kind::shared);
    usm<unsigned char> host(256, memory_kind::host);
    auto from = std::make_shared<buffer>(16), to = std::make_shared<buffer>(16);
    for (int i = 0; i < 16; ++i)
        from->data()[i] = std::byte(100 + i);

    graph g;
    auto zero = g.add(memset_command{data.data(), 0, 1024 * sizeof(int)});
    auto add = g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(data.data())}, range(1024)}, {zero});
    auto copy = g.add(memcpy_command{out.data(), data.data(), 1024 * sizeof(int)}, {add});
    fill_command f{wide.data(), std::vector<std::byte>(8), 100};
    const std::uint64_t pattern = 0x1122334455667788;
    std::memcpy(f.pattern.data(), &pattern, 8);
    auto fill = g.add(f);
    auto host_memset = g.add(memset_command{host.data(), 0x5a, 256});
    auto buffers = g.add(copy_command{from, 0, to, 0, 16});
    auto pre = g.add(prefetch_command{out.data(), 1024 * sizeof(int)});
    auto adv = g.add(mem_advise_command{out.data(), 1024 * sizeof(int), 1});
    auto bar = g.add(barrier_command{}, {copy, fill, host_memset, buffers, pre, adv});
    g.add(empty_command{}, {bar});

    executable_graph exec(g, d);
    CHECK(exec.partitions().partitions.size() == 1);
    for (int i = 0; i < 5; ++i)
        q.launch(exec);
    q.wait_and_throw();
    for (int i = 0; i < 1024; ++i)
        REQUIRE(out[i] == 1); // memset to 0 each replay, then +1
    for (int i = 0; i < 100; ++i)
        REQUIRE(wide[i] == pattern);
    for (int i = 0; i < 256; ++i)
        REQUIRE(host[i] == 0x5a);
    for (int i = 0; i < 16; ++i)
        REQUIRE(to->data()[i] == std::byte(100 + i));
}

TEST_CASE("back-to-back replays stay ordered without host round trips") {
    const device d = gpu_device();
    queue q(d, {.in_order = false});
    usm<int> data(512);
    graph g;
    auto k = test_kernel("add_one");
    auto prev = g.add(kernel_command{k, {kernel_argument::from_pointer(data.data())}, range(512)});
    for (int i = 0; i < 9; ++i)
        prev = g.add(kernel_command{k, {kernel_argument::from_pointer(data.data())}, range(512)}, {prev});
    executable_graph exec(g, d);
    event last;
    for (int i = 0; i < 100; ++i)
        last = q.launch(exec);
    last.wait();
    CHECK(data[0] == 1000);
    CHECK(data[511] == 1000);
}

TEST_CASE("host tasks split a graph into partitions that run in their DAG's order") {
    const device d = gpu_device();
    queue q(d, {.in_order = false});
    usm<int> a(256), b(256);
    std::atomic<int> seen_a{0}, seen_b{0};
    auto set_value = test_kernel("set_value");
    auto add_one = test_kernel("add_one");
    graph g;
    // Two independent branches, each: kernel -> host task -> kernel; then a join kernel.
    auto a1 = g.add(kernel_command{set_value, {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(1)}, range(256)});
    auto ha = g.add(host_task_command{[&] { seen_a = a[255]; }}, {a1});
    auto a2 = g.add(kernel_command{add_one, {kernel_argument::from_pointer(a.data())}, range(256)}, {ha});
    auto b1 = g.add(kernel_command{set_value, {kernel_argument::from_pointer(b.data()), kernel_argument::from_scalar(10)}, range(256)});
    auto hb = g.add(host_task_command{[&] { seen_b = b[0]; }}, {b1});
    auto b2 = g.add(kernel_command{add_one, {kernel_argument::from_pointer(b.data())}, range(256)}, {hb});
    g.add(memcpy_command{b.data(), a.data(), 128 * sizeof(int)}, {a2, b2});
    executable_graph exec(g, d);
    CHECK(exec.partitions().partitions.size() >= 4);
    for (int i = 0; i < 3; ++i) {
        q.launch(exec).wait();
        CHECK(seen_a == 1);
        CHECK(seen_b == 10);
        CHECK(a[0] == 2);
        CHECK(b[0] == 2);    // copied from a
        CHECK(b[200] == 11); // not copied
    }
    q.wait_and_throw();
}

TEST_CASE("a multi-root graph without host tasks is one GPU graph; its launch event completes with every tail") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    const int roots = 16;
    usm<int> data(256 * roots);
    graph g;
    std::vector<node> tails;
    for (int r = 0; r < roots; ++r) {
        auto first = g.add(kernel_command{test_kernel("set_value"), {kernel_argument::from_pointer(data.data() + 256 * r), kernel_argument::from_scalar(r)}, range(256)});
        tails.push_back(g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(data.data() + 256 * r)}, range(256)}, {first}));
    }
    executable_graph exec(g, d);
    auto e = q.launch(exec);
    e.wait();
    for (int r = 0; r < roots; ++r)
        REQUIRE(data[static_cast<std::size_t>(256 * r + 7)] == r + 1);
}

TEST_CASE("graph launches wait for eager work and for other backends' events") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    queue cpu(native_device());
    usm<int> data(256);
    graph g;
    g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(data.data())}, range(256)});
    executable_graph exec(g, d);
    q.parallel_for(range(256), test_kernel("set_value"), {kernel_argument::from_pointer(data.data()), kernel_argument::from_scalar(40)});
    q.launch(exec);
    auto host = cpu.host_task([&] {}, {});
    q.launch(exec, {host});
    q.wait_and_throw();
    CHECK(data[3] == 42);
}

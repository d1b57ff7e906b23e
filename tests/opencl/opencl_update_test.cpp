// Updating executable graphs on the OpenCL backend: per-node and whole-graph updates. Command buffers are
// recorded again at the next launch (no mutable dispatch here); launch plans rebuild the node's step.
#include <doctest/doctest.h>

#include "opencl_support.hpp"

using namespace encore;
using namespace encore::opencl_testing;

TEST_CASE("update_arguments and update_range of a kernel node") {
    const device d = opencl_device();
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

TEST_CASE("a node update in the middle of a chain keeps the chain's order") {
    const device d = opencl_device();
    queue q(d, {.in_order = true});
    usm<int> a(64), b(64);
    graph g;
    auto set =
        g.add(kernel_command{test_kernel("set_value"),
                             {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(1)},
                             range(64)});
    auto add =
        g.add(kernel_command{test_kernel("add"),
                             {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(10)},
                             range(64)},
              {set});
    g.add(kernel_command{test_kernel("twice_plus_one"),
                         {kernel_argument::from_pointer(a.data()), kernel_argument::from_pointer(b.data())},
                         range(64)},
          {add});
    executable_graph exec(g, d);
    q.launch(exec).wait();
    CHECK(b[3] == 23);
    exec.update_arguments(add, {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(20)});
    q.launch(exec).wait();
    CHECK(b[3] == 43);
    exec.update(set,
                kernel_command{test_kernel("set_value"),
                               {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(2)},
                               range(64)});
    q.launch(exec).wait();
    CHECK(b[3] == 45);
}

TEST_CASE("whole-graph update: memset, memcpy, fill and kernel values of a graph of the same topology") {
    const device d = opencl_device();
    queue q(d, {.in_order = true});
    usm<int> a(256), b(256), c(256);
    usm<std::uint32_t> w(64);
    auto build = [&](int value, int* copy_to, std::uint32_t pattern) {
        graph g;
        auto m = g.add(memset_command{a.data(), value, 256 * sizeof(int)});
        auto k = g.add(
            kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(256)},
            {m});
        g.add(memcpy_command{copy_to, a.data(), 256 * sizeof(int)}, {k});
        fill_command f{w.data(), std::vector<std::byte>(4), 64};
        for (std::size_t i = 0; i < 4; ++i)
            f.pattern[i] = std::byte(static_cast<unsigned char>(pattern >> (8 * i)));
        g.add(f);
        return g;
    };
    graph g1 = build(0, b.data(), 0x01020304);
    executable_graph exec(g1, d);
    q.launch(exec).wait();
    CHECK(b[9] == 1);
    CHECK(w[5] == 0x01020304u);

    exec.update(build(1, c.data(), 0x0a0b0c0d));
    q.launch(exec).wait();
    CHECK(a[9] == 0x01010102); // memset byte 1 in every byte, + 1
    CHECK(c[9] == 0x01010102);
    CHECK(w[5] == 0x0a0b0c0du);

    exec.update(build(0, b.data(), 0x05060708));
    b[9] = -1;
    q.launch(exec).wait();
    CHECK(b[9] == 1);
    CHECK(w[63] == 0x05060708u);

    // A fill node that changes from a driver fill (4 bytes) to the fill kernel (3 bytes) and back.
    graph g2 = build(0, b.data(), 0x01020304);
    executable_graph exec2(g2, d);
    graph g3;
    {
        auto m = g3.add(memset_command{a.data(), 0, 256 * sizeof(int)});
        auto k = g3.add(
            kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(256)},
            {m});
        g3.add(memcpy_command{b.data(), a.data(), 256 * sizeof(int)}, {k});
        g3.add(fill_command{w.data(), {std::byte{9}, std::byte{8}, std::byte{7}}, 64 * 4 / 3});
    }
    exec2.update(g3);
    q.launch(exec2).wait();
    auto* wb = reinterpret_cast<unsigned char*>(w.data());
    CHECK(wb[0] == 9);
    CHECK(wb[1] == 8);
    CHECK(wb[2] == 7);
    CHECK(wb[3] == 9);
    CHECK(wb[251] == 7);
    exec2.update(build(0, c.data(), 0x0a0b0c0d));
    q.launch(exec2).wait();
    CHECK(w[5] == 0x0a0b0c0du);
}

TEST_CASE("a refused update changes nothing") {
    const device d = opencl_device();
    queue q(d, {.in_order = true});
    usm<int> a(64);
    usm<unsigned char> bytes(300);
    graph g;
    auto k =
        g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(64)});
    auto f = g.add(fill_command{bytes.data(), {std::byte{1}, std::byte{2}}, 150});
    executable_graph exec(g, d);
    auto host_only = make_kernel("host_only", [](const work_item&) {});
    CHECK_THROWS_AS(exec.update(k, kernel_command{host_only, {}, range(64)}), error);
    fill_command wide{bytes.data(), std::vector<std::byte>(300, std::byte{7}), 1};
    CHECK_THROWS_AS(exec.update(f, wide), error);
    q.launch(exec).wait();
    CHECK(a[0] == 1);
    CHECK(bytes[299] == 2);
}

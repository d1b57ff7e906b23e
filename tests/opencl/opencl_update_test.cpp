// Updating executable graphs on the OpenCL backend: per-node and whole-graph updates. Kernel nodes of command
// buffers are updated in place where the device has cl_khr_command_buffer_mutable_dispatch (here: PoCL behind the
// test layer libencore-test-mutable-dispatch, tests/meson.build), and command buffers are recorded again at the
// next launch otherwise; launch plans rebuild the node's step.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

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

TEST_CASE("a null pointer argument reaches the kernel as a null pointer: eagerly, in graphs, by update") {
    const device d = opencl_device();
    queue q(d, {.in_order = true});
    usm<int> some(4), out(4);
    auto is_null = [&](const void* p) {
        return kernel_command{test_kernel("is_null"),
                              {kernel_argument::from_pointer(p), kernel_argument::from_pointer(out.data())},
                              range(4)};
    };
    q.submit(is_null(nullptr)).wait();
    CHECK(out[3] == 1);
    q.submit(is_null(some.data())).wait();
    CHECK(out[3] == 2);
    graph g;
    auto k = g.add(is_null(nullptr));
    executable_graph exec(g, d);
    q.launch(exec).wait();
    CHECK(out[0] == 1);
    exec.update_arguments(k, is_null(some.data()).arguments);
    q.launch(exec).wait();
    CHECK(out[0] == 2);
    exec.update_arguments(k, is_null(nullptr).arguments); // in place where the device has mutable dispatch
    q.launch(exec).wait();
    CHECK(out[0] == 1);
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
    // Byte i of w, read through w's elements (a copy where the host cannot reach the memory; little endian).
    auto byte_of_w = [&](std::size_t i) { return (static_cast<std::uint32_t>(w[i / 4]) >> (8 * (i % 4))) & 0xffu; };
    CHECK(byte_of_w(0) == 9);
    CHECK(byte_of_w(1) == 8);
    CHECK(byte_of_w(2) == 7);
    CHECK(byte_of_w(3) == 9);
    CHECK(byte_of_w(251) == 7);
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

// With ENCORE_OPENCL_MUTABLE_DISPATCH=0 (opencl_mutable_dispatch_off) the same updates record again instead.
TEST_CASE("mutable dispatch: a kernel node's arguments and sizes change in place; other nodes record again") {
    const device d = opencl_device();
    const auto caps = opencl::capabilities_of(d);
    if (!caps.mutable_dispatch || !d.properties().native_graphs) {
        MESSAGE("skipped: the device has no cl_khr_command_buffer_mutable_dispatch (run through the test layer: "
                "opencl_mutable_dispatch_*)");
        return;
    }
    const layer_counters layer = test_layer();
    REQUIRE_MESSAGE(layer, "mutable dispatch outside the test layer: no device here has it");
    const char* flag = std::getenv("ENCORE_OPENCL_MUTABLE_DISPATCH");
    const bool turned_off = flag && std::string(flag) == "0";
    // Mutable dispatch updates SVM pointers; USM pointers of cl_intel_unified_shared_memory it cannot (the H100
    // host's PoCL has that extension).
    const bool intel_usm = caps.usm == "cl_intel_unified_shared_memory";
    CHECK(caps.updates_in_place == (!turned_off && !intel_usm));
    const unsigned in_place = caps.updates_in_place ? 1 : 0;
    queue q(d, {.in_order = true});
    usm<int> a(1024), b(1024);
    usm<unsigned char> bytes(64);
    graph g;
    auto clear = g.add(memset_command{bytes.data(), 0, 64});
    auto set = g.add(kernel_command{test_kernel("set_value"),
                                    {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(3)},
                                    range(256)});
    auto add = g.add(kernel_command{test_kernel("add"),
                                    {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(10)},
                                    range(256)},
                     {set});
    executable_graph exec(g, d);
    const unsigned created = layer.buffers_created(), updated = layer.updates();
    q.launch(exec).wait();
    CHECK(a[255] == 13);
    CHECK(a[256] == 0);

    // Arguments (a scalar, a pointer) and the global size: in place, the same command buffer.
    exec.update_arguments(add, {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(20)});
    exec.update_range(set, range(512));
    exec.update_arguments(set, {kernel_argument::from_pointer(b.data()), kernel_argument::from_scalar(5)});
    CHECK(layer.updates() == updated + 3 * in_place);
    q.launch(exec).wait();
    CHECK(b[511] == 5);
    CHECK(b[512] == 0);
    CHECK(a[0] == 33);   // 3 + 10 from the first launch, + 20 from this one (set now writes b)
    CHECK(a[300] == 0);  // add's range stayed 256
    CHECK(layer.buffers_created() == created + 1 - in_place);

    // A memset node: mutable dispatch updates kernels only, so the command buffer is recorded again, and the
    // kernel updates made in place before stay.
    exec.update(clear, memset_command{bytes.data(), 7, 64});
    CHECK(layer.updates() == updated + 3 * in_place);
    q.launch(exec).wait();
    CHECK(bytes[63] == 7);
    CHECK(a[0] == 53);
    CHECK(b[511] == 5);
    CHECK(layer.buffers_created() == created + 2 - in_place);

    // A refused update changes nothing, in place or not.
    CHECK_THROWS_AS(exec.update_arguments(add, {kernel_argument::from_pointer(a.data())}), error);
    CHECK(layer.updates() == updated + 3 * in_place);
    q.launch(exec).wait();
    CHECK(a[0] == 73);
    CHECK(layer.buffers_created() == created + 2 - in_place);
}

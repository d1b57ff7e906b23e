// Updating executable graphs on a GPU backend: node update (cuGraphExecKernelNodeSetParams or HIP's namesake) and
// whole-graph update (cuGraphExecUpdate; re-instantiation where a node changes form).
#include <doctest/doctest.h>

#include "gpu/gpu_support.hpp"

using namespace encore;
using namespace encore::gpu_testing;

TEST_CASE("update_arguments and update_range of a kernel node") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<int> a(1024), b(1024);
    graph g;
    auto k = g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(512)});
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
}

TEST_CASE("whole-graph update: memset, memcpy, fill and kernel values of a graph of the same topology") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<int> a(256), b(256), c(256);
    usm<std::uint32_t> w(64);
    auto build = [&](int value, int* copy_to, std::uint32_t pattern, std::size_t pattern_bytes) {
        graph g;
        auto m = g.add(memset_command{a.data(), value, 256 * sizeof(int)});
        auto k = g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(256)}, {m});
        g.add(memcpy_command{copy_to, a.data(), 256 * sizeof(int)}, {k});
        fill_command f{w.data(), std::vector<std::byte>(pattern_bytes), 64 * 4 / pattern_bytes};
        for (std::size_t i = 0; i < pattern_bytes; ++i)
            f.pattern[i] = std::byte(static_cast<unsigned char>(pattern >> (8 * (i % 4))));
        g.add(f);
        return g;
    };
    graph g1 = build(0, b.data(), 0x01020304, 4);
    executable_graph exec(g1, d);
    q.launch(exec).wait();
    CHECK(b[9] == 1);
    CHECK(w[5] == 0x01020304u);

    exec.update(build(1, c.data(), 0x0a0b0c0d, 4)); // same forms: one cuGraphExecUpdate
    q.launch(exec).wait();
    CHECK(a[9] == 0x01010102); // memset byte 1 in every byte, + 1
    CHECK(c[9] == 0x01010102);
    CHECK(w[5] == 0x0a0b0c0du);

    exec.update(build(0, b.data(), 0x05060708, 8)); // an 8-byte pattern: memset node -> fill kernel, rebuilt
    q.launch(exec).wait();
    CHECK(b[9] == 1);
    CHECK(w[5] == 0x05060708u);
}

TEST_CASE("an update to a kernel without GPU code is refused and leaves the graph as it was") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<int> a(64);
    graph g;
    auto k = g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(64)});
    executable_graph exec(g, d);
    auto host_only = make_kernel("add_one", [](const work_item&) {});
    CHECK_THROWS_AS(exec.update(k, kernel_command{host_only, {}, range(64)}), error);
    q.launch(exec).wait();
    CHECK(a[0] == 1);
}

TEST_CASE("a copy between buffers (a host node) is updated; a rebuild lowers every node's current command") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<std::uint32_t> w(256, memory_kind::shared);
    auto first = std::make_shared<buffer>(16), second = std::make_shared<buffer>(16), to = std::make_shared<buffer>(16);
    for (int i = 0; i < 16; ++i) {
        first->data()[i] = std::byte(10 + i);
        second->data()[i] = std::byte(200 + i);
    }
    auto build = [&](const std::shared_ptr<buffer>& from, std::size_t pattern_bytes) {
        graph g;
        auto copy = g.add(copy_command{from, 0, to, 0, 16});
        fill_command f{w.data(), std::vector<std::byte>(pattern_bytes), 256 * 4 / pattern_bytes};
        for (std::size_t i = 0; i < pattern_bytes; ++i)
            f.pattern[i] = std::byte(static_cast<unsigned char>(i + 1));
        g.add(f, {copy});
        return g;
    };
    auto copied_from = [&](const buffer& from) {
        for (int i = 0; i < 16; ++i)
            if (to->data()[i] != from.data()[i]) return false;
        return true;
    };
    executable_graph exec(build(first, 4), d);
    q.launch(exec).wait();
    CHECK(copied_from(*first));
    CHECK(w[3] == 0x04030201u);

    exec.update(build(second, 4)); // the host node gets the new copy; one cuGraphExecUpdate
    q.launch(exec).wait();
    CHECK(copied_from(*second));

    exec.update(build(first, 8)); // the fill changes form: the template is lowered again, the copy too
    q.launch(exec).wait();
    CHECK(copied_from(*first));
    CHECK(w[2] == 0x04030201u);
    CHECK(w[3] == 0x08070605u);

    // The backend refuses a 512-byte pattern after it took the copy: all or nothing, the copy is put back.
    CHECK_THROWS_AS(exec.update(build(second, 512)), error);
    to->data()[0] = std::byte{0};
    q.launch(exec).wait();
    CHECK(copied_from(*first));
    CHECK(w[3] == 0x08070605u);

    exec.update(build(second, 4)); // back to a memset node: rebuilt from the graph's current commands
    q.launch(exec).wait();
    CHECK(copied_from(*second));
    CHECK(w[3] == 0x04030201u);
}

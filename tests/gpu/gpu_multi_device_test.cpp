// Multi-device graphs on GPUs (docs/multi-device.md): one graph over two GPUs of one backend, with kernels on each,
// peer copies between their memories and edges across them, replayed; and eager work on one GPU that waits for the
// other's. Needs two GPUs: on a machine with one (or none) each case says so and checks nothing (the rules are
// tested on every machine by tests/runtime/multi_device_test.cpp).
#include <doctest/doctest.h>

#include <vector>

#include "gpu/gpu_support.hpp"

using namespace encore;
using namespace encore::gpu_testing;

namespace {

std::vector<device> gpu_devices() {
    std::vector<device> out;
    for (const auto& d : device::all())
        if (d.backend_name() == backend_name) out.push_back(d);
    return out;
}

bool two_gpus() {
    const auto n = gpu_devices().size();
    if (n < 2) MESSAGE("skipped: this machine has " << n << " " << backend_name << " device(s); the case needs 2");
    return n >= 2;
}

// Device memory of one GPU, read and written by copies through a queue of that GPU.
struct device_array {
    device d;
    std::size_t count;
    int* data;
    device_array(const device& on, std::size_t n) : d(on), count(n), data(malloc_device<int>(n, on)) {}
    ~device_array() { free(data, d); }
    std::vector<int> read() const {
        std::vector<int> v(count);
        queue(d).memcpy(v.data(), data, count * sizeof(int)).wait();
        return v;
    }
};

kernel_command set_value(int* data, int value, std::size_t n) {
    return kernel_command{test_kernel("set_value"), {kernel_argument::from_pointer(data), kernel_argument::from_scalar(value)},
                          range(n)};
}
kernel_command add_one(int* data, std::size_t n) {
    return kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(data)}, range(n)};
}

} // namespace

TEST_CASE("multi-GPU: one graph over two GPUs with peer copies, replayed from either GPU's queue") {
    if (!two_gpus()) return;
    const auto gpus = gpu_devices();
    constexpr std::size_t n = 1 << 16;
    constexpr int steps = 5;
    device_array x0(gpus[0], n), x1(gpus[1], n);
    // Per step: +1 on each GPU, then the first 256 elements of x0 copied into x1 (a peer copy made by GPU 1)
    // and x1's last 256 into x0's (by GPU 0), each after both kernels of the step.
    graph g;
    auto s0 = g.add(set_value(x0.data, 0, n));
    auto s1 = g.add(set_value(x1.data, 100, n));
    g.set_device_slot(s1, 1);
    node last0 = s0, last1 = s1;
    for (int step = 0; step < steps; ++step) {
        auto k0 = g.add(add_one(x0.data, n), {last0});
        auto k1 = g.add(add_one(x1.data, n), {last1});
        g.set_device_slot(k1, 1);
        auto to1 = g.add(memcpy_command{x1.data, x0.data, 256 * sizeof(int)}, {k0, k1});
        g.set_device_slot(to1, 1);
        auto to0 = g.add(memcpy_command{x0.data + (n - 256), x1.data + (n - 256), 256 * sizeof(int)}, {k0, k1});
        last0 = to0;
        last1 = to1;
        // The next step's kernels also wait for the other GPU's copy out of their array.
        last0 = g.add(empty_command{}, {to0, to1});
        last1 = g.add(empty_command{}, {to0, to1});
        g.set_device_slot(last1, 1);
    }
    executable_graph exec(g, std::vector<device>{gpus[0], gpus[1]});
    for (std::size_t from = 0; from < 2; ++from) {
        queue q(gpus[from], {.in_order = true});
        for (int launch = 0; launch < 3; ++launch) {
            q.launch(exec).wait();
            q.throw_asynchronous();
        }
        // x0 = 0 + steps everywhere but its tail, which holds x1's values as of the last step; x1 likewise.
        const auto v0 = x0.read(), v1 = x1.read();
        CHECK(v0[0] == steps);
        CHECK(v0[n - 257] == steps);
        CHECK(v0[n - 1] == 100 + steps);
        CHECK(v1[0] == steps);
        CHECK(v1[256] == 100 + steps);
        CHECK(v1[n - 1] == 100 + steps);
    }
}

TEST_CASE("multi-GPU: eager work on one GPU waits for the other's event on the GPU") {
    if (!two_gpus()) return;
    const auto gpus = gpu_devices();
    constexpr std::size_t n = 1 << 20;
    device_array a(gpus[0], n), b(gpus[1], n);
    queue q0(gpus[0], {.in_order = true}), q1(gpus[1], {.in_order = true});
    for (int round = 1; round <= 20; ++round) {
        auto written = q0.parallel_for(range(n), test_kernel("set_value"),
                                       {kernel_argument::from_pointer(a.data), kernel_argument::from_scalar(round)});
        auto copied = q1.memcpy(b.data, a.data, n * sizeof(int), {written}); // a peer copy, after the kernel
        q1.parallel_for(range(n), test_kernel("add_one"), {kernel_argument::from_pointer(b.data)}, {copied});
    }
    q1.wait_and_throw();
    const auto v = b.read();
    CHECK(v[0] == 21);
    CHECK(v[n - 1] == 21);
}

TEST_CASE("multi-GPU: node update lowers the node again for its GPU") {
    if (!two_gpus()) return;
    const auto gpus = gpu_devices();
    constexpr std::size_t n = 4096;
    device_array x0(gpus[0], n), x1(gpus[1], n);
    graph g;
    auto a = g.add(set_value(x0.data, 3, n));
    auto b = g.add(memcpy_command{x1.data, x0.data, n * sizeof(int)}, {a});
    auto c = g.add(add_one(x1.data, n), {b});
    g.set_device_slot(b, 1);
    g.set_device_slot(c, 1);
    executable_graph exec(g, std::vector<device>{gpus[0], gpus[1]});
    queue q(gpus[0]);
    q.launch(exec).wait();
    CHECK(x1.read()[n - 1] == 4);
    exec.update(a, set_value(x0.data, 40, n));
    q.launch(exec).wait();
    CHECK(x1.read()[n - 1] == 41);
    q.wait_and_throw();
}

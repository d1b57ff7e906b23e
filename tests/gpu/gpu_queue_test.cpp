// Eager submission on GPU queues: every command kind, dependencies on the GPU and across backends,
// in-order and out-of-order queues, profiling.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <numeric>
#include <thread>

#include "gpu/gpu_support.hpp"
#include "support/error_code.hpp"

using namespace encore;
using namespace encore::gpu_testing;
using encore::testing::code_of;

TEST_CASE("the GPU device describes a GPU with native graphs") {
    const auto& p = gpu_device().properties();
    CHECK(p.type == device_type::gpu);
    CHECK(p.native_graphs);
    CHECK(p.max_work_group_size >= 1024);
    CHECK(p.allocation_alignment == 256);
    CHECK(p.name.size() > 0);
    // What encore-ls prints: graphs become the API's own graphs; one sub-group width, the warp or wavefront.
    CHECK((p.graph_lowering == "CUDA graph" || p.graph_lowering == "HIP graph"));
    REQUIRE(p.sub_group_sizes.size() == 1);
    CHECK((p.sub_group_sizes[0] == 32 || p.sub_group_sizes[0] == 64));
    CHECK_FALSE(p.spirv);
}

TEST_CASE("memset and memcpy on device, host and shared memory") {
    for (bool in_order : {true, false}) {
        CAPTURE(in_order);
        queue q(gpu_device(), {.in_order = in_order});
        usm<unsigned char> host(1000, memory_kind::host), dev(1000, memory_kind::device),
            shared(1000, memory_kind::shared);
        auto a = q.memset(host.data(), 7, 1000);
        auto b = q.memset(dev.data(), 9, 1000);
        auto c = q.memcpy(shared.data(), dev.data(), 1000, {b});
        auto d = q.memcpy(dev.data(), host.data(), 500, {a, c});
        auto e = q.memcpy(shared.data() + 500, dev.data(), 500, {d});
        e.wait();
        for (std::size_t i = 0; i < 1000; ++i) {
            REQUIRE(host[i] == 7);
            REQUIRE(shared[i] == (i < 500 ? 9 : 7));
        }
    }
}

TEST_CASE("fill with 1, 2, 4 byte patterns (memset) and 3, 8, 16 byte patterns (the fill kernel)") {
    queue q(gpu_device(), {.in_order = true});
    usm<std::uint8_t> b(1001, memory_kind::shared);
    usm<std::uint16_t> s(1001, memory_kind::shared);
    usm<std::uint32_t> w(1001, memory_kind::device);
    usm<std::uint32_t> w_out(1001, memory_kind::host);
    usm<std::uint64_t> l(1001, memory_kind::host);
    struct three {
        unsigned char v[3];
    };
    struct sixteen {
        std::uint64_t a, b;
    };
    usm<three> t(333, memory_kind::shared);
    usm<sixteen> x(77, memory_kind::device);
    usm<sixteen> x_out(77, memory_kind::shared);
    q.fill(b.data(), std::uint8_t{0xab}, 1001);
    q.fill(s.data(), std::uint16_t{0x1234}, 1001);
    q.fill(w.data(), std::uint32_t{0xdeadbeef}, 1001);
    q.memcpy(w_out.data(), w.data(), 1001 * 4);
    q.fill(l.data(), std::uint64_t{0x0102030405060708}, 1001);
    q.fill(t.data(), three{{1, 2, 3}}, 333);
    q.fill(x.data(), sixteen{42, 43}, 77);
    q.memcpy(x_out.data(), x.data(), 77 * sizeof(sixteen));
    q.wait_and_throw();
    for (std::size_t i = 0; i < 1001; ++i) {
        REQUIRE(b[i] == 0xab);
        REQUIRE(s[i] == 0x1234);
        REQUIRE(w_out[i] == 0xdeadbeef);
        REQUIRE(l[i] == 0x0102030405060708);
    }
    for (std::size_t i = 0; i < 333; ++i)
        REQUIRE((t[i].value().v[0] == 1 && t[i].value().v[1] == 2 && t[i].value().v[2] == 3));
    for (std::size_t i = 0; i < 77; ++i)
        REQUIRE((x_out[i].value().a == 42 && x_out[i].value().b == 43));
}

TEST_CASE("run-time compiled kernels: arguments, 1-D ranges, 2-D nd_ranges, chains on one queue") {
    queue q(gpu_device(), {.in_order = true});
    const std::size_t n = 1 << 12;
    usm<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i);
        y[i] = 1.0f;
    }
    auto saxpy = test_kernel("saxpy");
    for (int i = 0; i < 3; ++i)
        q.parallel_for(range(n), saxpy,
                       {kernel_argument::from_scalar(2.0f), kernel_argument::from_pointer(x.data()),
                        kernel_argument::from_pointer(y.data())});
    q.wait_and_throw();
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(y[i] == doctest::Approx(1.0f + 6.0f * static_cast<float>(i)));

    usm<int> grid(64 * 48);
    q.parallel_for(make_nd_range(2, {48, 64, 1}, {8, 16, 1}), test_kernel("index_2d"),
                   {kernel_argument::from_pointer(grid.data()), kernel_argument::from_scalar(64)});
    q.wait_and_throw();
    for (int row = 0; row < 48; ++row)
        for (int col = 0; col < 64; ++col)
            REQUIRE(grid[static_cast<std::size_t>(row * 64 + col)] == row * 1000 + col);

    // A range whose size is not a power of two: the block divides it exactly.
    usm<int> odd(1000);
    q.parallel_for(range(1000), test_kernel("add_one"), {kernel_argument::from_pointer(odd.data())});
    q.wait_and_throw();
    const auto values = odd.values();
    CHECK(std::accumulate(values.begin(), values.end(), 0) == 1000);
}

TEST_CASE("a kernel with more parameters than a launch keeps inline: eager, deferred behind a host task, in a graph") {
    struct table {
        int v[100];
    } t{};
    for (int k = 0; k < 100; ++k) t.v[k] = 1000 * k;
    auto arguments = [&](int* out) {
        std::vector<kernel_argument> a{kernel_argument::from_pointer(out)};
        for (int i = 1; i <= 9; ++i) a.push_back(kernel_argument::from_scalar(i));
        a.push_back(kernel_argument::from_scalar(t));
        return a;
    };
    const int weighted = 1 * 1 + 2 * 2 + 3 * 3 + 4 * 4 + 5 * 5 + 6 * 6 + 7 * 7 + 8 * 8 + 9 * 9; // 285
    auto check_out = [&](const usm<int>& out) {
        for (int k = 0; k < 100; ++k) REQUIRE(out[static_cast<std::size_t>(k)] == weighted + 1000 * k);
    };
    auto kernel = test_kernel("many_parameters");
    queue gpu(gpu_device(), {.in_order = true});
    usm<int> eager(100), deferred(100), replayed(100);
    gpu.parallel_for(make_nd_range(1, {100, 1, 1}, {100, 1, 1}), kernel, arguments(eager.data())).wait();
    check_out(eager);

    // Behind a host task of another backend the prepared launch moves to the heap and runs later.
    queue cpu(native_device());
    std::atomic<bool> release{false};
    auto gate = cpu.host_task([&] {
        while (!release.load()) std::this_thread::yield();
    });
    auto late =
        gpu.parallel_for(make_nd_range(1, {100, 1, 1}, {100, 1, 1}), kernel, arguments(deferred.data()), {gate});
    release = true;
    late.wait();
    check_out(deferred);

    graph g;
    g.add(kernel_command{kernel, arguments(replayed.data()), make_nd_range(1, {100, 1, 1}, {100, 1, 1})});
    executable_graph exec(g, gpu_device());
    gpu.launch(exec).wait();
    check_out(replayed);
}

TEST_CASE("out-of-order queue: dependencies become stream waits, independent work may overlap") {
    queue q(gpu_device(), {.in_order = false});
    const std::size_t n = 4096;
    usm<int> a(n), b(n), c(n);
    auto set_value = test_kernel("set_value");
    auto add_one = test_kernel("add_one");
    auto ea = q.parallel_for(range(n), set_value, {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(10)});
    auto eb = q.parallel_for(range(n), set_value, {kernel_argument::from_pointer(b.data()), kernel_argument::from_scalar(20)});
    auto ea2 = q.parallel_for(range(n), add_one, {kernel_argument::from_pointer(a.data())}, {ea});
    auto copy = q.memcpy(c.data(), a.data(), n * sizeof(int), {ea2, eb});
    auto last = q.parallel_for(range(n), add_one, {kernel_argument::from_pointer(c.data())}, {copy});
    last.wait();
    CHECK(last.is_complete());
    for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(a[i] == 11);
        REQUIRE(b[i] == 20);
        REQUIRE(c[i] == 12);
    }
}

TEST_CASE("a kernel command the caller keeps is submitted again and again (submit_kernel), and stays as it was") {
    for (bool in_order : {true, false}) {
        CAPTURE(in_order);
        queue q(gpu_device(), {.in_order = in_order});
        const std::size_t n = 1024;
        usm<int> data(n);
        q.parallel_for(range(n), test_kernel("set_value"),
                       {kernel_argument::from_pointer(data.data()), kernel_argument::from_scalar(0)})
            .wait();
        const auto add_one = test_kernel("add_one");
        const kernel_command add{add_one, {kernel_argument::from_pointer(data.data())}, range(n)};
        event last;
        for (int i = 0; i < 5; ++i)
            last = q.submit(add, {last}); // submit(const kernel_command&): the GPU layer's submit_kernel
        last.wait();
        for (std::size_t i = 0; i < n; ++i)
            REQUIRE(data[i] == 5);
        CHECK(add.kernel == add_one);
        CHECK(add.arguments.size() == 1);
        // Refusals throw from the submitting call, as on the command path, and nothing runs.
        kernel_command with_local = add;
        with_local.arguments.push_back(kernel_argument::local(256));
        CHECK(code_of([&] { q.submit(with_local); }) == errc::feature_not_supported);
        kernel_command too_wide = add;
        too_wide.range = make_nd_range(1, {4096, 1, 1}, {2048, 1, 1});
        CHECK(code_of([&] { q.submit(too_wide); }) == errc::invalid_argument);
        q.wait_and_throw();
        CHECK(data[0] == 5);
    }
}

TEST_CASE("waiting for other backends' events and host tasks defers the submission, never blocks") {
    queue gpu(gpu_device(), {.in_order = false});
    queue cpu(native_device());
    usm<int> data(256);
    std::atomic<bool> release{false};
    auto gate = cpu.host_task([&] {
        while (!release.load()) std::this_thread::yield();
    });
    auto set = gpu.parallel_for(range(256), test_kernel("set_value"),
                                {kernel_argument::from_pointer(data.data()), kernel_argument::from_scalar(5)}, {gate});
    auto add = gpu.parallel_for(range(256), test_kernel("add_one"), {kernel_argument::from_pointer(data.data())}, {set});
    CHECK(set.status() == event_status::submitted); // returned at once, still waiting for the host task
    release = true;
    add.wait();
    for (std::size_t i = 0; i < 256; ++i)
        REQUIRE(data[i] == 6);
    // And the other way round: a host task after GPU work.
    int seen = 0;
    auto e = gpu.parallel_for(range(256), test_kernel("add_one"), {kernel_argument::from_pointer(data.data())});
    gpu.host_task([&] { seen = data[17]; }, {e}).wait();
    CHECK(seen == 7);
}

TEST_CASE("copy between buffers, prefetch, mem_advise, barrier") {
    queue q(gpu_device(), {.in_order = false});
    auto from = std::make_shared<buffer>(64), to = std::make_shared<buffer>(64);
    for (int i = 0; i < 64; ++i)
        from->data()[i] = std::byte(i);
    auto copied = q.submit(copy_command{from, 8, to, 0, 32});
    usm<int> shared(1024);
    auto p = q.prefetch(shared.data(), 1024 * sizeof(int));
    auto m = q.mem_advise(shared.data(), 1024 * sizeof(int), 1 /* CU_MEM_ADVISE_SET_READ_MOSTLY */);
    auto k = q.parallel_for(range(1024), test_kernel("set_value"),
                            {kernel_argument::from_pointer(shared.data()), kernel_argument::from_scalar(3)}, {p, m});
    auto b = q.barrier({copied, k});
    b.wait();
    CHECK(b.is_complete());
    for (int i = 0; i < 32; ++i)
        REQUIRE(to->data()[i] == std::byte(i + 8));
    CHECK(shared[1023] == 3);
    q.wait_and_throw();
}

TEST_CASE("profiling timestamps come from GPU events, in order") {
    queue q(gpu_device(), {.in_order = true, .enable_profiling = true});
    usm<int> data(1 << 20, memory_kind::device);
    auto e = q.memset(data.data(), 0, (1 << 20) * sizeof(int));
    auto t = e.profiling();
    CHECK(t.submit <= t.start);
    CHECK(t.start <= t.end);
    auto k = q.parallel_for(range(1 << 20), test_kernel("add_one"), {kernel_argument::from_pointer(data.data())});
    auto t2 = k.profiling();
    CHECK(t2.start >= t.end - 1000); // float milliseconds: allow a microsecond of rounding
    CHECK(t2.end >= t2.start);
}

TEST_CASE("event status and wait on an in-order queue whose events are recorded on demand") {
    queue q(gpu_device(), {.in_order = true});
    usm<int> data(256);
    std::vector<event> events;
    for (int i = 0; i < 50; ++i)
        events.push_back(q.parallel_for(range(256), test_kernel("add_one"), {kernel_argument::from_pointer(data.data())}));
    events[10].wait(); // an event in the middle: recorded now, completes no earlier than its command
    CHECK(events[10].is_complete());
    events.back().wait();
    for (auto& e : events)
        CHECK(e.is_complete());
    CHECK(data[100] == 50);
}

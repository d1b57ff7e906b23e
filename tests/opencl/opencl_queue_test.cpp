// Eager submission on OpenCL queues: copies, fills, kernels (scalars, pointers, local memory, 2-D), event
// order, out-of-order queues with wait lists, waits on other backends' work, profiling.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "encore/backends/opencl/opencl_event.hpp"
#include "opencl_support.hpp"
#include "support/error_code.hpp"

using namespace encore;
using namespace encore::opencl_testing;
using encore::testing::code_of;

TEST_CASE("the opencl device describes itself; its capabilities say how USM and graphs work") {
    const device d = opencl_device();
    const auto& p = d.properties();
    CHECK(!p.name.empty());
    CHECK(!p.host_kernels);
    CHECK(p.max_work_group_size >= 1);
    CHECK(p.allocation_alignment >= 64);
    const auto c = opencl::capabilities_of(d);
    CHECK(!c.usm.empty());
    CHECK(c.command_buffers == !c.command_buffer_version.empty());
    // Host and shared memory need memory the host touches in place; the properties say whether there is.
    for (auto kind : {memory_kind::host, memory_kind::shared}) {
        const bool said = kind == memory_kind::host ? p.host_memory : p.shared_memory;
        try {
            encore::free(encore::malloc(64, d, kind), d);
            CHECK(said);
        } catch (const error& e) {
            CHECK_FALSE(said);
            CHECK(e.code() == errc::feature_not_supported);
        }
    }
    MESSAGE("device: " << p.name << "; USM: " << c.usm << "; command buffers: "
                       << (c.command_buffers ? c.command_buffer_version : std::string("none"))
                       << "; graphs lower to: "
                       << std::string(p.native_graphs ? "command buffers" : "launch plans"));
}

TEST_CASE("memset, memcpy and fills on device, host and shared memory") {
    for (bool in_order : {true, false}) {
        CAPTURE(in_order);
        queue q(opencl_device(), {.in_order = in_order});
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
        usm<std::uint32_t> w(1001);
        usm<std::uint64_t> l(1001, memory_kind::host);
        q.fill(w.data(), std::uint32_t{0xdeadbeef}, 1001);
        q.fill(l.data(), std::uint64_t{0x0102030405060708}, 1001);
        q.wait_and_throw();
        for (std::size_t i = 0; i < 1001; ++i) {
            REQUIRE(w[i] == 0xdeadbeefu);
            REQUIRE(l[i] == 0x0102030405060708u);
        }
    }
}

TEST_CASE(
    "fills of any pattern up to 256 bytes, at any alignment (the fill kernel where the driver cannot)") {
    queue q(opencl_device(), {.in_order = false});
    struct three {
        unsigned char v[3];
    };
    struct sixteen {
        std::uint64_t a, b;
    };
    usm<three> t(333);
    usm<sixteen> x(77, memory_kind::device);
    usm<sixteen> x_out(77, memory_kind::host);
    usm<unsigned char> odd(101);
    q.fill(t.data(), three{{1, 2, 3}}, 333);
    auto f = q.fill(x.data(), sixteen{42, 43}, 77);
    q.memcpy(x_out.data(), x.data(), 77 * sizeof(sixteen), {f});
    q.fill(reinterpret_cast<std::uint32_t*>(odd.data() + 1), std::uint32_t{0x01020304}, 25); // misaligned
    q.wait_and_throw();
    for (std::size_t i = 0; i < 333; ++i)
        REQUIRE((t[i].value().v[0] == 1 && t[i].value().v[1] == 2 && t[i].value().v[2] == 3));
    for (std::size_t i = 0; i < 77; ++i)
        REQUIRE((x_out[i].value().a == 42 && x_out[i].value().b == 43));
    CHECK(odd[0] == 0);
    CHECK(odd[1] == 4);
    CHECK(odd[4] == 1);
    CHECK(odd[100] == 1);
}

TEST_CASE("memcpy to and from memory the backend did not allocate") {
    queue q(opencl_device(), {.in_order = true});
    usm<int> dev(64, memory_kind::device);
    std::vector<int> in(64), out(64, -1);
    for (int i = 0; i < 64; ++i)
        in[static_cast<std::size_t>(i)] = i * 3;
    q.memcpy(dev.data(), in.data(), 64 * sizeof(int));
    q.memcpy(out.data(), dev.data(), 64 * sizeof(int)).wait();
    CHECK(out == in);
}

TEST_CASE("a copy between encore::buffers") {
    queue q(opencl_device(), {.in_order = true});
    auto a = std::make_shared<encore::buffer>(256), b = std::make_shared<encore::buffer>(256);
    for (int i = 0; i < 256; ++i)
        a->data()[i] = static_cast<std::byte>(i);
    q.submit(copy_command{a, 16, b, 32, 100}).wait();
    for (int i = 0; i < 100; ++i)
        REQUIRE(b->data()[32 + i] == static_cast<std::byte>(16 + i));
    CHECK(b->data()[0] == std::byte{0});
}

TEST_CASE("kernels: scalars and pointers, 2-D ranges, nd_ranges with local memory") {
    const device d = opencl_device();
    queue q(d, {.in_order = true});
    const std::size_t n = 1024;
    usm<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i);
        y[i] = 1.f;
    }
    q.submit(kernel_command{test_kernel("saxpy"),
                            {kernel_argument::from_scalar(2.f), kernel_argument::from_pointer(x.data()),
                             kernel_argument::from_pointer(y.data())},
                            range(n)})
        .wait();
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(y[i] == 2.f * static_cast<float>(i) + 1.f);

    usm<int> grid(12 * 7);
    q.submit(kernel_command{test_kernel("index_2d"),
                            {kernel_argument::from_pointer(grid.data()), kernel_argument::from_scalar(7)},
                            range(12, 7)})
        .wait();
    for (std::size_t row = 0; row < 12; ++row)
        for (std::size_t col = 0; col < 7; ++col)
            REQUIRE(grid[row * 7 + col] == static_cast<int>(row * 1000 + col));

    usm<int> in(256), sums(4);
    for (std::size_t i = 0; i < 256; ++i)
        in[i] = static_cast<int>(i);
    q.submit(
         kernel_command{test_kernel("group_sum"),
                        {kernel_argument::from_pointer(in.data()), kernel_argument::from_pointer(sums.data()),
                         kernel_argument::local(64 * sizeof(int))},
                        make_nd_range(1, {256, 1, 1}, {64, 1, 1})})
        .wait();
    for (int g = 0; g < 4; ++g)
        CHECK(sums[static_cast<std::size_t>(g)] == 64 * 64 * g + 63 * 64 / 2);
}

TEST_CASE("an in-order queue runs a chain in submission order") {
    queue q(opencl_device(), {.in_order = true});
    usm<int> a(128), b(128);
    q.submit(kernel_command{test_kernel("set_value"),
                            {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(1)},
                            range(128)});
    for (int i = 0; i < 10; ++i) {
        q.submit(
            kernel_command{test_kernel("twice_plus_one"),
                           {kernel_argument::from_pointer(a.data()), kernel_argument::from_pointer(b.data())},
                           range(128)});
        q.submit(
            kernel_command{test_kernel("twice_plus_one"),
                           {kernel_argument::from_pointer(b.data()), kernel_argument::from_pointer(a.data())},
                           range(128)});
    }
    q.wait_and_throw();
    int expected = 1;
    for (int i = 0; i < 20; ++i)
        expected = expected * 2 + 1;
    CHECK(a[0] == expected);
    CHECK(a[127] == expected);
}

TEST_CASE("an out-of-order queue follows its wait lists") {
    queue q(opencl_device(), {.in_order = false});
    usm<int> a(256), b(256), c(256);
    auto set =
        q.submit(kernel_command{test_kernel("set_value"),
                                {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(5)},
                                range(256)});
    auto left = q.submit(
        kernel_command{test_kernel("twice_plus_one"),
                       {kernel_argument::from_pointer(a.data()), kernel_argument::from_pointer(b.data())},
                       range(256)},
        {set});
    auto right =
        q.submit(kernel_command{test_kernel("add"),
                                {kernel_argument::from_pointer(a.data()), kernel_argument::from_scalar(0)},
                                range(256)},
                 {set});
    auto join = q.submit(
        kernel_command{test_kernel("twice_plus_one"),
                       {kernel_argument::from_pointer(b.data()), kernel_argument::from_pointer(c.data())},
                       range(256)},
        {left, right});
    auto after = q.barrier({join});
    after.wait();
    CHECK(join.is_complete());
    CHECK(c[0] == 23);
    CHECK(c[255] == 23);
    auto nothing = q.barrier();
    nothing.wait(); // waits for nothing
    CHECK(nothing.is_complete());
}

TEST_CASE("an OpenCL kernel waits for a native host task it depends on (a user event)") {
    queue native(native_device());
    queue q(opencl_device(), {.in_order = false});
    usm<int> a(64);
    std::atomic<bool> release{false};
    auto host = native.host_task([&] {
        while (!release.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        for (std::size_t i = 0; i < 64; ++i)
            a[i] = 41;
    });
    auto k = q.submit(
        kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(64)}, {host});
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(!k.is_complete()); // submit did not block, and the kernel has not run
    release.store(true);
    k.wait();
    CHECK(a[0] == 42);
    CHECK(a[63] == 42);

    // And a native host task after an OpenCL kernel (on_complete of an OpenCL event).
    std::atomic<int> seen{0};
    auto k2 = q.submit(
        kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(64)});
    native.host_task([&] { seen.store(a[10]); }, {k2}).wait();
    CHECK(seen.load() == 43);
}

// A join waits for more commands than a wait list holds inline (the queue lends it storage it keeps between
// submissions), among them a native host task (a user event in the middle of the list); three times over, with
// lists of different lengths, so the kept storage is reused, outgrown and reused again.
TEST_CASE("a join waits for every one of dozens of dependencies, a host task among them, again and again") {
    queue native(native_device());
    queue q(opencl_device(), {.in_order = false});
    usm<int> a(64), b(64);
    const kernel_command add_a{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(64)};
    const kernel_command join_kernel{
        test_kernel("twice_plus_one"),
        {kernel_argument::from_pointer(a.data()), kernel_argument::from_pointer(b.data())}, range(64)};
    for (const int width : {40, 20, 90}) {
        for (std::size_t i = 0; i < 64; ++i)
            a[i] = b[i] = 0;
        std::atomic<bool> release{false}, host_done{false};
        std::vector<event> before;
        event last_kernel;
        for (int i = 0; i < width; ++i) {
            if (i == width / 2) // only the join waits for it
                before.push_back(native.host_task([&] {
                    while (!release.load())
                        std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    host_done.store(true);
                }));
            // Each kernel after the one before (they add to `a` one at a time); the join's list names them all.
            last_kernel = i == 0 ? q.submit(add_a) : q.submit(add_a, {last_kernel});
            before.push_back(last_kernel);
        }
        auto join = q.submit(join_kernel, event_list(before));
        last_kernel.wait();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        CHECK_FALSE(join.is_complete()); // every kernel ran: the host task holds it
        release.store(true);
        join.wait();
        CHECK(host_done.load());
        CHECK(a[0] == width);
        CHECK(b[0] == 2 * width + 1);
        CHECK(b[63] == 2 * width + 1);
    }
}

// An out-of-order queue of a device other than a CPU enqueues a marker every 64 commands; events before a
// completed marker answer their status (and known_complete, what the runtime's queue prunes by) without asking
// the driver. A CPU device's queue enqueues none, and its events answer by asking. A command still waiting must
// never be taken for complete either way.
TEST_CASE("an out-of-order queue's statuses stay true over hundreds of commands while one of them waits") {
    // Markers where ENCORE_OPENCL_MARKERS says so, else on devices other than CPUs (opencl_backend.hpp).
    const char* forced = std::getenv("ENCORE_OPENCL_MARKERS");
    const bool markers = forced && *forced ? std::strcmp(forced, "0") != 0
                                           : opencl_device().properties().type != device_type::cpu;
    const layer_counters layer = test_layer();
    const unsigned markers_before = layer ? layer.markers() : 0;
    queue native(native_device());
    queue q(opencl_device(), {.in_order = false});
    usm<int> a(64), b(64);
    for (std::size_t i = 0; i < 64; ++i)
        a[i] = b[i] = 0;
    std::atomic<bool> release{false};
    auto gate = native.host_task([&] {
        while (!release.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    const kernel_command add_a{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(64)};
    const kernel_command add_b{test_kernel("add_one"), {kernel_argument::from_pointer(b.data())}, range(64)};
    auto waiting = q.submit(add_a, {gate});
    std::vector<event> chain;
    for (int i = 0; i < 300; ++i) // several markers' worth, every one after `waiting`
        chain.push_back(i == 0 ? q.submit(add_b) : q.submit(add_b, {chain.back()}));
    auto after_waiting = q.submit(add_a, {waiting});
    // OpenCL lets an out-of-order queue run its commands in order, and NVIDIA's does: there the chain stays
    // behind `waiting` until the gate opens, and what this case checks cannot happen.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!chain.back().is_complete() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!chain.back().is_complete()) {
        MESSAGE("skipped on '", opencl_device().properties().name,
                "': its out-of-order queue did not run independent commands past one that waits (in order)");
        release.store(true);
        q.wait();
        CHECK(b[63] == 300);
        return;
    }
    chain.back().wait();
    CHECK(b[0] == 300);
    CHECK(b[63] == 300);
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // time for any marker to (wrongly) complete
    for (int i = 0; i < 300; ++i) q.submit(add_b, {chain.back()}).wait(); // prunes ask about `waiting` again
    CHECK(!waiting.is_complete());
    CHECK(!after_waiting.is_complete());
    CHECK_FALSE(waiting.state()->known_complete());
    // No marker after `waiting` can have completed, so with markers the chain's first command is not known
    // complete yet (its marker comes after `waiting` too); without them it is asked, and answers that it is.
    CHECK(chain.front().state()->known_complete() == !markers);
    CHECK(a[0] == 0);
    release.store(true);
    q.wait();
    CHECK(waiting.is_complete());
    CHECK(after_waiting.is_complete());
    CHECK(a[0] == 2);
    CHECK(b[63] == 600);
    for (const auto& e : chain)
        CHECK(e.is_complete());
    // Markers made after the release complete: the events before them are known complete without a query.
    // Without markers (a CPU device) they are known complete too, by asking.
    for (int i = 0; i < 3 * 64; ++i) q.submit(add_b).wait();
    CHECK(waiting.state()->known_complete());
    CHECK(chain.front().state()->known_complete());
    // Which way they answered shows through the test layer, which counts markers.
    if (layer)
        CHECK((layer.markers() > markers_before) == markers);
    else
        MESSAGE("whether the queue enqueued markers is checked through the test layer (opencl_mutable_dispatch_*, "
                "opencl_markers); here it would have", std::string(markers ? " " : " not "),
                "(ENCORE_OPENCL_MARKERS, else the device's type)");
}

TEST_CASE("profiling timestamps of commands on a profiling queue") {
    queue q(opencl_device(), {.in_order = true, .enable_profiling = true});
    usm<int> a(1 << 16);
    auto e = q.submit(
        kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(1 << 16)});
    auto t = e.profiling();
    CHECK(t.submit <= t.start);
    CHECK(t.start <= t.end);
    CHECK(t.end > 0);
    auto m = q.memset(a.data(), 0, 1 << 16);
    auto tm = m.profiling();
    CHECK(tm.start <= tm.end);
    CHECK(t.end <= tm.end);
    queue plain(opencl_device());
    auto e2 = plain.memset(a.data(), 0, 16);
    e2.wait();
    CHECK_THROWS_AS(e2.profiling(), error);
}

// The device clock's offset to the host's, from commands' bounds (host readings before and after each enqueue,
// the driver's QUEUED reading between them): the sharpest lower bound wins while commands agree with it; one
// whose bounds exclude it (a clock that drifted or another clock) starts over from its own.
TEST_CASE("profiling_clock: the offset is the sharpest lower bound the commands agree with") {
    opencl::profiling_clock clock;
    // Device clock 1,000 behind the host's: QUEUED at device time 5,000 is host time 6,000.
    CHECK(clock.offset(5'000, 5'950, 6'100) == 950);  // first command: its own lower bound
    CHECK(clock.offset(7'000, 7'990, 8'020) == 990);  // sharper: raises it
    CHECK(clock.offset(9'000, 9'900, 10'050) == 990); // looser, but agrees: the sharper bound stays
    CHECK(clock.offset(9'500, 10'400, 10'600) == 990);
    // Another clock (10 s ahead): the estimate does not fit, this command starts over, and later ones of that
    // clock agree with it.
    CHECK(clock.offset(10'000'005'000, 6'000, 6'100) == 6'000 - 10'000'005'000);
    CHECK(clock.offset(10'000'007'000, 8'000, 8'020) == 8'000 - 10'000'007'000);
}

// Devices with coarse-grain SVM only (NVIDIA's OpenCL) have no host or shared memory; their device memory is the
// host's between map_for_host and unmap_for_host (what SYCL buffers use there). Here PoCL is used that way with
// ENCORE_OPENCL_USM=coarse-svm (opencl_coarse_svm); elsewhere the calls are refused.
TEST_CASE("coarse-grain SVM: the host maps device memory (map_for_host, unmap_for_host)") {
    const device d = opencl_device();
    constexpr std::size_t n = 64, bytes = n * sizeof(int);
    int* p = malloc_device<int>(n, d);
    CHECK(code_of([&] { map_for_host(p, bytes, native_device()); }) == errc::feature_not_supported);
    if (!d.properties().mapped_device_memory) {
        CHECK(code_of([&] { map_for_host(p, bytes, d); }) == errc::feature_not_supported);
        encore::free(p, d);
        MESSAGE("skipped the mapping: the device's USM is " << opencl::capabilities_of(d).usm
                                                            << " (opencl_coarse_svm runs it with coarse-grain SVM)");
        return;
    }
    CHECK_FALSE(d.properties().shared_memory);
    CHECK_FALSE(d.properties().host_memory);
    CHECK(code_of([&] { encore::malloc(bytes, d, memory_kind::shared); }) == errc::feature_not_supported);
    map_for_host(p, bytes, d);
    for (std::size_t i = 0; i < n; ++i)
        p[i] = static_cast<int>(i);
    unmap_for_host(p, bytes, d);
    queue q(d);
    q.submit(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(p)}, range(n)}).wait();
    map_for_host(p + n / 2, bytes / 2, d); // a part of the allocation
    for (std::size_t i = n / 2; i < n; ++i)
        REQUIRE(p[i] == static_cast<int>(i) + 1);
    unmap_for_host(p + n / 2, bytes / 2, d);
    map_for_host(p, 0, d); // an empty range: nothing to do
    unmap_for_host(p, 0, d);
    int on_stack = 0;
    CHECK(code_of([&] { map_for_host(p, bytes + 1, d); }) == errc::invalid_argument);
    CHECK(code_of([&] { map_for_host(nullptr, 4, d); }) == errc::invalid_argument);
    CHECK(code_of([&] { map_for_host(&on_stack, sizeof on_stack, d); }) == errc::invalid_argument);
    CHECK(code_of([&] { unmap_for_host(&on_stack, sizeof on_stack, d); }) == errc::invalid_argument);
    encore::free(p, d);
}

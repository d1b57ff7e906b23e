// Native recording on a GPU (encore::native_recording over gpu_recording: a stream capture): commands
// captured with exact dependencies, the captured graph run as one node of an encore::graph (a child graph),
// replays, refusals, and replacing the captured graph of an executable graph.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>

#include "gpu/gpu_support.hpp"

using namespace encore;
using namespace encore::gpu_testing;

namespace {
kernel_command set_value(int* data, int value, std::size_t n) {
    return {test_kernel("set_value"),
            {kernel_argument::from_pointer(data), kernel_argument::from_scalar(value)},
            range(n)};
}
kernel_command add_one(int* data, std::size_t n) {
    return {test_kernel("add_one"), {kernel_argument::from_pointer(data)}, range(n)};
}
} // namespace

TEST_CASE("native recording: a stream capture replayed as one node, with the captured order") {
    const device d = gpu_device();
    REQUIRE(d.properties().native_recording);
    queue q(d, {.in_order = true});
    usm<int> a(1024, memory_kind::device), b(1024, memory_kind::shared), c(1024, memory_kind::shared);

    native_recording r(d);
    // a = 5; b = a + 1 (copy then kernel); c = 7 independently; then a join that adds one to c after b.
    const auto set_a = r.capture(set_value(a.data(), 5, 1024));
    const auto copy = r.capture(memcpy_command{b.data(), a.data(), 1024 * sizeof(int)}, std::array{set_a});
    const auto inc_b = r.capture(add_one(b.data(), 1024), std::array{copy});
    const auto set_c = r.capture(set_value(c.data(), 7, 1024));
    const auto join = r.capture(barrier_command{}, std::array{inc_b, set_c}); // no node of its own
    r.capture(add_one(c.data(), 1024), std::array{join});
    CHECK(r.size() == 6);
    for (int i = 0; i < 1024; ++i)
        REQUIRE(b[i] == 0); // capturing runs nothing

    graph g;
    auto captured = r.end();
    CHECK(captured.graph->backend() == backend_name);
    CHECK(captured.graph->size() == 6);
    g.add(captured);
    executable_graph exec(g, d);
    for (int replay = 0; replay < 3; ++replay)
        q.launch(exec);
    q.wait_and_throw();
    for (int i = 0; i < 1024; ++i) {
        REQUIRE(b[i] == 6);
        REQUIRE(c[i] == 8); // set to 7 at every replay, then +1
    }
}

TEST_CASE("native recording: refusals leave the capture usable") {
    const device d = gpu_device();
    usm<int> a(256, memory_kind::shared);
    native_recording r(d);
    auto check_refused = [&](command c, errc code) {
        try {
            r.capture(std::move(c));
            FAIL("the command was captured");
        } catch (const error& e) {
            CHECK(e.code() == code);
        }
    };
    check_refused(host_task_command{[] {}}, errc::feature_not_supported);
    check_refused(copy_command{std::make_shared<buffer>(8), 0, std::make_shared<buffer>(8), 0, 8},
                  errc::feature_not_supported);
    check_refused(memset_command{nullptr, 0, 16}, errc::invalid_argument);
    try {
        r.capture(set_value(a.data(), 1, 256), std::array<std::uint32_t, 1>{3}); // nothing captured yet
        FAIL("an unknown command number was accepted");
    } catch (const error& e) {
        CHECK(e.code() == errc::invalid_argument);
    }
    const auto first = r.capture(set_value(a.data(), 3, 256));
    CHECK(first == 0);
    graph g;
    g.add(r.end());
    try {
        r.end();
        FAIL("end() twice was accepted");
    } catch (const error& e) {
        CHECK(e.code() == errc::invalid_argument);
    }
    queue q(d);
    executable_graph exec(g, d);
    q.launch(exec).wait();
    for (int i = 0; i < 256; ++i)
        REQUIRE(a[i] == 3);
}

TEST_CASE("native recording: the captured graph runs only on its GPU backend, never eagerly") {
    const device d = gpu_device();
    usm<int> a(64, memory_kind::shared);
    native_recording r(d);
    r.capture(set_value(a.data(), 1, 64));
    auto captured = r.end();
    queue q(d);
    try {
        q.submit(captured);
        FAIL("an eager native graph was accepted");
    } catch (const error& e) {
        CHECK(e.code() == errc::feature_not_supported);
    }
    graph g;
    g.add(captured);
    try {
        executable_graph on_cpu(g, native_device());
        FAIL("the native backend accepted a GPU capture");
    } catch (const error& e) {
        CHECK(e.code() == errc::feature_not_supported);
    }
    try {
        native_recording on_cpu(native_device());
        FAIL("the native backend started a native recording");
    } catch (const error& e) {
        CHECK(e.code() == errc::feature_not_supported);
    }
}

TEST_CASE(
    "native recording: a captured node and ordinary nodes in one graph; replacing the capture by update") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<int> x(512, memory_kind::shared), y(512, memory_kind::shared);
    auto capture_set = [&](int* target, int value) {
        native_recording r(d);
        r.capture(set_value(target, value, 512));
        return r.end();
    };
    graph g;
    auto first = g.add(capture_set(x.data(), 10));
    g.add(add_one(x.data(), 512), {first}); // an ordinary kernel node after the captured one
    executable_graph exec(g, d);
    q.launch(exec).wait();
    for (int i = 0; i < 512; ++i)
        REQUIRE(x[i] == 11);

    // The same shape, capturing into y: the executable graph's child graph is rebuilt.
    graph other;
    auto second = other.add(capture_set(y.data(), 20));
    other.add(add_one(y.data(), 512), {second});
    exec.update(other);
    q.launch(exec).wait();
    for (int i = 0; i < 512; ++i) {
        REQUIRE(y[i] == 21);
        REQUIRE(x[i] == 11);
    }
}

// property::graph::enable_native_recording on the CUDA device (SYCL_EXT_ONEAPI_GRAPH 2), compiled by nvcc: queue
// recording captured by a CUDA stream capture, in-order and out-of-order queues, several queues and transitive
// recording (forks must join back), sessions, the node a session becomes, and what is refused (with the errc DPC++
// gives: explicit add and make_edge, finalize(updatable) and update; commands that cannot be captured).
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <cstddef>
#include <string>

namespace exp_ext = sycl::ext::oneapi::experimental;

static_assert(SYCL_EXT_ONEAPI_GRAPH == 2);

namespace {

sycl::queue gpu_queue(bool in_order) {
    sycl::property_list in_order_list{sycl::property::queue::in_order{}};
    sycl::queue q = in_order ? sycl::queue{sycl::gpu_selector_v, in_order_list} : sycl::queue{sycl::gpu_selector_v};
    REQUIRE(q.get_device().get_backend() == sycl::backend::ext_oneapi_cuda);
    return q;
}

exp_ext::command_graph<exp_ext::graph_state::modifiable> native_graph(const sycl::queue& q) {
    return exp_ext::command_graph{q.get_context(), q.get_device(), {exp_ext::property::graph::enable_native_recording{}}};
}

template <typename F> void require_error(F&& f, sycl::errc code, const char* what) {
    try {
        f();
        FAIL(what);
    } catch (const sycl::exception& e) {
        CHECK_MESSAGE(e.code() == code, e.what());
    }
}

sycl::event scale(sycl::queue& q, int* data, int factor, std::size_t n, sycl::event after = {}) {
    return q.submit([&](sycl::handler& h) {
        h.depends_on(after);
        h.parallel_for(sycl::range<1>{n}, [=] ENCORE_DEVICE_LAMBDA (sycl::id<1> i) { data[i] *= factor; });
    });
}
sycl::event add(sycl::queue& q, int* data, int value, std::size_t n, sycl::event after = {}) {
    return q.submit([&](sycl::handler& h) {
        h.depends_on(after);
        h.parallel_for(sycl::range<1>{n}, [=] ENCORE_DEVICE_LAMBDA (sycl::id<1> i) { data[i] += value; });
    });
}
sycl::event add_from(sycl::queue& q, int* data, const int* from, std::size_t n, std::vector<sycl::event> after) {
    return q.submit([&](sycl::handler& h) {
        h.depends_on(after);
        h.parallel_for(sycl::range<1>{n}, [=] ENCORE_DEVICE_LAMBDA (sycl::id<1> i) { data[i] += from[i]; });
    });
}

} // namespace

TEST_CASE("native recording: an in-order queue's commands captured and replayed in order") {
    sycl::queue q = gpu_queue(true);
    const std::size_t n = 4096;
    int* data = sycl::malloc_shared<int>(n, q);
    int* copy = sycl::malloc_shared<int>(n, q);
    auto g = native_graph(q);
    g.begin_recording(q);
    q.fill(data, 3, n);
    scale(q, data, 2, n);
    add(q, data, 1, n);
    auto last = q.memcpy(copy, data, n * sizeof(int));
    require_error([&] { last.wait(); }, sycl::errc::invalid, "waiting on a recorded event was accepted");
    CHECK(g.end_recording());
    for (std::size_t i = 0; i < n; ++i) REQUIRE(copy[i] == 0); // nothing ran

    const auto nodes = g.get_nodes();
    REQUIRE(nodes.size() == 1); // the session is one node: the captured CUDA graph
    CHECK(nodes[0].get_type() == exp_ext::node_type::subgraph);
    CHECK(exp_ext::node::get_node_from_event(last) == nodes[0]);

    auto exec = g.finalize();
    for (int replay = 0; replay < 4; ++replay) q.ext_oneapi_graph(exec);
    q.wait_and_throw();
    for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(data[i] == 7); // (3 * 2) + 1: the fill runs again at every replay
        REQUIRE(copy[i] == 7);
    }
    sycl::free(data, q);
    sycl::free(copy, q);
}

TEST_CASE("native recording: out-of-order queues, several queues and transitive recording keep the events' order") {
    sycl::queue q1 = gpu_queue(false), q2{q1.get_context(), q1.get_device()}, q3{q1.get_context(), q1.get_device()};
    const std::size_t n = 2048;
    int* a = sycl::malloc_device<int>(n, q1);
    int* b = sycl::malloc_device<int>(n, q1);
    int* out = sycl::malloc_shared<int>(n, q1);
    auto g = native_graph(q1);
    g.begin_recording({q1, q2});
    auto fill_a = q1.fill(a, 10, n);
    auto fill_b = q2.fill(b, 1, n);
    auto scale_a = scale(q1, a, 3, n, fill_a);     // a = 30
    auto add_b = add(q2, b, 4, n, fill_b);         // b = 5, independent of a's branch
    auto join = add_from(q3, a, b, n, {scale_a, add_b}); // q3 joins the recording: a = 35
    CHECK(q3.ext_oneapi_get_state() == exp_ext::queue_state::recording);
    auto copy = q3.submit([&](sycl::handler& h) {
        h.depends_on(join);
        h.memcpy(out, a, n * sizeof(int));
    });
    // q3 is a fork of the recording: ending it before a queue that began the recording depends on q3's last
    // command is refused (DPC++: errc::runtime), and changes nothing.
    require_error([&] { g.end_recording(); }, sycl::errc::runtime, "an unjoined fork was accepted");
    require_error([&] { g.end_recording(q1); g.end_recording(q2); }, sycl::errc::runtime,
                  "an unjoined fork was accepted by end_recording(queue)");
    CHECK(q2.ext_oneapi_get_state() == exp_ext::queue_state::recording);
    CHECK(q3.ext_oneapi_get_state() == exp_ext::queue_state::recording);
    q2.ext_oneapi_submit_barrier({copy}); // the join
    g.end_recording();
    CHECK(q3.ext_oneapi_get_state() == exp_ext::queue_state::executing);
    auto exec = g.finalize();
    for (int replay = 0; replay < 3; ++replay) q1.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == 35);
    sycl::free(a, q1);
    sycl::free(b, q1);
    sycl::free(out, q1);
}

TEST_CASE("native recording: sessions become nodes run one after the other; a session's event has no node before it ends") {
    sycl::queue q = gpu_queue(true);
    const std::size_t n = 1024;
    int* data = sycl::malloc_shared<int>(n, q);
    auto g = native_graph(q);
    g.begin_recording(q);
    auto e = q.fill(data, 2, n);
    require_error([&] { exp_ext::node::get_node_from_event(e); }, sycl::errc::invalid,
                  "a node of a session in progress was handed out");
    g.end_recording();
    auto first = exp_ext::node::get_node_from_event(e);
    g.begin_recording(q);
    require_error([&] { add(q, data, 1, n, e); }, sycl::errc::invalid,
                  "a command depending on an earlier session's event was captured");
    scale(q, data, 5, n);
    g.end_recording();
    const auto nodes = g.get_nodes();
    REQUIRE(nodes.size() == 2);
    REQUIRE(first.get_successors().size() == 1); // the second session follows the first
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(data[i] == 10);
    sycl::free(data, q);
}

TEST_CASE("native recording: what cannot be captured is refused and the recording goes on") {
    sycl::queue q = gpu_queue(true);
    const std::size_t n = 256;
    int* data = sycl::malloc_shared<int>(n, q);
    auto eager = q.fill(data, 0, n);
    auto g = native_graph(q);
    g.begin_recording(q);
    require_error([&] { q.submit([&](sycl::handler& h) { h.host_task([] {}); }); }, sycl::errc::feature_not_supported,
                  "a host task was captured");
    sycl::buffer<int> buf{sycl::range<1>{n}};
    require_error(
        [&] {
            q.submit([&](sycl::handler& h) {
                sycl::accessor acc{buf, h, sycl::write_only};
                h.single_task([=] ENCORE_DEVICE_LAMBDA () { acc[0] = 1; });
            });
        },
        sycl::errc::feature_not_supported, "a buffer accessor was captured");
    require_error([&] { add(q, data, 1, n, eager); }, sycl::errc::invalid, "a dependency on eager work was captured");
    require_error([&] { exp_ext::async_malloc(q, sycl::usm::alloc::device, 64); }, sycl::errc::feature_not_supported,
                  "a graph-owned allocation was captured");
    require_error([&] { q.wait(); }, sycl::errc::invalid, "queue::wait while recording was accepted");
    add(q, data, 9, n);
    g.end_recording();
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(data[i] == 9);
    sycl::free(data, q);
}

// sycl_ext_oneapi_graph, "Limitations of Native Recording", with DPC++'s codes: a natively recorded graph takes
// recorded commands only and is not updatable.
TEST_CASE("native recording: explicit add, make_edge, finalize(updatable) and update are refused") {
    sycl::queue q = gpu_queue(true);
    const std::size_t n = 512;
    int* x = sycl::malloc_shared<int>(n, q);
    auto g = native_graph(q);
    require_error([&] { g.add([&](sycl::handler& h) { h.fill(x, 1, n); }); }, sycl::errc::feature_not_supported,
                  "an explicit add was accepted");
    require_error([&] { g.add(); }, sycl::errc::feature_not_supported, "an explicit empty node was accepted");
    g.begin_recording(q);
    q.fill(x, 10, n);
    add(q, x, 1, n);
    g.end_recording();
    g.begin_recording(q);
    add(q, x, 1, n);
    g.end_recording();
    auto nodes = g.get_nodes();
    REQUIRE(nodes.size() == 2);
    require_error([&] { g.make_edge(nodes[0], nodes[1]); }, sycl::errc::feature_not_supported,
                  "make_edge was accepted");
    require_error([&] { g.finalize({exp_ext::property::graph::updatable{}}); }, sycl::errc::feature_not_supported,
                  "finalize(updatable) was accepted");
    auto exec = g.finalize();
    require_error([&] { exec.update(g); }, sycl::errc::feature_not_supported, "whole-graph update was accepted");
    require_error([&] { exec.update(nodes[0]); }, sycl::errc::feature_not_supported, "node update was accepted");
    q.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(x[i] == 12);
    sycl::free(x, q);
}

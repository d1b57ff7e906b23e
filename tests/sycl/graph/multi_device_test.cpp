// Encore's multi-device command_graph (sycl/ext/encore/multi_device_graph.hpp, docs/multi-device.md) on two
// devices of one backend: the counting test plugin's, run with two devices (ENCORE_COUNTING_DEVICES=2 in
// meson.build) over one native device, beside the native backend (the device of another backend). The GPU path
// ran on two H200s (tests/gpu/gpu_multi_device_test.cpp).
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include "sycl/detail/graph_impl.hpp" // the executable graph's partitions

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace sycl_ext = sycl::ext::oneapi::experimental;
namespace sycl_encore = sycl::ext::encore;
using modifiable_graph = sycl_ext::command_graph<sycl_ext::graph_state::modifiable>;
const sycl::property_list multi_device{sycl_encore::property::graph::multi_device{}};

std::vector<sycl::device> counting_devices() {
    std::vector<sycl::device> out;
    for (const auto& d : sycl::device::get_devices())
        if (d.engine().backend_name() == "counting") out.push_back(d);
    return out;
}

sycl::device native_device() {
    for (const auto& d : sycl::device::get_devices())
        if (d.engine().backend_name() == "native") return d;
    throw std::runtime_error("no native device");
}

template <typename F> void check_throws(F&& f, sycl::errc code, const std::string& part) {
    try {
        f();
        FAIL("no exception; expected one with '" << part << "'");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == code);
        CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
    }
}

std::set<std::uint32_t> slots_of(const sycl_ext::command_graph<sycl_ext::graph_state::executable>& exec) {
    std::set<std::uint32_t> slots;
    for (const auto& p : exec.impl()->engine->partitions().partitions) slots.insert(p.device_slot);
    return slots;
}

struct two_devices {
    std::vector<sycl::device> devices = counting_devices();
    sycl::context ctx{devices};
    sycl::queue q0{ctx, devices.at(0), {sycl::property::queue::in_order{}}};
    sycl::queue q1{ctx, devices.at(1), {sycl::property::queue::in_order{}}};
};

} // namespace

TEST_CASE("recorded from queues of two devices, one launch replays the whole graph") {
    two_devices t;
    int* x = sycl::malloc_shared<int>(256, t.q0);
    modifiable_graph g{t.ctx, t.devices[0], multi_device};
    g.begin_recording({t.q0, t.q1});
    auto a = t.q0.parallel_for(sycl::range<1>{256}, [=](sycl::id<1> i) { x[i] = static_cast<int>(i[0]); });
    auto b = t.q1.submit([&](sycl::handler& h) {
        h.depends_on(a);
        h.parallel_for(sycl::range<1>{256}, [=](sycl::id<1> i) { x[i] = 2 * x[i] + 1; });
    });
    t.q0.submit([&](sycl::handler& h) {
        h.depends_on(b);
        h.single_task([=] { x[0] = -x[0]; });
    });
    g.end_recording();
    auto exec = g.finalize();
    CHECK(slots_of(exec) == std::set<std::uint32_t>{0, 1});
    CHECK(exec.impl()->engine->partitions().partitions.size() == 3);
    for (auto* q : {&t.q0, &t.q1, &t.q0}) {
        std::fill(x, x + 256, 0);
        q->ext_oneapi_graph(exec).wait();
        CHECK(x[0] == -1);
        CHECK(x[100] == 201);
        CHECK(x[255] == 511);
    }
    // Not from a queue of a device the graph does not run on.
    sycl::queue elsewhere{native_device()};
    check_throws([&] { elsewhere.ext_oneapi_graph(exec); }, sycl::errc::invalid, "other devices");
    sycl::free(x, t.q0);
}

TEST_CASE("explicit nodes go to the device of property::node::device") {
    two_devices t;
    int* x = sycl::malloc_shared<int>(64, t.q0);
    modifiable_graph g{t.ctx, t.devices[0], multi_device};
    auto a = g.add([&](sycl::handler& h) { h.parallel_for(sycl::range<1>{64}, [=](sycl::id<1> i) { x[i] = 3; }); });
    auto b = g.add([&](sycl::handler& h) { h.parallel_for(sycl::range<1>{64}, [=](sycl::id<1> i) { x[i] *= 5; }); },
                   {sycl_ext::property::node::depends_on(a), sycl_encore::property::node::device(t.devices[1])});
    g.add([&](sycl::handler& h) { h.single_task([=] { x[0] += 1; }); },
          {sycl_ext::property::node::depends_on(b), sycl_encore::property::node::device(t.devices[0])});
    auto exec = g.finalize();
    CHECK(slots_of(exec) == std::set<std::uint32_t>{0, 1});
    t.q1.ext_oneapi_graph(exec).wait();
    CHECK(x[0] == 16);
    CHECK(x[63] == 15);
    sycl::free(x, t.q0);
}

TEST_CASE("without the property a graph keeps to its device, as the specification says") {
    two_devices t;
    modifiable_graph g{t.ctx, t.devices[0]};
    check_throws([&] { g.begin_recording(t.q1); }, sycl::errc::invalid, "device and context");
    check_throws([&] { g.add([](sycl::handler&) {}, {sycl_encore::property::node::device(t.devices[1])}); },
                 sycl::errc::invalid, "multi_device");
    // The graph's own device named explicitly is fine.
    g.add([](sycl::handler&) {}, {sycl_encore::property::node::device(t.devices[0])});
    CHECK(g.get_nodes().size() == 1);
}

TEST_CASE("a multi-device graph spans one backend and one context") {
    two_devices t;
    modifiable_graph g{t.ctx, t.devices[0], multi_device};
    sycl::queue native{native_device()};
    check_throws([&] { g.begin_recording(native); }, sycl::errc::invalid, "device and context");
    check_throws([&] { g.add([](sycl::handler&) {}, {sycl_encore::property::node::device(native_device())}); },
                 sycl::errc::invalid, "one backend");
    sycl::queue other_context{t.devices[1]}; // the platform's default context, not t.ctx
    if (!(other_context.get_context() == t.ctx))
        check_throws([&] { g.begin_recording(other_context); }, sycl::errc::invalid, "context");
    check_throws(
        [&] {
            modifiable_graph native_recording{t.ctx, t.devices[0],
                                              {sycl_encore::property::graph::multi_device{},
                                               sycl_ext::property::graph::enable_native_recording{}}};
        },
        sycl::errc::feature_not_supported, "multi_device");
}

TEST_CASE("update of a multi-device graph: node update, whole-graph update, and what is refused") {
    two_devices t;
    int* x = sycl::malloc_shared<int>(16, t.q0);
    auto build = [&](int value, bool second_on_device_1) {
        modifiable_graph g{t.ctx, t.devices[0], multi_device};
        auto a = g.add([&](sycl::handler& h) { h.parallel_for(sycl::range<1>{16}, [=](sycl::id<1> i) { x[i] = 1; }); });
        g.add([&](sycl::handler& h) { h.parallel_for(sycl::range<1>{16}, [=](sycl::id<1> i) { x[i] += value; }); },
              {sycl_ext::property::node::depends_on(a),
               sycl_encore::property::node::device(t.devices[second_on_device_1 ? 1 : 0])});
        return g;
    };
    auto g = build(10, true);
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    t.q0.ext_oneapi_graph(exec).wait();
    CHECK(x[3] == 11);
    exec.update(build(20, true));
    t.q0.ext_oneapi_graph(exec).wait();
    CHECK(x[3] == 21);
    // The same shape with the second node on device 0: its device would change.
    check_throws([&] { exec.update(build(30, false)); }, sycl::errc::invalid, "device");
    t.q0.ext_oneapi_graph(exec).wait();
    CHECK(x[3] == 21);
    // A multi-device executable graph is not a sub-graph.
    modifiable_graph parent{t.ctx, t.devices[0], multi_device};
    check_throws([&] { parent.add([&](sycl::handler& h) { h.ext_oneapi_graph(exec); }); },
                 sycl::errc::feature_not_supported, "sub-graph");
    sycl::free(x, t.q0);
}

TEST_CASE("on the native backend's one device the multi-device API works as the ordinary one") {
    sycl::queue q{native_device(), {sycl::property::queue::in_order{}}};
    int* x = sycl::malloc_shared<int>(8, q);
    modifiable_graph g{q.get_context(), q.get_device(), multi_device};
    g.begin_recording(q);
    q.parallel_for(sycl::range<1>{8}, [=](sycl::id<1> i) { x[i] = static_cast<int>(i[0]); });
    g.end_recording();
    g.add([&](sycl::handler& h) { h.single_task([=] { x[0] = 42; }); },
          {sycl_ext::property::node::depends_on_all_leaves{}, sycl_encore::property::node::device(q.get_device())});
    auto exec = g.finalize();
    CHECK(exec.impl()->engine->partitions().partitions.size() == 1);
    q.ext_oneapi_graph(exec).wait();
    CHECK(x[0] == 42);
    CHECK(x[7] == 7);
    sycl::free(x, q);
}

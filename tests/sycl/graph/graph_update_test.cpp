// Updating executable graphs: dynamic parameters, node ranges, and whole-graph update; explicit and recorded.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "encore/runtime/kernel_function.hpp"
#include "graph_builder.hpp"
#include "support/sycl_host_usm.hpp"
#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

namespace {
constexpr build_style styles[] = {build_style::explicit_api, build_style::record};
using namespace encore::testing::sycl_kernels;
using encore::testing::test_memory;

// As a kernel object (scale_from.object(device)), its arguments are read at run time: for set_arg.
ENCORE_SYCL_TEST_KERNEL(scale_from, (int* out, const int* in, int factor), { out[i] = in[i] * factor; });
} // namespace

TEST_CASE("dynamic_parameter: a pointer and a scalar change between replays") {
    for (auto style : styles) {
        CAPTURE(to_string(style));
        sycl::queue q;
        constexpr std::size_t n = 32;
        test_memory<int> a_memory(q, n), b_memory(q, n), out_memory(q, n);
        int *in_a = a_memory.get(), *in_b = b_memory.get(), *out = out_memory.get();
        std::vector<int> indices(n);
        std::iota(indices.begin(), indices.end(), 0);
        a_memory.write(indices);
        b_memory.fill(1000);
        graph_builder b(style, q);
        sycl_ext::dynamic_parameter input(b.graph(), in_a);
        sycl_ext::dynamic_parameter factor(b.graph(), 2);
        auto k = scale_from.object(q.get_device());
        auto node = b.add([&](sycl::handler& h) {
            h.set_arg(0, out);
            h.set_arg(1, input);
            h.set_arg(2, factor);
            h.parallel_for(sycl::range<1>{n}, k);
        });
        auto exec = b.done().finalize({sycl_ext::property::graph::updatable{}});
        q.ext_oneapi_graph(exec).wait();
        CHECK(out_memory.read()[5] == 10);

        input.update(in_b);
        factor.update(3);
        q.ext_oneapi_graph(exec).wait();
        CHECK(out_memory.read()[5] == 10); // not pushed to the executable graph yet
        exec.update(node.node);
        q.ext_oneapi_graph(exec).wait();
        CHECK(out_memory.read()[5] == 3000);
    }
}

TEST_CASE("node::update_range and update_nd_range change the launch of the next update") {
    sycl::queue q;
    test_memory<int> memory(q, 64);
    int* v = memory.get();
    sycl_ext::command_graph g{q};
    auto reset = g.add([&](sycl::handler& h) { h.fill(v, 0, 64); });
    auto k = g.add([&](sycl::handler& h) { set_to.parallel_for(h, sycl::range<1>{16}, v, 1); },
                   {sycl_ext::property::node::depends_on(reset)});
    auto nd = g.add([&](sycl::handler& h) { set_to.parallel_for(h, sycl::nd_range<1>{{8}, {4}}, v + 32, 2); },
                    {sycl_ext::property::node::depends_on(k)});
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait();
    auto seen = memory.read();
    CHECK(seen[15] == 1);
    CHECK(seen[16] == 0);
    CHECK(seen[39] == 2);
    CHECK(seen[40] == 0);

    k.update_range(sycl::range<1>{32});
    nd.update_nd_range(sycl::nd_range<1>{{16}, {8}});
    exec.update({k, nd});
    q.ext_oneapi_graph(exec).wait();
    seen = memory.read();
    CHECK(seen[31] == 1);
    CHECK(seen[47] == 2);

    CHECK_THROWS_WITH_AS(reset.update_range(sycl::range<1>{2}), doctest::Contains("not a kernel node"), sycl::exception);
    CHECK_THROWS_WITH_AS(k.update_range(sycl::range<2>{2, 2}), doctest::Contains("dimensions"), sycl::exception);
    try {
        nd.update_nd_range(sycl::nd_range<1>{{10}, {4}});
        FAIL("an nd_range whose local range does not divide the global range was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::nd_range);
    }
}

// sycl_ext_oneapi_graph, "Node update": a kernel node made with a range may take an nd_range and the other way
// round (Encore refused the switch before).
TEST_CASE("node::update_range and update_nd_range switch a kernel node between a range and an nd_range") {
    sycl::queue q;
    test_memory<int> memory(q, 64);
    int* v = memory.get();
    memory.fill(0);
    sycl_ext::command_graph g{q};
    auto k = g.add([&](sycl::handler& h) { add_to.parallel_for(h, sycl::range<1>{16}, v, 1); });
    auto nd = g.add([&](sycl::handler& h) { add_to.parallel_for(h, sycl::nd_range<1>{{8}, {4}}, v + 32, 10); },
                    {sycl_ext::property::node::depends_on(k)});
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    k.update_nd_range(sycl::nd_range<1>{{24}, {8}});
    nd.update_range(sycl::range<1>{12});
    exec.update({k, nd});
    q.ext_oneapi_graph(exec).wait();
    auto seen = memory.read();
    CHECK(std::count(seen.begin(), seen.begin() + 32, 1) == 24);
    CHECK(seen[23] == 1);
    CHECK(seen[24] == 0);
    CHECK(std::count(seen.begin() + 32, seen.end(), 10) == 12);
    CHECK(seen[43] == 10);
    CHECK(seen[44] == 0);
    // The dimensions still have to match, and an nd_range still has to divide.
    CHECK_THROWS_WITH_AS(nd.update_nd_range(sycl::nd_range<2>{{4, 4}, {2, 2}}), doctest::Contains("dimensions"),
                         sycl::exception);
    try {
        k.update_nd_range(sycl::nd_range<1>{{10}, {4}});
        FAIL("an nd_range whose local range does not divide the global range was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::nd_range);
    }
}

// The specification: updating the range of a node made from a dynamic command group updates it for every node
// sharing the group, and making a command group active again uses its most recently updated range, not the one it
// was made with. Encore used to restore the original range on set_active_index and on a dynamic parameter's update.
TEST_CASE("nodes of a dynamic command group share range updates; a command group keeps its range") {
    sycl::queue q;
    constexpr std::size_t n = 64;
    test_memory<int> memory(q, n), in_memory(q, n);
    int* v = memory.get();
    int* in = in_memory.get();
    in_memory.fill(1);
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_command_group group(g, {
        [&](sycl::handler& h) { add_to.parallel_for(h, sycl::range<1>{n}, v, 1); },
        [&](sycl::handler& h) { add_to.parallel_for(h, sycl::range<1>{n}, v, 100); },
    });
    auto first = g.add(group);
    auto second = g.add(group, {sycl_ext::property::node::depends_on(first)});
    first.update_range(sycl::range<1>{32});
    group.set_active_index(1);
    group.set_active_index(0);
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    auto run = [&] {
        memory.fill(0);
        q.ext_oneapi_graph(exec).wait();
        return memory.read();
    };
    auto seen = run();
    CHECK(std::count(seen.begin(), seen.end(), 2) == 32); // both nodes over 32 items
    CHECK(seen[31] == 2);
    CHECK(seen[32] == 0);

    // Command group 1 has its own range (still 64); an update through the second node reaches the first.
    group.set_active_index(1);
    second.update_range(sycl::range<1>{16});
    exec.update({first, second});
    seen = run();
    CHECK(std::count(seen.begin(), seen.end(), 200) == 16);
    CHECK(seen[16] == 0);
    // Command group 0 again: the 32 it was updated to.
    group.set_active_index(0);
    exec.update({first, second});
    seen = run();
    CHECK(std::count(seen.begin(), seen.end(), 2) == 32);

    // A dynamic parameter the group uses keeps the range too.
    auto scale = scale_from.object(q.get_device());
    sycl_ext::command_graph pg{q};
    sycl_ext::dynamic_parameter factor(pg, 2);
    sycl_ext::dynamic_command_group kernels(pg, {[&](sycl::handler& h) {
                                                     h.set_args(v, in, factor);
                                                     h.parallel_for(sycl::range<1>{n}, scale);
                                                 }});
    auto node = pg.add(kernels);
    node.update_range(sycl::range<1>{8});
    factor.update(7);
    auto pexec = pg.finalize();
    memory.fill(0);
    q.ext_oneapi_graph(pexec).wait();
    seen = memory.read();
    CHECK(std::count(seen.begin(), seen.end(), 7) == 8);
    CHECK(seen[8] == 0);
}

TEST_CASE("whole-graph update swaps the input buffers of a graph of the same topology") {
    for (auto style : styles) {
        CAPTURE(to_string(style));
        sycl::queue q;
        constexpr std::size_t n = 16;
        test_memory<int> in1_memory(q, n), in2_memory(q, n), out_memory(q, n);
        int *in1 = in1_memory.get(), *in2 = in2_memory.get(), *out = out_memory.get();
        in1_memory.fill(1);
        in2_memory.fill(50);
        auto build = [&](int* in) {
            graph_builder b(style, q);
            auto copy = b.add([&](sycl::handler& h) { h.memcpy(out, in, n * sizeof(int)); });
            b.add([&](sycl::handler& h) { multiply_by.parallel_for(h, sycl::range<1>{n}, out, 2); }, {copy});
            return b.done();
        };
        auto first = build(in1);
        auto second = build(in2);
        auto exec = first.finalize({sycl_ext::property::graph::updatable{}});
        q.ext_oneapi_graph(exec).wait();
        CHECK(out_memory.read()[3] == 2);
        exec.update(second);
        q.ext_oneapi_graph(exec).wait();
        CHECK(out_memory.read()[3] == 100);

        graph_builder different(style, q);
        different.add([&](sycl::handler& h) { h.memcpy(out, in1, n * sizeof(int)); });
        try {
            exec.update(different.done());
            FAIL("a graph of another topology was accepted");
        } catch (const sycl::exception& e) {
            CHECK(e.code() == sycl::errc::invalid);
            CHECK(std::string(e.what()).find("node") != std::string::npos);
        }
    }
}

TEST_CASE("update needs property::graph::updatable and nodes of the source graph") {
    sycl::queue q;
    test_memory<int> memory(q, 4);
    int* v = memory.get();
    sycl_ext::command_graph g{q};
    auto k = g.add([&](sycl::handler& h) { set_to.single_task(h, v, 1); });
    auto plain = g.finalize();
    CHECK_THROWS_WITH_AS(plain.update(k), doctest::Contains("updatable"), sycl::exception);
    CHECK_THROWS_WITH_AS(plain.update(g), doctest::Contains("updatable"), sycl::exception);
    auto updatable = g.finalize({sycl_ext::property::graph::updatable{}});
    sycl_ext::command_graph other{q};
    auto foreign = other.add([&](sycl::handler& h) { set_to.single_task(h, v + 1, 1); });
    CHECK_THROWS_WITH_AS(updatable.update(foreign), doctest::Contains("another graph"), sycl::exception);
    auto added_later = g.add([&](sycl::handler& h) { set_to.single_task(h, v + 2, 1); });
    CHECK_THROWS_AS(updatable.update(added_later), sycl::exception); // not in the finalized graph
}

// Found by the API fuzzer (tests/fuzz): the first node was updated before the second was refused.
TEST_CASE("a refused node update changes nothing, also for the nodes listed before the refused one") {
    sycl::queue q;
    test_memory<int> memory(q, 8);
    int* v = memory.get();
    memory.fill(0);
    sycl_ext::command_graph g{q};
    auto k = g.add([&](sycl::handler& h) { add_to.parallel_for(h, sycl::range<1>{8}, v, 1); });
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    auto added_later = g.add([&](sycl::handler& h) { set_to.single_task(h, v, 100); });
    k.update_range(sycl::range<1>{2});
    CHECK_THROWS_WITH_AS(exec.update({k, added_later}), doctest::Contains("after this executable graph was finalized"),
                         sycl::exception);
    q.ext_oneapi_graph(exec).wait();
    CHECK(memory.read()[7] == 1); // still the range of 8 it was finalized with
    exec.update(k);
    q.ext_oneapi_graph(exec).wait();
    const auto seen = memory.read();
    CHECK(seen[1] == 2);
    CHECK(seen[7] == 1); // the update took the range of 2
}

// Found by the API fuzzer (tests/fuzz): the sub-graph node embedded the executable graph as finalized, so it ran
// other commands than a launch of that same executable graph.
TEST_CASE("a sub-graph made from an updated executable graph runs the updated commands") {
    sycl::queue q;
    test_memory<int> memory(q, 2);
    int* v = memory.get();
    memory.fill(0);
    auto k = set_to.object(q.get_device()); // a single task: *v = x
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_parameter value(g, 1);
    auto n = g.add([&](sycl::handler& h) {
        h.set_args(v, value);
        h.single_task(k);
    });
    auto child = g.finalize({sycl_ext::property::graph::updatable{}});
    value.update(2);
    child.update(n); // node update
    sycl_ext::command_graph parent{q};
    parent.add([&](sycl::handler& h) { h.ext_oneapi_graph(child); });
    auto parent_exec = parent.finalize();
    q.ext_oneapi_graph(parent_exec).wait();
    CHECK(memory.read()[0] == 2);

    sycl_ext::command_graph same_shape{q}; // whole-graph update
    same_shape.add([&](sycl::handler& h) {
        h.set_args(v + 1, 3);
        h.single_task(k);
    });
    child.update(same_shape);
    sycl_ext::command_graph parent2{q};
    parent2.add([&](sycl::handler& h) { h.ext_oneapi_graph(child); });
    auto parent2_exec = parent2.finalize();
    q.ext_oneapi_graph(parent2_exec).wait();
    CHECK(memory.read()[1] == 3);
    // A sub-graph node made before the update keeps what it embedded.
    memory.write({0});
    q.ext_oneapi_graph(parent_exec).wait();
    const auto seen = memory.read();
    CHECK(seen[0] == 2);
    CHECK(seen[1] == 3);
}

// A reduction, launched by a lambda kernel: reduction.
TEST_CASE("a reduction node whose range is updated reduces over the new range" * doctest::test_suite("reduction")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    int* data = sycl::malloc_shared<int>(64, q);
    int* sum = sycl::malloc_shared<int>(1, q);
    for (int i = 0; i < 64; ++i) data[i] = i;
    sycl_ext::command_graph g{q};
    auto node = g.add([&](sycl::handler& h) {
        h.parallel_for(sycl::range<1>{10},
                       sycl::reduction(sum, sycl::plus<int>(), {sycl::property::reduction::initialize_to_identity{}}),
                       [=](sycl::id<1> i, auto& s) { s += data[i]; });
    });
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait();
    CHECK(*sum == 45);
    node.update_range(sycl::range<1>{20});
    exec.update(node);
    q.ext_oneapi_graph(exec).wait();
    CHECK(*sum == 190);
    q.ext_oneapi_graph(exec).wait();
    CHECK(*sum == 190);

    const auto limit = q.get_device().get_info<sycl::info::device::max_work_group_size>();
    sycl_ext::command_graph nd_graph{q};
    auto nd = nd_graph.add([&](sycl::handler& h) {
        h.parallel_for(sycl::nd_range<1>{{4}, {2}}, [=](sycl::nd_item<1>) {});
    });
    try {
        nd.update_nd_range(sycl::nd_range<1>{{2 * (limit + 1)}, {limit + 1}});
        FAIL("a work-group larger than the device allows was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::nd_range);
    }
    sycl::free(data, q);
    sycl::free(sum, q);
}

TEST_CASE("dynamic_command_group: switching the active kernel (other dimensions too) and host task") {
    for (auto style : {build_style::explicit_api}) { // add(dynamic_command_group) exists only in the explicit API
        CAPTURE(to_string(style));
        sycl::queue q;
        test_memory<int> memory(q, 16);
        int* v = memory.get();
        memory.fill(0);
        sycl_ext::command_graph g{q};
        sycl_ext::dynamic_parameter factor(g, 3);
        auto times = index_times.object(q.get_device());
        sycl_ext::dynamic_command_group group(g, {
            [&](sycl::handler& h) { set_to.parallel_for(h, sycl::range<1>{16}, v, 1); },
            [&](sycl::handler& h) { set_to.parallel_for(h, sycl::range<2>{4, 4}, v, 2); }, // i: the linear id
            [&](sycl::handler& h) {
                h.set_arg(0, v);
                h.set_arg(1, factor);
                h.parallel_for(sycl::range<1>{16}, times);
            },
        });
        CHECK(group.get_active_index() == 0);
        auto node = g.add(group);
        CHECK(node.get_type() == sycl_ext::node_type::kernel);
        auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
        q.ext_oneapi_graph(exec).wait();
        CHECK(memory.read()[15] == 1);

        group.set_active_index(1);
        exec.update(node);
        q.ext_oneapi_graph(exec).wait();
        CHECK(memory.read()[15] == 2);

        group.set_active_index(2);
        factor.update(5); // a dynamic parameter inside a dynamic command group
        exec.update(node);
        q.ext_oneapi_graph(exec).wait();
        CHECK(memory.read()[15] == 75);
        CHECK(group.get_active_index() == 2);

        CHECK_THROWS_WITH_AS(group.set_active_index(3), doctest::Contains("not an index"), sycl::exception);
    }
}

TEST_CASE("dynamic_command_group: what it refuses") {
    sycl::queue q;
    test_memory<int> memory(q, 4);
    int* v = memory.get();
    sycl_ext::command_graph g{q};
    auto check_invalid = [](auto&& f, const char* words) {
        try {
            f();
            FAIL("no exception");
        } catch (const sycl::exception& e) {
            CHECK(e.code() == sycl::errc::invalid);
            CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
        }
    };
    check_invalid([&] { sycl_ext::dynamic_command_group(g, {}); }, "empty");
    check_invalid([&] { sycl_ext::dynamic_command_group(g, {[&](sycl::handler& h) { h.memset(v, 0, 4); }}); },
                  "kernel or a host task");
    check_invalid([&] {
        sycl_ext::dynamic_command_group(g, {[&](sycl::handler& h) { h.single_task([=] { v[0] = 1; }); },
                                            [&](sycl::handler& h) { h.host_task([=] { v[0] = 2; }); }});
    }, "same type");
    auto e = g.add();
    (void)e;
    sycl_ext::command_graph other{q};
    sycl_ext::dynamic_command_group foreign(other, {[&](sycl::handler& h) { h.single_task([=] { v[0] = 1; }); }});
    check_invalid([&] { g.add(foreign); }, "another graph");
}

TEST_CASE("host tasks in dynamic command groups, and graphs made from a device") {
    sycl::queue q;
    sycl_ext::command_graph g{q.get_device()};
    CHECK(g.empty());
    int seen = 0;
    sycl_ext::dynamic_command_group group(g, {[&](sycl::handler& h) { h.host_task([&] { seen = 1; }); },
                                              [&](sycl::handler& h) { h.host_task([&] { seen = 2; }); }});
    auto n = g.add(group);
    CHECK_FALSE(g.empty());
    CHECK(n.get_type() == sycl_ext::node_type::host_task);
    sycl_ext::command_graph other{q.get_device()};
    CHECK(g.get_id() != other.get_id());
    sycl::queue on_default_context{q.get_device()};
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    on_default_context.ext_oneapi_graph(exec).wait();
    CHECK(seen == 1);
    group.set_active_index(1);
    exec.update(n);
    on_default_context.ext_oneapi_graph(exec).wait();
    CHECK(seen == 2);
}

TEST_CASE("profiling the submissions of a graph needs property::graph::enable_profiling") {
    sycl::queue q{sycl::property::queue::enable_profiling{}};
    test_memory<int> memory(q, 4);
    int* v = memory.get();
    sycl_ext::command_graph g{q};
    g.add([&](sycl::handler& h) { set_to.single_task(h, v, 1); });
    auto plain = g.finalize();
    auto profiled = g.finalize({sycl_ext::property::graph::enable_profiling{}});
    auto e1 = q.ext_oneapi_graph(plain);
    auto e2 = q.ext_oneapi_graph(profiled, e1); // both write v[0]: one after the other
    q.wait();
    try {
        (void)e1.get_profiling_info<sycl::info::event_profiling::command_end>();
        FAIL("a graph finalized without enable_profiling was profiled");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
    }
    CHECK(e2.get_profiling_info<sycl::info::event_profiling::command_end>() >=
          e2.get_profiling_info<sycl::info::event_profiling::command_start>());
}

TEST_CASE("dynamic_parameter of an accessor: the node switches buffers, and ordering follows the new buffer") {
    for (auto style : styles) {
        CAPTURE(to_string(style));
        sycl::queue q;
        constexpr std::size_t n = 16;
        std::vector<int> host_a(n, 1), host_b(n, 50);
        test_memory<int> out_memory(q, n);
        int* out = out_memory.get();
        {
            sycl::buffer<int> a{host_a.data(), sycl::range<1>{n}}, b{host_b.data(), sycl::range<1>{n}};
            graph_builder builder(style, q);
            sycl::accessor<int, 1, sycl::access_mode::read_write> acc_a{a}, acc_b{b}; // placeholders
            sycl_ext::dynamic_parameter input(builder.graph(), acc_a);
            sycl_ext::dynamic_parameter factor(builder.graph(), 2);
            auto k = scale_from.object(q.get_device());
            auto node = builder.add([&](sycl::handler& h) {
                h.require(input);
                h.set_arg(0, out);
                h.set_arg(1, input);
                h.set_arg(2, factor);
                h.parallel_for(sycl::range<1>{n}, k);
            });
            auto exec = builder.done().finalize({sycl_ext::property::graph::updatable{}});
            q.ext_oneapi_graph(exec).wait();
            CHECK(out_memory.read()[3] == 2);

            input.update(acc_b);
            exec.update(node.node);
            // Eager work writing b first: the graph's launch now uses b, so it runs after this write.
            q.submit([&](sycl::handler& h) {
                sycl::accessor w{b, h, sycl::write_only};
                set_to.parallel_for(h, sycl::range<1>{n}, w, 7);
            });
            q.ext_oneapi_graph(exec).wait();
            CHECK(out_memory.read()[3] == 14);
        } // b is destroyed after the graph: it writes back what the kernel left (7s)
        CHECK(host_b[3] == 7);
    }
}

TEST_CASE("dynamic_parameter of an accessor: misuse is errc::invalid") {
    sycl::queue q;
    sycl::buffer<int> a{sycl::range<1>{4}};
    sycl_ext::command_graph g{q};
    sycl::accessor<int, 1, sycl::access_mode::read_write> acc{a};
    sycl_ext::dynamic_parameter param(g, acc);
    auto expect_invalid = [](auto&& f) {
        try {
            f();
            FAIL("no exception");
        } catch (const sycl::exception& e) {
            CHECK(e.code() == sycl::errc::invalid);
        }
    };
    expect_invalid([&] { q.submit([&](sycl::handler& h) { h.require(param); }); }); // eagerly
    sycl_ext::command_graph other{q};
    expect_invalid([&] { other.add([&](sycl::handler& h) { h.require(param); }); });
    expect_invalid([&] { sycl_ext::dynamic_parameter empty(g, sycl::accessor<int, 1, sycl::access_mode::read>{}); });
    sycl_ext::dynamic_parameter scalar(g, 5);
    expect_invalid([&] { g.add([&](sycl::handler& h) { h.require(scalar); }); });
}

// A host kernel object (encore::make_kernel) sees the size of its local memory argument: native.
TEST_CASE("dynamic_local_accessor: the local memory argument of a kernel object's node is resized by update" *
          doctest::test_suite("native")) {
    sycl::queue q;
    constexpr std::size_t n = 64;
    std::size_t* seen = sycl::malloc_shared<std::size_t>(n, q);
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_local_accessor<int, 1> local_k(g, sycl::range<1>{8});
    auto sizes = sycl::ext::encore::make_kernel(encore::make_kernel(
        "local_size", [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            static_cast<std::size_t*>(args[0].pointer())[it.global_id[0]] = args[1].local_bytes;
        }));
    auto object_node = g.add([&](sycl::handler& h) {
        h.set_arg(0, seen);
        h.set_arg(1, local_k);
        h.parallel_for(sycl::nd_range<1>{{n}, {8}}, sizes);
    });
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait();
    CHECK(seen[0] == 8 * sizeof(int));
    local_k.update(sycl::range<1>{32});
    exec.update(object_node);
    q.ext_oneapi_graph(exec).wait();
    CHECK(seen[0] == 32 * sizeof(int));
    sycl::free(seen, q);
}

// Local memory and a group barrier in a SYCL lambda kernel: lambda.
TEST_CASE("dynamic_local_accessor: the local memory of a lambda kernel's node is resized by update" *
          doctest::test_suite("lambda")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    constexpr std::size_t n = 64;
    int* out = sycl::malloc_shared<int>(n, q);
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_local_accessor<int, 1> local_l(sycl::range<1>{8}); // no graph: joins g at its first use
    // Each item reads its neighbour's value in its group's local memory.
    auto lambda_node = g.add([&](sycl::handler& h) {
        auto mem = local_l.get(h);
        h.parallel_for(sycl::nd_range<1>{{n}, {8}}, [=](sycl::nd_item<1> it) {
            const auto lid = it.get_local_id(0), size = it.get_local_range(0);
            mem[lid] = static_cast<int>(it.get_global_id(0));
            sycl::group_barrier(it.get_group());
            out[it.get_global_id(0)] = mem[(lid + 1) % size];
        });
    });
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait();
    CHECK(out[7] == 0); // group of 8: item 7 reads item 0

    local_l.update(sycl::range<1>{32});
    lambda_node.update_nd_range(sycl::nd_range<1>{{n}, {32}});
    exec.update(lambda_node);
    q.ext_oneapi_graph(exec).wait();
    CHECK(out[7] == 8); // group of 32 now
    CHECK(out[31] == 0);
    CHECK(out[63] == 32);

    sycl_ext::command_graph other{q};
    try {
        other.add([&](sycl::handler& h) {
            auto mem = local_l.get(h);
            h.parallel_for(sycl::nd_range<1>{{8}, {8}}, [=](sycl::nd_item<1> it) { mem[it.get_local_id(0)] = 0; });
        });
        FAIL("a dynamic_local_accessor of graph g was used in another graph");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
    }
    sycl::free(out, q);
}

// DPC++'s current constructor: no graph; the parameter joins the graph of the first node that uses it.
TEST_CASE("dynamic_parameter made without a graph belongs to the graph of its first node") {
    sycl::queue q;
    constexpr std::size_t n = 16;
    test_memory<int> in_memory(q, n), out_memory(q, n);
    int *in = in_memory.get(), *out = out_memory.get();
    in_memory.fill(3);
    sycl_ext::dynamic_parameter factor(2);
    factor.update(4); // before any node uses it: the value it starts with
    auto k = scale_from.object(q.get_device());
    sycl_ext::command_graph g{q};
    auto node = g.add([&](sycl::handler& h) {
        h.set_args(out, in, factor);
        h.parallel_for(sycl::range<1>{n}, k);
    });
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait();
    CHECK(out_memory.read()[n - 1] == 12);
    factor.update(5);
    exec.update(node);
    q.ext_oneapi_graph(exec).wait();
    CHECK(out_memory.read()[0] == 15);

    sycl_ext::command_graph other{q};
    CHECK_THROWS_WITH_AS(other.add([&](sycl::handler& h) {
        h.set_args(out, in, factor);
        h.parallel_for(sycl::range<1>{n}, k);
    }),
                         doctest::Contains("belongs to another graph"), sycl::exception);
    CHECK(other.empty());
}

// What the graph extension forbids throws sycl::exception with errc::invalid (and says why).
#include <doctest/doctest.h>

#include <optional>

#include "graph_builder.hpp"
#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

namespace {
using encore::testing::sycl_kernels::set_to;
using encore::testing::test_memory;

template <typename F> void check_invalid(F&& f, const char* words) {
    try {
        f();
        FAIL("no exception; expected errc::invalid mentioning '" << words << "'");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
        CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
    }
}
} // namespace

TEST_CASE("edges: cycles, self edges, duplicates and nodes of other graphs") {
    sycl::queue q;
    sycl_ext::command_graph g{q};
    auto a = g.add();
    auto b = g.add({sycl_ext::property::node::depends_on(a)});
    check_invalid([&] { g.make_edge(b, a); }, "cycle");
    check_invalid([&] { g.make_edge(a, a); }, "itself");
    check_invalid([&] { g.make_edge(a, b); }, "already");
    sycl_ext::command_graph other{q};
    auto foreign = other.add();
    check_invalid([&] { g.make_edge(a, foreign); }, "belong to this graph");
    check_invalid([&] { g.add({sycl_ext::property::node::depends_on(foreign)}); }, "another graph");
    CHECK(g.get_nodes().size() == 2); // the failed calls changed nothing

    // With no_cycle_check the edge goes in, and finalize reports the cycle.
    sycl_ext::command_graph unchecked{q.get_context(), q.get_device(), {sycl_ext::property::graph::no_cycle_check{}}};
    auto x = unchecked.add();
    auto y = unchecked.add({sycl_ext::property::node::depends_on(x)});
    unchecked.make_edge(y, x);
    check_invalid([&] { (void)unchecked.finalize(); }, "cycle");
}

TEST_CASE("recording: what the specification forbids") {
    sycl::queue q;
    test_memory<int> memory(q, 4);
    int* v = memory.get();
    sycl_ext::command_graph g{q};
    sycl_ext::command_graph other{q};
    sycl::queue q2_for_edges{q.get_context(), q.get_device()};
    g.begin_recording(q);
    CHECK_FALSE(g.begin_recording(q)); // already recording into this graph: nothing changes

    check_invalid([&] { other.begin_recording(q); }, "another graph");
    auto n1 = other.add(), n2 = other.add();
    other.begin_recording(q2_for_edges);
    check_invalid([&] { other.make_edge(n1, n2); }, "recorded");
    other.end_recording();
    sycl::queue foreign_context{sycl::context{q.get_device()}, q.get_device()};
    check_invalid([&] { g.begin_recording(foreign_context); }, "device and context");
    check_invalid([&] { other.end_recording(q); }, "another graph");
    check_invalid([&] { g.add(); }, "recorded");
    auto e = set_to.single_task(q, {}, v, 1);
    check_invalid([&] { q.wait(); }, "recording");
    check_invalid([&] { e.wait(); }, "graph");
    check_invalid([&] { (void)e.get_info<sycl::info::event::command_execution_status>(); }, "graph");
    g.end_recording();

    // The graph-limited event cannot order eager work, nor nodes of another graph.
    check_invalid([&] { set_to.single_task(q, {e}, v + 1, 1); }, "recording a graph");
    other.begin_recording(q);
    check_invalid([&] { set_to.single_task(q, {e}, v + 1, 1); }, "another graph");
    other.end_recording();
    check_invalid([&] { (void)q.ext_oneapi_get_graph(); }, "not recording");
    check_invalid([&] { (void)sycl_ext::node::get_node_from_event(set_to.single_task(q, {}, v + 2, 1)); }, "recorded");
    q.wait();
}

TEST_CASE("buffers: host accessors wait for the recording's end") {
    sycl::queue q;
    sycl::buffer<int> buf{sycl::range<1>{8}};
    sycl_ext::command_graph g{q.get_context(), q.get_device(), {sycl_ext::property::graph::assume_buffer_outlives_graph{}}};
    g.begin_recording(q);
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{buf, h, sycl::write_only};
        set_to.single_task(h, a, 42);
    });
    check_invalid([&] { sycl::host_accessor h{buf}; }, "recording");
    g.end_recording();
    {
        sycl::host_accessor h{buf, sycl::read_only};
        CHECK(h[0] == 0); // recorded, not run
    }
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec);
    sycl::host_accessor h{buf, sycl::read_only}; // waits for the graph's launch
    CHECK(h[0] == 42);
}

TEST_CASE("misuse of graph objects") {
    sycl::queue q;
    test_memory<int> memory(q, 4);
    int* v = memory.get();
    sycl_ext::command_graph g{q};
    check_invalid([&] { g.print_graph("graph.txt"); }, ".dot");
    sycl_ext::dynamic_parameter p(g, v);
    check_invalid([&] {
        q.submit([&](sycl::handler& h) {
            h.set_arg(0, p);
            h.single_task(sycl::ext::encore::make_kernel(encore::make_kernel("nop", [](const encore::work_item&) {})));
        });
    }, "dynamic_parameter");
    sycl_ext::command_graph other{q};
    check_invalid([&] {
        other.add([&](sycl::handler& h) {
            h.set_arg(0, p);
            h.single_task(sycl::ext::encore::make_kernel(encore::make_kernel("nop", [](const encore::work_item&) {})));
        });
    }, "another graph");
    check_invalid([&] {
        g.add([&](sycl::handler& h) {
            h.single_task([=] { v[0] = 1; });
            h.single_task([=] { v[0] = 2; });
        });
    }, "one command");
    check_invalid([&] { g.add([&](sycl::handler& h) { h.ext_oneapi_barrier(); }); }, "depends_on_all_leaves");
    auto exec = g.finalize();
    check_invalid([&] { g.add([&](sycl::handler& h) { h.ext_oneapi_graph(exec); }); }, "itself");
}

TEST_CASE("a queue destroyed while recording ends its recording") {
    sycl::buffer<int> buf{sycl::range<1>{4}};
    sycl::queue keep;
    sycl_ext::command_graph g{keep.get_context(), keep.get_device(), {sycl_ext::property::graph::assume_buffer_outlives_graph{}}};
    {
        sycl::queue q{keep.get_context(), keep.get_device()};
        g.begin_recording(q);
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{buf, h, sycl::write_only};
            h.single_task([=] { a[0] = 7; });
        });
        check_invalid([&] { sycl::host_accessor h{buf}; }, "recording");
    }
    sycl::host_accessor h{buf}; // allowed again
    CHECK(h[0] == 0);
    CHECK(g.get_nodes().size() == 1);
    g.add(); // explicit changes are allowed again too
}

// sycl_ext_oneapi_graph, "Exception Safety": when the last copy of a modifiable graph goes, recording ends on the
// queues recording into it. Found by the API fuzzer (tests/fuzz): the queues kept recording a graph nobody held.
TEST_CASE("the last copy of a graph destroyed while queues record into it ends their recording") {
    sycl::queue q, q2{q.get_context(), q.get_device()};
    test_memory<int> memory(q, 1);
    int* v = memory.get();
    memory.fill(0);
    std::optional<sycl_ext::command_graph<sycl_ext::graph_state::executable>> exec;
    {
        sycl_ext::command_graph g{q};
        g.begin_recording({q, q2});
        set_to.single_task(q, {}, v, 1);
        {
            auto copy = q.ext_oneapi_get_graph(); // a copy made by the queue is a copy like any other
            CHECK(copy == g);
        }
        CHECK(q.ext_oneapi_get_state() == sycl_ext::queue_state::recording); // g still has a copy
        exec.emplace(g.finalize());
    }
    CHECK(q.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
    CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
    q.wait(); // allowed again
    q.ext_oneapi_graph(*exec).wait(); // the executable graph made from it keeps working
    CHECK(memory.read()[0] == 1);
}

namespace {
ENCORE_SYCL_TEST_KERNEL(copy_scaled, (int* out, const int* in, int factor), { out[i] = in[i] * factor; });
}

// Found by a DPC++ update program: set_arg at an index the kernel does not have was accepted, and the dynamic
// parameter's update() later threw std::out_of_range from inside Encore. Refused where it happens now, with the
// graph unchanged. Only kernels that know their argument count can be checked (docs/sycl-graph.md): on the
// native backend every kernel object the test kernels make does.
TEST_CASE("set_arg at an index the kernel object does not have is refused when the node is added" *
          doctest::test_suite("native")) {
    sycl::queue q;
    test_memory<int> memory(q, 8);
    int* v = memory.get();
    auto k = copy_scaled.object(q.get_device());
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_parameter factor(g, 2);
    check_invalid(
        [&] {
            g.add([&](sycl::handler& h) {
                h.set_args(v, v, 1);
                h.set_arg(3, factor);
                h.parallel_for(sycl::range<1>{8}, k);
            });
        },
        "set_arg(3): kernel 'copy_scaled' has 3 arguments (indices 0 to 2)");
    CHECK(g.empty());
    factor.update(3); // nothing registered the parameter: no node to update, nothing thrown
    // The same on an eager queue.
    check_invalid(
        [&] {
            q.submit([&](sycl::handler& h) {
                h.set_args(v, v, 1, 4);
                h.single_task(k);
            });
        },
        "has 3 arguments");
    // Too few arguments: the one missing is named.
    try {
        q.submit([&](sycl::handler& h) {
            h.set_args(v, v);
            h.single_task(k);
        });
        FAIL("a kernel launched without its third argument was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::kernel_argument);
        CHECK_MESSAGE(std::string(e.what()).find("argument 2 was not set") != std::string::npos, e.what());
    }
}

// A lambda kernel's arguments are its captures: only encore++ decomposes them (issue: set_arg on lambda kernels
// as DPC++ does it). A g++ build refuses set_arg on a lambda at the launch, naming the way out.
TEST_CASE("set_arg on a lambda kernel is refused in a program not built by encore++") {
    sycl::queue q;
    test_memory<int> memory(q, 8);
    int* v = memory.get();
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_parameter pointer(g, v);
    check_invalid(
        [&] {
            g.add([&](sycl::handler& h) {
                h.set_arg(0, pointer);
                h.parallel_for(sycl::range<1>{8}, [=](sycl::id<1> i) { v[i] = 1; });
            });
        },
        "set_arg(0): lambda kernel");
    check_invalid(
        [&] {
            q.submit([&](sycl::handler& h) {
                h.set_arg(1, 5);
                h.single_task([=] { v[0] = 1; });
            });
        },
        "build the program with encore++");
    CHECK(g.empty());
    pointer.update(v + 1); // no node uses it
}

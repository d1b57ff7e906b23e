// sycl_ext_oneapi_graph: the scenarios of the specification, each run twice with one body: built with the explicit
// API and recorded from a queue.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include "graph_builder.hpp"
#include "support/sycl_host_usm.hpp"
#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

namespace {
constexpr build_style styles[] = {build_style::explicit_api, build_style::record};
using namespace encore::testing::sycl_kernels;
using encore::testing::test_memory;

ENCORE_SYCL_TEST_KERNEL(diamond_init, (float* x, float* y, float* z), {
    x[i] = 1.0f;
    y[i] = 2.0f;
    z[i] = 3.0f;
});
ENCORE_SYCL_TEST_KERNEL(add_into, (float* dst, const float* src), { dst[i] += src[i]; });
ENCORE_SYCL_TEST_KERNEL(sum_into, (float* dst, const float* a, const float* b), { dst[i] = a[i] + b[i]; });
ENCORE_SYCL_TEST_KERNEL(add_second_to_first, (int* v), { v[0] += v[1]; });
} // namespace

TEST_CASE("a diamond of kernels runs in dependency order and replays") {
    for (auto style : styles) {
        CAPTURE(to_string(style));
        sycl::queue q;
        constexpr std::size_t n = 1024;
        test_memory<float> x_memory(q, n), y_memory(q, n), z_memory(q, n);
        float *x = x_memory.get(), *y = y_memory.get(), *z = z_memory.get();
        graph_builder b(style, q);
        // The specification's first example: A initialises, B and C read A's output, D joins them.
        const sycl::range<1> r{n};
        auto a = b.add([&](sycl::handler& h) { diamond_init.parallel_for(h, r, x, y, z); });
        auto bn = b.add([&](sycl::handler& h) { add_into.parallel_for(h, r, x, y); }, {a});
        auto c = b.add([&](sycl::handler& h) { add_into.parallel_for(h, r, z, y); }, {a});
        auto d = b.add([&](sycl::handler& h) { sum_into.parallel_for(h, r, y, x, z); }, {bn, c});
        auto& g = b.done();

        CHECK(g.get_nodes().size() == 4);
        CHECK(g.get_root_nodes() == std::vector{a.node});
        CHECK(d.node.get_predecessors() == std::vector{bn.node, c.node});
        CHECK(a.node.get_successors() == std::vector{bn.node, c.node});
        CHECK(d.node.get_type() == sycl_ext::node_type::kernel);

        auto exec = g.finalize();
        q.ext_oneapi_graph(exec).wait();
        const auto first = y_memory.read();
        for (std::size_t i = 0; i < n; ++i) REQUIRE(first[i] == 8.0f); // (1+2) + (3+2)
        for (int replay = 0; replay < 3; ++replay) q.ext_oneapi_graph(exec);
        q.wait();
        CHECK(y_memory.read()[7] == 8.0f); // A resets the inputs at every replay
    }
}

// The host task reads the first group's results from a copy in host memory, a node before it: on a device without
// shared USM the host cannot read the device's memory itself.
TEST_CASE("a host task between two kernel groups sees the first group's results and precedes the second") {
    for (auto style : styles) {
        CAPTURE(to_string(style));
        sycl::queue q;
        constexpr std::size_t n = 256;
        test_memory<int> memory(q, n);
        int* data = memory.get();
        std::vector<int> copied(n);
        std::atomic<long> seen{0};
        graph_builder b(style, q);
        const sycl::range<1> r{n};
        auto k1 = b.add([&](sycl::handler& h) { set_to.parallel_for(h, r, data, 1); });
        auto k2 = b.add([&](sycl::handler& h) { add_to.parallel_for(h, r, data, 1); }, {k1});
        auto to_host = b.add([&](sycl::handler& h) { h.memcpy(copied.data(), data, n * sizeof(int)); }, {k2});
        auto host = b.add([&](sycl::handler& h) {
            h.host_task([&copied, &seen] { seen = std::accumulate(copied.begin(), copied.end(), 0L); });
        }, {to_host});
        auto k3 = b.add([&](sycl::handler& h) { multiply_by.parallel_for(h, r, data, 10); }, {host});
        auto& g = b.done();
        CHECK(host.node.get_type() == sycl_ext::node_type::host_task);
        CHECK(host.node.get_predecessors() == std::vector{to_host.node});
        CHECK(k3.node.get_predecessors() == std::vector{host.node});
        auto exec = g.finalize();
        q.ext_oneapi_graph(exec).wait();
        CHECK(seen == 2 * static_cast<long>(n));
        CHECK(memory.read()[0] == 20);
    }
}

TEST_CASE("every command kind becomes the node type the specification names") {
    for (auto style : styles) {
        CAPTURE(to_string(style));
        sycl::queue q;
        test_memory<int> a_memory(q, 16), c_memory(q, 16);
        int *a = a_memory.get(), *c = c_memory.get();
        graph_builder b(style, q);
        auto fill = b.add([&](sycl::handler& h) { h.fill(a, 7, 16); });
        auto copy = b.add([&](sycl::handler& h) { h.memcpy(c, a, 16 * sizeof(int)); }, {fill});
        auto set = b.add([&](sycl::handler& h) { h.memset(a, 0, 16 * sizeof(int)); }, {copy});
        auto pre = b.add([&](sycl::handler& h) { h.prefetch(c, 16 * sizeof(int)); }, {set});
        auto adv = b.add([&](sycl::handler& h) { h.mem_advise(c, 16 * sizeof(int), 0); }, {pre});
        auto task = b.add([&](sycl::handler& h) { add_to.single_task(h, c, 1); }, {adv});
        auto empty = b.add([](sycl::handler&) {}, {task});
        auto& g = b.done();
        CHECK(fill.node.get_type() == sycl_ext::node_type::memfill);
        CHECK(copy.node.get_type() == sycl_ext::node_type::memcpy);
        CHECK(set.node.get_type() == sycl_ext::node_type::memset);
        CHECK(pre.node.get_type() == sycl_ext::node_type::prefetch);
        CHECK(adv.node.get_type() == sycl_ext::node_type::memadvise);
        CHECK(task.node.get_type() == sycl_ext::node_type::kernel);
        CHECK(empty.node.get_type() == sycl_ext::node_type::empty);
        auto exec = g.finalize();
        q.ext_oneapi_graph(exec).wait();
        const auto copy_seen = c_memory.read();
        CHECK(copy_seen[0] == 8);
        CHECK(copy_seen[15] == 7);
        CHECK(a_memory.read()[3] == 0);
    }
}

TEST_CASE("buffer accessors order nodes: read after write, write after read, write after write") {
    for (auto style : styles) {
        CAPTURE(to_string(style));
        sycl::queue q;
        constexpr std::size_t n = 64;
        std::vector<int> host(n, 1);
        {
            sycl::buffer<int> buf{host};
            sycl::buffer<int> other{sycl::range<1>{n}};
            graph_builder b(style, q, {sycl_ext::property::graph::assume_buffer_outlives_graph{}});
            auto w1 = b.add([&](sycl::handler& h) {
                sycl::accessor a{buf, h, sycl::read_write};
                add_to.parallel_for(h, sycl::range<1>{n}, a, 1);
            });
            auto r1 = b.add([&](sycl::handler& h) {
                sycl::accessor a{buf, h, sycl::read_only};
                sycl::accessor o{other, h, sycl::write_only, sycl::no_init};
                scaled_copy.parallel_for(h, sycl::range<1>{n}, o, a, 10);
            });
            auto w2 = b.add([&](sycl::handler& h) {
                sycl::accessor a{buf, h, sycl::write_only};
                set_to.parallel_for(h, sycl::range<1>{n}, a, 5);
            });
            auto& g = b.done();
            CHECK(r1.node.get_predecessors() == std::vector{w1.node});     // read after write
            CHECK(w2.node.get_predecessors() == std::vector{w1.node, r1.node}); // after the writer and the reader
            auto exec = g.finalize();
            q.ext_oneapi_graph(exec).wait();
            sycl::host_accessor result{other, sycl::read_only};
            CHECK(result[0] == 20);
        }
        CHECK(host[0] == 5); // written back when the buffer went away
    }
}

TEST_CASE("a sub-graph node runs an executable graph inside another graph") {
    for (auto style : styles) {
        CAPTURE(to_string(style));
        sycl::queue q;
        test_memory<int> memory(q, 8);
        int* v = memory.get();
        sycl_ext::command_graph inner{q.get_context(), q.get_device()};
        const sycl::range<1> r{8};
        auto i1 = inner.add([&](sycl::handler& h) { multiply_by.parallel_for(h, r, v, 2); });
        inner.add([&](sycl::handler& h) { add_to.parallel_for(h, r, v, 1); },
                  {sycl_ext::property::node::depends_on(i1)});
        auto inner_exec = inner.finalize();

        graph_builder b(style, q);
        auto init = b.add([&](sycl::handler& h) { h.fill(v, 1, 8); });
        auto sub = b.add([&](sycl::handler& h) { h.ext_oneapi_graph(inner_exec); }, {init});
        auto last = b.add([&](sycl::handler& h) { multiply_by.parallel_for(h, r, v, 100); }, {sub});
        auto& g = b.done();
        CHECK(sub.node.get_type() == sycl_ext::node_type::subgraph);
        CHECK(last.node.get_predecessors() == std::vector{sub.node});
        auto exec = g.finalize();
        q.ext_oneapi_graph(exec).wait();
        CHECK(memory.read()[5] == 300); // (1*2+1)*100
    }
}

// The queue shortcuts take SYCL lambdas only: lambda.
TEST_CASE("recording: in-order queues chain their submissions, shortcuts record too, events cross queues"
          * doctest::test_suite("lambda")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue in_order{sycl::property::queue::in_order{}};
    sycl::queue other{in_order.get_context(), in_order.get_device()};
    int* v = sycl::malloc_shared<int>(4, in_order);
    std::fill(v, v + 4, 0);
    sycl_ext::command_graph g{in_order.get_context(), in_order.get_device()};
    CHECK(g.begin_recording({in_order, other}));
    CHECK(in_order.ext_oneapi_get_state() == sycl_ext::queue_state::recording);
    CHECK(in_order.ext_oneapi_get_graph() == g);
    auto e1 = in_order.fill(v, 1, 4);
    auto e2 = in_order.parallel_for(4, [=](sycl::id<1> i) { v[i] += 1; });
    auto e3 = other.parallel_for(4, e2, [=](sycl::id<1> i) { v[i] *= 3; }); // an event of the other queue
    auto e4 = in_order.single_task(e3, [=] { v[0] = -v[0]; });
    CHECK(g.end_recording());
    CHECK(in_order.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
    CHECK_FALSE(g.end_recording()); // nothing records any more

    using sycl_ext::node;
    CHECK(node::get_node_from_event(e2).get_predecessors() == std::vector{node::get_node_from_event(e1)});
    CHECK(node::get_node_from_event(e3).get_predecessors() == std::vector{node::get_node_from_event(e2)});
    CHECK(node::get_node_from_event(e4).get_predecessors() ==
          std::vector{node::get_node_from_event(e2), node::get_node_from_event(e3)});
    CHECK(v[0] == 0); // nothing ran while recording
    auto exec = g.finalize();
    in_order.ext_oneapi_graph(exec).wait();
    CHECK(v[0] == -6);
    CHECK(v[3] == 6);
    sycl::free(v, in_order);
}

TEST_CASE("empty nodes, depends_on_all_leaves and make_edge") {
    sycl::queue q;
    test_memory<int> memory(q, 2);
    int* v = memory.get();
    sycl_ext::command_graph g{q.get_context(), q.get_device()};
    auto a = g.add([&](sycl::handler& h) { set_to.single_task(h, v, 1); });
    auto b = g.add([&](sycl::handler& h) { set_to.single_task(h, v + 1, 2); });
    auto join = g.add({sycl_ext::property::node::depends_on_all_leaves{}});
    CHECK(join.get_type() == sycl_ext::node_type::empty);
    CHECK(join.get_predecessors() == std::vector{a, b});
    auto last = g.add([&](sycl::handler& h) { add_second_to_first.single_task(h, v); });
    g.make_edge(join, last);
    CHECK(last.get_predecessors() == std::vector{join});
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    CHECK(memory.read()[0] == 3);
}

TEST_CASE("print_graph writes DOT, verbose adds arguments and ranges, and Encore renders SVG") {
    sycl::queue q;
    test_memory<int> memory(q, 8); // the graph is printed, not run
    int* v = memory.get();
    sycl_ext::command_graph g{q};
    auto k = g.add([&](sycl::handler& h) { h.parallel_for<class print_me>(8, [=](sycl::id<1> i) { v[i] = 0; }); });
    g.add([&](sycl::handler& h) { h.memset(v, 0, 8 * sizeof(int)); }, {sycl_ext::property::node::depends_on(k)});
    auto dir = std::filesystem::temp_directory_path() / ("encore-print-graph-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    g.print_graph((dir / "g.dot").string());
    g.print_graph((dir / "v.dot").string(), true);
    auto read = [](const std::filesystem::path& p) {
        std::ifstream in(p);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    };
    auto plain = read(dir / "g.dot"), verbose = read(dir / "v.dot");
    CHECK(plain.find("digraph") != std::string::npos);
    CHECK(plain.find("kernel 'print_me'") != std::string::npos); // a kernel name declared in a function: its own part
    CHECK(plain.find("->") != std::string::npos);
    CHECK(verbose.size() > plain.size());
    if (sycl::ext::encore::graphviz_available()) {
        sycl::ext::encore::render_svg((dir / "g.dot").string(), (dir / "g.svg").string());
        CHECK(std::filesystem::file_size(dir / "g.svg") > 0);
    } else {
        MESSAGE("Graphviz's dot is not installed: the SVG rendering is not checked");
        CHECK_THROWS_AS(sycl::ext::encore::render_svg((dir / "g.dot").string(), (dir / "g.svg").string()),
                        sycl::exception);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("recorded barriers: they wait for their queue's leaves, and only their queue's later work waits for them") {
    sycl::queue q1;
    sycl::queue q2{q1.get_context(), q1.get_device()};
    sycl_ext::command_graph g{q1};
    g.begin_recording({q1, q2});
    auto a = q1.ext_oneapi_submit_barrier(); // nothing before it: a root
    auto b = q1.submit([](sycl::handler&) {});
    auto c = q2.submit([](sycl::handler&) {});
    auto barrier = q1.ext_oneapi_submit_barrier();
    auto d = q1.submit([](sycl::handler&) {});
    auto e = q2.submit([](sycl::handler&) {});
    g.end_recording();
    using sycl_ext::node;
    CHECK(node::get_node_from_event(barrier).get_type() == sycl_ext::node_type::ext_oneapi_barrier);
    CHECK(node::get_node_from_event(b).get_predecessors() == std::vector{node::get_node_from_event(a)});
    CHECK(node::get_node_from_event(barrier).get_predecessors() == std::vector{node::get_node_from_event(b)});
    CHECK(node::get_node_from_event(d).get_predecessors() == std::vector{node::get_node_from_event(barrier)});
    CHECK(node::get_node_from_event(e).get_predecessors().empty());
    CHECK(node::get_node_from_event(c).get_predecessors().empty());
}

TEST_CASE("an eager barrier holds back what the queue runs after it") {
    sycl::queue q;
    std::atomic<bool> first_done{false};
    std::atomic<bool> saw_first{false};
    q.submit([&](sycl::handler& h) {
        h.host_task([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            first_done = true;
        });
    });
    q.ext_oneapi_submit_barrier();
    q.submit([&](sycl::handler& h) { h.host_task([&] { saw_first = first_done.load(); }); });
    q.wait();
    CHECK(saw_first);
}

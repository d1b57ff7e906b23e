// Recording rules (docs/sycl-graph.md, "Recording rules"): in-order queues stay in order across recording sessions,
// and a queue that depends on an event of a recording queue joins the recording (transitive queue recording).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "../order_log.hpp"
#include "graph_builder.hpp"
#include "support/sycl_host_usm.hpp"
#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

namespace {
using namespace encore::testing::sycl_kernels;
using encore::testing::test_memory;
ENCORE_SYCL_TEST_KERNEL(next_of_first, (int* p), { p[1] = p[0] + 1; });

using modifiable_graph = sycl_ext::command_graph<sycl_ext::graph_state::modifiable>;

const sycl::property_list in_order{sycl::property::queue::in_order()};

template <typename F> void check_invalid(F&& f, const std::vector<std::string>& words) {
    try {
        f();
        FAIL("no exception; expected errc::invalid");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
        for (const auto& w : words)
            CHECK_MESSAGE(std::string(e.what()).find(w) != std::string::npos, e.what(), " lacks '", w, "'");
    }
}

sycl_ext::node node_of(const sycl::event& e) { return sycl_ext::node::get_node_from_event(e); }

std::vector<sycl_ext::node> nodes(std::initializer_list<sycl::event> events) {
    std::vector<sycl_ext::node> out;
    for (const auto& e : events) out.push_back(node_of(e));
    return out;
}

// Where `tag` stands in the log, or the log's size when it is missing.
std::size_t position(order_log& log, int tag) {
    return static_cast<std::size_t>(std::find(log.order.begin(), log.order.end(), tag) - log.order.begin());
}

// A host task that logs `tag`, after a nap when `slow`: a wrongly unordered successor then gets to overtake it.
auto logging(order_log& log, int tag, bool slow = false) {
    return [&log, tag, slow](sycl::handler& h) {
        h.host_task([&log, tag, slow] {
            if (slow) nap();
            log.add(tag);
        });
    };
}

std::string dot_of(const modifiable_graph& g, const std::string& name) {
    const auto path = std::filesystem::temp_directory_path() / ("encore_recording_test_" + name + ".dot");
    g.print_graph(path.string());
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::filesystem::remove(path);
    return text.str();
}

// Kernel names shared by the recorded and the explicit programs, so that print_graph writes the same labels.
class kernel_a;
class kernel_b;
class kernel_c;
class kernel_d;
class kernel_e;
} // namespace

TEST_CASE("in-order: a second recording session into the same graph follows the first (issue 23's program)") {
    sycl::queue q{in_order};
    modifiable_graph g{q.get_context(), q.get_device()};
    test_memory<int> memory(q, 1);
    int* p = memory.get();
    memory.fill(0);
    g.begin_recording(q);
    set_to.single_task(q, {}, p, 1);
    g.end_recording(q);
    g.begin_recording(q); // a second recording session into the same graph
    multiply_by.single_task(q, {}, p, 10);
    g.end_recording(q);
    const auto all = g.get_nodes();
    REQUIRE(all.size() == 2);
    CHECK(all[1].get_predecessors() == std::vector{all[0]});
    auto e = g.finalize();
    q.ext_oneapi_graph(e).wait();
    CHECK(memory.read()[0] == 10);
}

TEST_CASE("in-order: an eager submission between two sessions adds no edge; the second session follows the first") {
    sycl::queue q{in_order};
    modifiable_graph g{q};
    test_memory<int> memory(q, 2);
    int* p = memory.get();
    memory.fill(0);
    order_log log;
    g.begin_recording(q);
    auto first = q.submit(logging(log, 1, true));
    g.end_recording();
    set_to.single_task(q, {}, p + 1, 5); // eager: runs now, and is no node of the graph
    q.wait();
    CHECK(memory.read()[1] == 5);
    g.begin_recording(q);
    auto second = q.submit(logging(log, 2));
    g.end_recording();
    CHECK(g.get_nodes().size() == 2);
    CHECK(g.get_root_nodes() == nodes({first}));
    CHECK(node_of(second).get_predecessors() == nodes({first}));
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    CHECK(log.order == std::vector{1, 2});
}

TEST_CASE("in-order: a session into another graph in between does not disturb the first graph's chain") {
    sycl::queue q{in_order};
    modifiable_graph g{q}, h{q};
    // Kernels, not barriers: a barrier would reach the queue's earlier leaves by itself.
    g.begin_recording(q);
    auto g1 = q.single_task([] {});
    g.end_recording();
    h.begin_recording(q);
    auto h1 = q.single_task([] {});
    auto h2 = q.single_task([] {});
    h.end_recording();
    g.begin_recording(q);
    auto g2 = q.single_task([] {});
    g.end_recording();
    h.begin_recording(q);
    auto h3 = q.single_task([] {});
    h.end_recording();

    CHECK(node_of(g2).get_predecessors() == nodes({g1})); // not h2: the chains are per (queue, graph)
    CHECK(node_of(h1).get_predecessors().empty());        // h's chain starts with h, not with g1
    CHECK(node_of(h2).get_predecessors() == nodes({h1}));
    CHECK(node_of(h3).get_predecessors() == nodes({h2}));
    CHECK(g.get_nodes().size() == 2);
    CHECK(h.get_nodes().size() == 3);
}

TEST_CASE("a recorded barrier orders what the queue records after it, in later sessions too") {
    sycl::queue q; // out of order: only the barrier orders its commands
    sycl::queue other{q.get_context(), q.get_device()};
    modifiable_graph g{q};
    order_log log;
    g.begin_recording(q);
    auto a = q.submit(logging(log, 1, true));
    auto b = q.submit(logging(log, 2, true));
    auto barrier = q.ext_oneapi_submit_barrier();
    g.end_recording();
    g.begin_recording({q, other});
    auto c = q.submit(logging(log, 3));
    auto unrelated = other.submit(logging(log, 4)); // the barrier is q's: other's commands do not wait for it
    g.end_recording();

    CHECK(node_of(barrier).get_predecessors() == nodes({a, b}));
    CHECK(node_of(c).get_predecessors() == nodes({barrier}));
    CHECK(node_of(unrelated).get_predecessors().empty());
    CHECK(node_of(barrier).get_type() == sycl_ext::node_type::ext_oneapi_barrier);
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    REQUIRE(log.order.size() == 4);
    CHECK(position(log, 3) > position(log, 1));
    CHECK(position(log, 3) > position(log, 2));
}

TEST_CASE("in-order: a queue's chain survives end_recording(q) while another queue keeps recording the graph") {
    sycl::queue q{in_order};
    sycl::queue other{q.get_context(), q.get_device(), in_order};
    modifiable_graph g{q};
    g.begin_recording({q, other});
    auto a = q.single_task([] {});
    auto x = other.single_task([] {});
    g.end_recording(q);
    auto y = other.single_task([] {});
    g.begin_recording(q);
    auto b = q.single_task([] {});
    g.end_recording();
    CHECK(node_of(y).get_predecessors() == nodes({x}));
    CHECK(node_of(b).get_predecessors() == nodes({a}));
}

TEST_CASE("transitive queue recording: a queue joins through each of the four routes") {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    enum class route { depends_on, shortcut, barrier_wait_list, external_event };
    for (auto r : {route::depends_on, route::shortcut, route::barrier_wait_list, route::external_event}) {
        CAPTURE(static_cast<int>(r));
        sycl::queue q1;
        if (r == route::shortcut && !encore::testing::runs_host_kernels(q1.get_device().engine())) {
            MESSAGE("the shortcut route: ", encore::testing::host_kernels_skip_reason(q1.get_device().engine()),
                    " (queue shortcuts take SYCL lambdas)");
            continue;
        }
        // ext_oneapi_set_external_event is for in-order queues.
        sycl::queue q2{q1.get_context(), q1.get_device(),
                       r == route::external_event ? in_order : sycl::property_list{}};
        modifiable_graph g{q1};
        int* p = sycl::malloc_shared<int>(2, q1);
        p[0] = p[1] = 0;
        g.begin_recording(q1);
        auto first = q1.submit([&](sycl::handler& h) {
            h.host_task([=] {
                nap(); // the second node would read 0 if it were not ordered after this one
                p[0] = 1;
            });
        });
        CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
        sycl::event second, barrier;
        switch (r) {
        case route::depends_on: second = next_of_first.single_task(q2, {first}, p); break;
        case route::shortcut: second = q2.single_task(std::vector{first}, [=] { p[1] = p[0] + 1; }); break;
        case route::barrier_wait_list:
            barrier = q2.ext_oneapi_submit_barrier({first});
            CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::recording);
            second = next_of_first.single_task(q2, {}, p);
            break;
        case route::external_event:
            q2.ext_oneapi_set_external_event(first);
            // The queue joins when a command group uses the event, not before.
            CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
            second = next_of_first.single_task(q2, {}, p);
            break;
        }
        CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::recording);
        CHECK(q2.ext_oneapi_get_graph() == g);
        if (r == route::barrier_wait_list) {
            CHECK(node_of(barrier).get_predecessors() == nodes({first}));
            CHECK(node_of(second).get_predecessors() == nodes({barrier}));
            CHECK(g.get_nodes().size() == 3);
        } else {
            CHECK(node_of(second).get_predecessors() == nodes({first}));
            CHECK(g.get_nodes().size() == 2);
        }
        CHECK(g.end_recording()); // ends both queues
        CHECK(q1.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
        CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::executing);

        auto exec = g.finalize();
        q2.ext_oneapi_graph(exec).wait(); // the joined queue can replay it too
        CHECK(p[1] == 2);
        sycl::free(p, q1);
    }
}

TEST_CASE("transitive queue recording: the joined queue answers state queries and stays until end_recording") {
    sycl::queue q1;
    sycl::queue q2{q1.get_context(), q1.get_device()};
    modifiable_graph g{q1}, other{q1};
    g.begin_recording(q1);
    auto root = q1.ext_oneapi_submit_barrier();
    q2.ext_oneapi_submit_barrier({root});
    CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::recording);
    CHECK(q2.ext_oneapi_get_graph() == g);
    CHECK_FALSE(g.begin_recording(q2)); // already recording g: nothing changes
    check_invalid([&] { other.begin_recording(q2); }, {"another graph"});
    check_invalid([&] { q2.wait(); }, {"recording"});

    // Ending the queue the event came from leaves the joined queue recording; what it records still goes into g.
    CHECK(g.end_recording(q1));
    CHECK(q1.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
    CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::recording);
    auto later = q2.ext_oneapi_submit_barrier();
    CHECK(node_of(later).graph() == g.impl());
    CHECK(g.end_recording(q2));
    CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
    check_invalid([&] { (void)q2.ext_oneapi_get_graph(); }, {"not recording"});
    CHECK_FALSE(g.end_recording());
}

TEST_CASE("transitive queue recording: fork and join across queues with barriers") {
    for (bool ordered : {false, true}) {
        CAPTURE(ordered);
        const auto properties = ordered ? in_order : sycl::property_list{};
        sycl::queue q1{properties};
        sycl::queue q2{q1.get_context(), q1.get_device(), properties};
        modifiable_graph g{q1};
        order_log log;
        g.begin_recording(q1);
        auto a = q1.submit(logging(log, 1, true));
        auto fork = q2.ext_oneapi_submit_barrier({a}); // q2 joins: the fork
        auto b = q2.submit(logging(log, 2, true));
        auto c = q1.submit([&](sycl::handler& h) {
            h.depends_on(a);
            logging(log, 3, true)(h);
        });
        auto join = q1.ext_oneapi_submit_barrier({b}); // q1 waits on q2's event: the join
        auto d = q1.submit(logging(log, 4));
        CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::recording);
        g.end_recording();
        CHECK(q2.ext_oneapi_get_state() == sycl_ext::queue_state::executing);

        CHECK(node_of(fork).get_predecessors() == nodes({a}));
        CHECK(node_of(b).get_predecessors() == nodes({fork}));
        CHECK(node_of(c).get_predecessors() == nodes({a}));
        // On an in-order queue the barrier also follows the queue's previous command.
        CHECK(node_of(join).get_predecessors() == (ordered ? nodes({b, c}) : nodes({b})));
        CHECK(node_of(d).get_predecessors() == nodes({join}));

        auto exec = g.finalize();
        for (int replay = 0; replay < 2; ++replay) {
            {
                std::lock_guard lock(log.mutex);
                log.order.clear();
            }
            q1.ext_oneapi_graph(exec).wait();
            REQUIRE(log.order.size() == 4);
            CHECK(log.order.front() == 1);
            CHECK(position(log, 2) < position(log, 4)); // the join
            // On an out-of-order queue d does not wait for c (c is no event of the join barrier).
            if (ordered) CHECK(log.order.back() == 4);
        }
    }
}

TEST_CASE("transitive queue recording: events of two graphs are refused, and the queue's state is unchanged") {
    sycl::queue qa, qb{qa.get_context(), qa.get_device()};
    sycl::queue idle{qa.get_context(), qa.get_device()};
    modifiable_graph a{qa}, b{qa};
    const auto a_name = "graph " + std::to_string(a.get_id()), b_name = "graph " + std::to_string(b.get_id());
    a.begin_recording(qa);
    b.begin_recording(qb);
    auto ea = qa.ext_oneapi_submit_barrier();
    auto eb = qb.ext_oneapi_submit_barrier();

    // An event of graph a on a queue recording graph b.
    check_invalid([&] { qb.ext_oneapi_submit_barrier({ea}); }, {"another graph", a_name, b_name});
    // A queue that records nothing, with events of both.
    check_invalid([&] { idle.ext_oneapi_submit_barrier({ea, eb}); }, {"two graphs", a_name, b_name});
    CHECK(idle.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
    // A graph-limited event with eager work: refused before the queue joins.
    sycl::queue eager_queue{qa.get_context(), qa.get_device()};
    test_memory<int> scratch(eager_queue, 1);
    auto eager = set_to.single_task(eager_queue, {}, scratch.get(), 0);
    check_invalid([&] { idle.ext_oneapi_submit_barrier({ea, eager}); }, {"eager work"});
    CHECK(idle.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
    CHECK(a.get_nodes().size() == 1);
    CHECK(b.get_nodes().size() == 1);
    eager.wait();
    a.end_recording();
    b.end_recording();

    // Once no queue records a graph, its events cannot make a queue join it.
    check_invalid([&] { idle.ext_oneapi_submit_barrier({ea}); }, {"no queue records", a_name});
    CHECK(idle.ext_oneapi_get_state() == sycl_ext::queue_state::executing);

    // A queue of another context cannot join.
    sycl::queue foreign{sycl::context{qa.get_device()}, qa.get_device()};
    a.begin_recording(qa);
    auto again = qa.ext_oneapi_submit_barrier();
    check_invalid([&] { foreign.ext_oneapi_submit_barrier({again}); }, {"device and context"});
    CHECK(foreign.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
    a.end_recording();

    // ext_oneapi_set_external_event is for in-order queues.
    check_invalid([&] { idle.ext_oneapi_set_external_event(sycl::event{}); }, {"in-order"});
}

TEST_CASE("ext_oneapi_set_external_event orders eager work too, and queue::wait waits for it") {
    sycl::queue producer;
    sycl::queue q{producer.get_context(), producer.get_device(), in_order};
    order_log log;
    auto slow = producer.submit(logging(log, 1, true));
    q.ext_oneapi_set_external_event(slow);
    q.submit(logging(log, 2)).wait();
    CHECK(log.order == std::vector{1, 2});
    auto slow_again = producer.submit(logging(log, 3, true));
    q.ext_oneapi_set_external_event(slow_again);
    q.wait();
    CHECK(log.order == std::vector{1, 2, 3});
}

// Its kernels are named by single_task<Name> with SYCL lambdas: lambda.
TEST_CASE("recording across sessions and queues gives the graph the explicit API builds (print_graph)"
          * doctest::test_suite("lambda")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q1{in_order};
    sycl::queue q2{q1.get_context(), q1.get_device()};
    int* p = sycl::malloc_shared<int>(8, q1);

    // Recorded: two sessions on in-order q1, q2 joining through q1's event, q1 joining back through q2's.
    modifiable_graph recorded{q1};
    recorded.begin_recording(q1);
    q1.single_task<kernel_a>([=] { p[0] = 1; });
    q1.single_task<kernel_b>([=] { p[1] = p[0] + 1; });
    recorded.end_recording();
    recorded.begin_recording(q1);
    auto c = q1.single_task<kernel_c>([=] { p[2] = p[1] + 1; });
    auto d = q2.single_task<kernel_d>(c, [=] { p[3] = p[2] + 1; });
    auto fill = q2.fill(p + 4, 7, 2, d);
    q1.single_task<kernel_e>(std::vector{fill}, [=] { p[6] = p[2] + p[3] + p[4]; });
    recorded.end_recording();

    // Explicit: the same nodes and edges.
    modifiable_graph built{q1};
    auto na = built.add([&](sycl::handler& h) { h.single_task<kernel_a>([=] { p[0] = 1; }); });
    auto nb = built.add([&](sycl::handler& h) { h.single_task<kernel_b>([=] { p[1] = p[0] + 1; }); },
                        {sycl_ext::property::node::depends_on(na)});
    auto nc = built.add([&](sycl::handler& h) { h.single_task<kernel_c>([=] { p[2] = p[1] + 1; }); },
                        {sycl_ext::property::node::depends_on(nb)});
    auto nd = built.add([&](sycl::handler& h) { h.single_task<kernel_d>([=] { p[3] = p[2] + 1; }); },
                        {sycl_ext::property::node::depends_on(nc)});
    auto nfill = built.add([&](sycl::handler& h) { h.fill(p + 4, 7, 2); }, {sycl_ext::property::node::depends_on(nd)});
    built.add([&](sycl::handler& h) { h.single_task<kernel_e>([=] { p[6] = p[2] + p[3] + p[4]; }); },
              {sycl_ext::property::node::depends_on(nc, nfill)});

    const auto recorded_dot = dot_of(recorded, "recorded"), built_dot = dot_of(built, "built");
    CHECK(recorded_dot.find("->") != std::string::npos); // edges were written at all
    CHECK(recorded_dot == built_dot);

    // And both run to the same result.
    for (auto* g : {&recorded, &built}) {
        std::fill(p, p + 8, 0);
        auto exec = g->finalize();
        q1.ext_oneapi_graph(exec).wait();
        CHECK(p[2] == 3);
        CHECK(p[3] == 4);
        CHECK(p[6] == 3 + 4 + 7);
    }
    sycl::free(p, q1);
}

TEST_CASE("transitive queue recording from several threads at once") {
    sycl::queue q;
    modifiable_graph g{q};
    g.begin_recording(q);
    auto root = q.ext_oneapi_submit_barrier();
    constexpr int threads = 4, per_thread = 50;
    std::vector<sycl::queue> queues;
    for (int t = 0; t < threads; ++t) queues.emplace_back(q.get_context(), q.get_device(), in_order);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
            auto previous = queues[t].ext_oneapi_submit_barrier({root});
            for (int i = 1; i < per_thread; ++i) previous = queues[t].ext_oneapi_submit_barrier();
        });
    for (auto& w : workers) w.join();
    CHECK(g.get_nodes().size() == 1 + threads * per_thread);
    for (auto& queue : queues) CHECK(queue.ext_oneapi_get_state() == sycl_ext::queue_state::recording);
    g.end_recording();
    for (auto& queue : queues) CHECK(queue.ext_oneapi_get_state() == sycl_ext::queue_state::executing);
    // Each thread's queue is in order: one chain per queue below the root.
    CHECK(node_of(root).get_successors().size() == threads);
    for (const auto& n : g.get_nodes())
        if (!(n == node_of(root))) CHECK(n.get_predecessors().size() == 1);
}

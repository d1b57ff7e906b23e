// encore::executable_graph on every device: every command type inside graphs, dependency order checked by
// effects, concurrency of independent branches, launch ordering, launches after events, subgraphs, and 1000
// replays with stable results.
#include <doctest/doctest.h>

#include <cstring>
#include <thread>
#include <mutex>
#include <chrono>
#include <numeric>
#include <random>

#include "encore/graph/shapes.hpp"
#include "runtime_support.hpp"

using namespace encore;
using namespace encore::testing;

namespace {

// value[i] = i + sum over predecessors p of value[p] * (p % 7 + 1): a node that ran before a predecessor had
// finished would read a stale value. Nodes alternate at random between kernels and host tasks.
struct checked_dag {
    checked_dag(const device& d, std::uint32_t nodes, std::uint64_t seed)
        : values(nodes, d), predecessor_lists(nodes * 3, d) {
        std::mt19937_64 random(seed);
        std::vector<std::vector<std::uint32_t>> predecessors(nodes);
        std::vector<node> handles;
        std::vector<std::uint32_t> lists(nodes * 3); // predecessor_lists' contents
        const auto& k = kernels_for(d).combine;
        for (std::uint32_t i = 0; i < nodes; ++i) {
            std::vector<node> deps;
            for (std::uint32_t j = 0; i > 0 && j < 3; ++j) {
                auto p = std::uniform_int_distribution<std::uint32_t>(i > 50 ? i - 50 : 0, i - 1)(random);
                if (std::find(predecessors[i].begin(), predecessors[i].end(), p) != predecessors[i].end())
                    continue;
                predecessors[i].push_back(p);
                deps.push_back(handles[p]);
            }
            // Device memory (the kernel reads it), at most 3 per node.
            std::uint32_t* preds = predecessor_lists.data() + 3 * i;
            std::copy(predecessors[i].begin(), predecessors[i].end(), lists.begin() + 3 * i);
            auto count = static_cast<std::uint32_t>(predecessors[i].size());
            auto* v = values.data();
            if (random() % 4 == 0)
                // Through the array's elements: on a device without shared memory they are copies.
                handles.push_back(g.add(host_task_command{[&array = values, i, mine = predecessors[i]] {
                                            std::uint32_t sum = i;
                                            for (auto p : mine)
                                                sum += array[p] * (p % 7 + 1);
                                            array[i] = sum;
                                        }},
                                        deps));
            else
                handles.push_back(
                    g.add(kernel_command{k,
                                         {kernel_argument::from_pointer(v), kernel_argument::from_scalar(i),
                                          kernel_argument::from_pointer(preds),
                                          kernel_argument::from_scalar(count)},
                                         range(1)},
                          deps));
        }
        predecessor_lists.assign(lists);
        expected.resize(nodes);
        for (std::uint32_t i = 0; i < nodes; ++i) {
            std::uint32_t sum = i;
            for (auto p : predecessors[i])
                sum += expected[p] * (p % 7 + 1);
            expected[i] = sum;
        }
    }

    graph g;
    usm_array<std::uint32_t> values, predecessor_lists;
    std::vector<std::uint32_t> expected;
};

} // namespace

TEST_CASE("every command type runs inside a graph, in dependency order") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> a(64, d), b(64, d), c(64, d);
        auto source = std::make_shared<buffer>(64 * sizeof(int)),
             destination = std::make_shared<buffer>(64 * sizeof(int));
        std::vector<int> order;
        graph g;
        auto n_memset = g.add(memset_command{a.data(), 0, 64 * sizeof(int)});
        auto n_fill = g.add(
            fill_command{b.data(), {std::byte{1}, std::byte{0}, std::byte{0}, std::byte{0}}, 64}, {n_memset});
        auto n_kernel = g.add(add_command(d, b.data(), 41, 64), {n_fill});
        auto n_memcpy = g.add(memcpy_command{a.data(), b.data(), 64 * sizeof(int)}, {n_kernel});
        auto n_prefetch = g.add(prefetch_command{a.data(), 64 * sizeof(int)}, {n_memcpy});
        auto n_advise = g.add(mem_advise_command{a.data(), 64 * sizeof(int), 0}, {n_prefetch});
        auto n_host = g.add(host_task_command{[&] {
                                const auto values = a.values(); // a copy where the host cannot reach a
                                order.push_back(values[0]);
                                std::memcpy(source->data(), values.data(), 64 * sizeof(int));
                            }},
                            {n_advise});
        auto n_copy = g.add(copy_command{source, 0, destination, 0, 64 * sizeof(int)}, {n_host});
        auto n_barrier = g.add(barrier_command{}, {n_copy});
        auto n_empty = g.add(empty_command{}, {n_barrier});
        auto child = std::make_shared<graph>();
        auto child_first = child->add(memcpy_command{c.data(), destination->data(), 64 * sizeof(int)});
        child->add(add_command(d, c.data(), 1, 64), {child_first});
        g.add(subgraph_command{child}, {n_empty});

        executable_graph exec(g, d);
        queue q(d);
        for (int launch = 0; launch < 3; ++launch) {
            q.launch(exec).wait();
            q.wait_and_throw();
            CHECK(a[0] == 42);
            CHECK(a[63] == 42);
            CHECK(c[0] == 43);
            CHECK(c[63] == 43);
        }
        CHECK(order == std::vector<int>{42, 42, 42});
    }
}

TEST_CASE("random DAGs of kernels and host tasks run every node after its predecessors") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        for (std::uint64_t seed : {1, 2, 3}) {
            INFO("seed " << seed);
            checked_dag dag(d, 600, seed);
            executable_graph exec(dag.g, d);
            CHECK(exec.partitions().partitions.size() > 1); // host tasks cut it
            queue q(d);
            q.launch(exec).wait();
            q.wait_and_throw();
            CHECK(dag.values.values() == dag.expected);
        }
    }
}

TEST_CASE("independent branches run concurrently: two host tasks meet in a rendezvous") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> x(2, d);
        rendezvous meet;
        bool met_left = false, met_right = false;
        graph g;
        auto left_kernel = g.add(add_command(d, x.data(), 1, 1));
        auto left = g.add(host_task_command{[&] { met_left = meet.arrive_and_wait(); }}, {left_kernel});
        auto right_kernel = g.add(add_command(d, x.data() + 1, 1, 1));
        auto right = g.add(host_task_command{[&] { met_right = meet.arrive_and_wait(); }}, {right_kernel});
        g.add(add_command(d, x.data(), 10, 2), {left, right});
        executable_graph exec(g, d);
        queue q(d, {.in_order = true}); // the queue's order is between launches, not inside one
        q.launch(exec).wait();
        CHECK(met_left);
        CHECK(met_right);
        CHECK(x[0] == 11);
        CHECK(x[1] == 11);
    }
}

TEST_CASE("launches of one executable graph are ordered, on any queue") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<unsigned> x(1, d);
        // x = 3x + 1
        const kernel_command step{kernels_for(d).affine,
                                  {kernel_argument::from_pointer(x.data()), kernel_argument::from_scalar(3u),
                                   kernel_argument::from_scalar(1u)},
                                  range(1)};
        graph g;
        auto k = g.add(step);
        auto h = g.add(host_task_command{[&x] { x[0] = x[0] * 2u; }}, {k});
        g.add(step, {h});
        executable_graph exec(g, d);
        queue a(d), b(d);
        unsigned expected = 0;
        for (int i = 0; i < 40; ++i) {
            (i % 2 ? a : b).launch(exec); // no waiting in between, two out-of-order queues
            expected = 3 * ((3 * expected + 1) * 2) + 1;
        }
        a.wait();
        b.wait();
        CHECK(x[0] == expected);
    }
}

TEST_CASE("a launch waits for the events it is given") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> x(1, d);
        graph g;
        g.add(add_command(d, x.data(), 1, 1));
        executable_graph exec(g, d);
        queue q(d);
        gate release;
        auto produced = q.host_task([&] {
            release.wait();
            x[0] = 100;
        });
        auto launched = q.launch(exec, produced);
        CHECK_FALSE(launched.is_complete());
        release.open();
        launched.wait();
        CHECK(x[0] == 101);
        // And eager work can wait for a launch.
        int seen = 0;
        q.host_task([&] { seen = x[0]; }, q.launch(exec)).wait();
        CHECK(seen == 102);
    }
}

TEST_CASE("a launch nobody waits for runs to its end by itself") {
    // Launches are driven by the thread that waits for them when there is one; without one they must still
    // run. The event is only polled here, never waited on.
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> x(1, d);
        graph g;
        auto first = g.add(add_command(d, x.data(), 1, 1));
        g.add(add_command(d, x.data(), 10, 1), {first});
        executable_graph exec(g, d);
        queue q(d);
        auto poll = [](const event& e) {
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (!e.is_complete() && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            return e.is_complete();
        };
        CHECK(poll(q.launch(exec)));
        CHECK(x[0] == 11);
        // Ready only once a host task on another thread has run: that thread makes it ready.
        gate release;
        auto produced = q.host_task([&] { release.wait(); });
        auto launched = q.launch(exec, produced);
        release.open();
        CHECK(poll(launched));
        CHECK(x[0] == 22);
        // Many at once, from two threads: each one runs.
        std::vector<event> launches(40);
        std::thread other([&] {
            for (int i = 0; i < 20; ++i) launches[2 * i + 1] = q.launch(exec);
        });
        for (int i = 0; i < 20; ++i) launches[2 * i] = q.launch(exec);
        other.join();
        for (const auto& e : launches) CHECK(poll(e));
        CHECK(x[0] == 22 + 40 * 11);
    }
}

TEST_CASE("an in-order queue orders launches with its eager commands") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<unsigned> x(1, d);
        graph g;
        g.add(kernel_command{kernels_for(d).affine,
                             {kernel_argument::from_pointer(x.data()), kernel_argument::from_scalar(1u),
                              kernel_argument::from_scalar(5u)},
                             range(1)}); // x += 5
        executable_graph exec(g, d);
        queue q(d, {.in_order = true});
        unsigned expected = 0;
        for (int i = 0; i < 30; ++i) {
            q.launch(exec);
            q.host_task([&x] { x[0] *= 2u; });
            expected = (expected + 5u) * 2u;
        }
        q.wait();
        CHECK(x[0] == expected);
    }
}

TEST_CASE("1000 replays give the same result every time") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        const std::uint32_t width = 12;
        usm_array<int> cells(width * width, d);
        // A wavefront: cell (i, j) = 1 + cell(i-1, j) + cell(i, j-1), reset by a memset at the start.
        const auto& cell = kernels_for(d).cell;
        auto wave = shapes::wavefront(width, width, {.make_command = [&](std::uint32_t index) -> command {
                                          return kernel_command{cell,
                                                                {kernel_argument::from_pointer(cells.data()),
                                                                 kernel_argument::from_scalar(index % width),
                                                                 kernel_argument::from_scalar(index / width),
                                                                 kernel_argument::from_scalar(width)},
                                                                range(1)};
                                      }});
        graph g;
        auto reset = g.add(memset_command{cells.data(), 0, width * width * sizeof(int)});
        auto sub = std::make_shared<graph>(std::move(wave));
        g.add(subgraph_command{sub}, {reset});
        executable_graph exec(g, d);
        queue q(d);
        q.launch(exec).wait();
        const auto first = cells.values();
        CHECK(first.back() != 0);
        int differing = 0;
        for (int i = 1; i < 1000; ++i) {
            q.launch(exec).wait();
            if (cells.values() != first) ++differing;
        }
        CHECK(differing == 0);
        q.wait_and_throw();
    }
}

TEST_CASE("a device partition of nothing but empty nodes still waits for the host task before it") {
    // host task -> empty -> host task: the empty node is a device partition of its own, with no command to run.
    // (PoCL completed such a command buffer without waiting for its wait list: the second host task ran first.)
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        std::mutex m;
        std::vector<int> order;
        graph g;
        auto first = g.add(host_task_command{[&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20)); // time for a wrong order to show
            std::lock_guard lock(m);
            order.push_back(1);
        }});
        auto nothing = g.add(empty_command{}, {first});
        g.add(host_task_command{[&] {
                  std::lock_guard lock(m);
                  order.push_back(2);
              }},
              {nothing});
        executable_graph exec(g, d);
        REQUIRE(exec.partitions().partitions.size() == 3);
        queue q(d);
        for (int launch = 0; launch < 3; ++launch)
            q.launch(exec).wait();
        CHECK(order == std::vector<int>{1, 2, 1, 2, 1, 2});
    }
}

TEST_CASE("subgraphs nest, and a subgraph's host tasks are partitioned like any other") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> x(1, d);
        std::vector<int> trace;
        auto inner = std::make_shared<graph>();
        auto i1 = inner->add(host_task_command{[&] { trace.push_back(2); }});
        inner->add(add_command(d, x.data(), 1, 1), {i1});
        auto middle = std::make_shared<graph>();
        auto m1 = middle->add(host_task_command{[&] { trace.push_back(1); }});
        middle->add(subgraph_command{inner}, {m1});
        graph g;
        auto first = g.add(subgraph_command{middle});
        g.add(host_task_command{[&] { trace.push_back(3); }}, {first});
        g.add(subgraph_command{std::make_shared<graph>()}); // an empty child
        executable_graph exec(g, d);
        queue q(d);
        q.launch(exec).wait();
        CHECK(trace == std::vector<int>{1, 2, 3});
        CHECK(x[0] == 1);
    }
}

TEST_CASE("finalize snapshots the graph; misuse is refused") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        usm_array<int> x(1, d);
        graph g;
        auto a = g.add(add_command(d, x.data(), 1, 1));
        executable_graph exec = finalize(g, d);
        g.add(add_command(d, x.data(), 100, 1), {a}); // not in exec
        queue q(d);
        q.launch(exec).wait();
        CHECK(x[0] == 1);

        graph empty;
        executable_graph nothing(empty, d);
        q.launch(nothing).wait();

        // A subgraph that contains itself.
        auto self = std::make_shared<graph>();
        self->add(subgraph_command{std::shared_ptr<const graph>(self.get(), [](const graph*) {})});
        CHECK_THROWS_AS(executable_graph(*self, d), encore::error);
    }
    auto all = devices_under_test();
    if (all.size() >= 2) {
        graph g;
        g.add(empty_command{});
        executable_graph exec(g, all[0]);
        queue other(all[1]);
        try {
            other.launch(exec);
            FAIL("a graph finalized for one device launched on another");
        } catch (const encore::error& e) {
            CHECK(e.code() == errc::invalid_argument);
        }
    }
}

TEST_CASE("native: the sequential, parallel and adaptive schedules keep every dependency") {
    // Kernels only, so the whole DAG is one partition. Values are reset before every launch: a node that ran
    // before one of its predecessors had finished would read the reset value, not last launch's result. The
    // nodes are added in a topological order (the task list keeps it), and in reverse with the edges made
    // afterwards (the task list takes the partition's order).
    const auto all = device::all();
    const auto native = std::find_if(all.begin(), all.end(), [](const device& x) { return x.backend_name() == "native"; });
    REQUIRE(native != all.end());
    const device d = *native;
    for (const bool reversed : {false, true})
        for (const char* schedule : {"sequential", "parallel", "adaptive"}) {
            INFO("ENCORE_NATIVE_SCHEDULE=" << std::string(schedule) << std::string(reversed ? ", added in reverse" : ""));
            ::setenv("ENCORE_NATIVE_SCHEDULE", schedule, 1); // read when the graph is finalized
            std::mt19937_64 random(7);
            const std::uint32_t nodes = 800;
            usm_array<std::uint32_t> values(nodes, d);
            std::vector<std::vector<std::uint32_t>> predecessors(nodes);
            for (std::uint32_t i = 1; i < nodes; ++i)
                for (std::uint32_t j = 0; j < 3; ++j) {
                    auto p = std::uniform_int_distribution<std::uint32_t>(i > 40 ? i - 40 : 0, i - 1)(random);
                    if (std::find(predecessors[i].begin(), predecessors[i].end(), p) == predecessors[i].end())
                        predecessors[i].push_back(p);
                }
            const auto& k = kernels_for(d).combine;
            graph g;
            std::vector<node> handles(nodes);
            for (std::uint32_t n = 0; n < nodes; ++n) {
                const std::uint32_t i = reversed ? nodes - 1 - n : n;
                handles[i] = g.add(kernel_command{k,
                                                  {kernel_argument::from_pointer(values.data()),
                                                   kernel_argument::from_scalar(i),
                                                   kernel_argument::from_pointer(predecessors[i].data()),
                                                   kernel_argument::from_scalar(
                                                       static_cast<std::uint32_t>(predecessors[i].size()))},
                                                  range(1)});
            }
            for (std::uint32_t i = 0; i < nodes; ++i)
                for (auto p : predecessors[i])
                    g.make_edge(handles[p], handles[i]);
            std::vector<std::uint32_t> expected(nodes);
            for (std::uint32_t i = 0; i < nodes; ++i) {
                expected[i] = i;
                for (auto p : predecessors[i])
                    expected[i] += expected[p] * (p % 7 + 1);
            }
            executable_graph exec(g, d);
            ::unsetenv("ENCORE_NATIVE_SCHEDULE");
            REQUIRE(exec.partitions().partitions.size() == 1);
            queue q(d);
            // Adaptive: sequential, then parallel, then the faster, and the other again after 16 launches.
            for (int launch = 0; launch < 40; ++launch) {
                std::fill(values.data(), values.data() + nodes, 0xdeadbeefu);
                q.launch(exec).wait();
                q.wait_and_throw();
                REQUIRE(values.values() == expected);
            }
        }
}

// A concurrency soak of the SYCL front end and the graph extension: several threads at once record graphs
// (into graphs of their own, and into one graph shared by all of them), finalize, replay on shared and
// private queues, update (dynamic parameters, node and whole-graph update), submit eager kernels and host
// tasks, and destroy queues, executable graphs and modifiable graphs while their work is in flight (SYCL: the
// work still finishes).
//
// Every kernel work-item and host task adds to a counter in USM memory with an atomic; each thread keeps the
// exact count of what it submitted, and at the end every counter must equal it: nothing lost, nothing run
// twice. Host tasks that throw must reach an async handler exactly once each. No check depends on timing.
//
//   ENCORE_SOAK_SECONDS (default 2)   how long the threads run (minutes by hand: ENCORE_SOAK_SECONDS=600)
//   ENCORE_SOAK_THREADS (default 4)   worker threads
//   ENCORE_SOAK_SEED    (default 1)   seeds each thread's choice of actions (the interleaving is the OS's)
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sycl/sycl.hpp>

#include "encore/runtime/kernel_function.hpp"

namespace {

namespace sx = sycl::ext::oneapi::experimental;
using executable = sx::command_graph<sx::graph_state::executable>;

// What each counter of a thread counts.
enum kind : int {
    eager_items,      // work-items of eager kernels
    eager_host_tasks, // eager host tasks
    graph_items,      // work-items of kernels in replays of recorded and explicit graphs
    graph_host_tasks, // host tasks in replays
    dynamic_sum,      // what replays of updated graphs add (dynamic parameters, node and whole-graph update)
    shared_graph, // work-items recorded into the graph all threads record into, counted at its final launches
    destroyed_early, // work of queues, executable graphs and graphs destroyed while it was in flight
    kinds
};
const char* kind_names[kinds] = {"eager kernel work-items", "eager host tasks",   "graph kernel work-items",
                                 "graph host tasks",        "updated graph sums", "shared recorded graph",
                                 "work destroyed in flight"};

double env_number(const char* name, double fallback) {
    const char* text = std::getenv(name);
    return text ? std::atof(text) : fallback;
}

void add(std::uint64_t* counter, std::uint64_t amount) {
    sycl::atomic_ref<std::uint64_t, sycl::memory_order::relaxed, sycl::memory_scope::device> ref(*counter);
    ref.fetch_add(amount);
}

// What all threads share.
struct soak_world {
    int threads = 0;
    sycl::queue shared_in_order, shared_out_of_order;
    std::uint64_t* counters = nullptr; // [thread * kinds + kind], then the shared graph's two counters
    std::optional<executable>
        shared_exec; // launched by every thread; counts into counters[threads * kinds + 0/1]
    std::atomic<std::uint64_t> shared_exec_launches{0};
    std::optional<sx::command_graph<sx::graph_state::modifiable>>
        shared_recording;    // every thread records into it
    std::optional<sycl::kernel> add_kernel; // counter += amount per work-item (a kernel object, for set_arg)
    std::atomic<std::uint64_t> errors_expected{0}, errors_received{0}, strange_errors{0};
    std::mutex failures_mutex;
    std::vector<std::string> failures;

    sycl::async_handler handler() {
        return [this](sycl::exception_list errors) {
            for (const auto& e : errors) {
                try {
                    std::rethrow_exception(e);
                } catch (const sycl::exception& x) {
                    if (std::string(x.what()).find("soak-throw") != std::string::npos)
                        ++errors_received;
                    else
                        ++strange_errors;
                }
            }
        };
    }
    std::uint64_t* counter(int thread, kind k) const { return counters + thread * kinds + k; }
    void fail(const std::string& what) {
        std::lock_guard lock(failures_mutex);
        failures.push_back(what);
    }
};

// Per thread: its queues, what it keeps between actions, and the exact counts it expects.
class soak_worker {
public:
    soak_worker(soak_world& w, int id, std::uint64_t seed)
        : world_(w), id_(id), random_(seed),
          in_order_(w.shared_in_order.get_context(), w.shared_in_order.get_device(), w.handler(),
                    sycl::property_list{sycl::property::queue::in_order{}}),
          out_of_order_(w.shared_in_order.get_context(), w.shared_in_order.get_device(), w.handler()),
          recorder_(w.shared_in_order.get_context(), w.shared_in_order.get_device(), w.handler(),
                    sycl::property_list{sycl::property::queue::in_order{}}) {}

    void run(std::chrono::steady_clock::time_point deadline) {
        try {
            while (std::chrono::steady_clock::now() < deadline)
                step();
            for (auto& k : kept_)
                k.graph.reset();
            in_order_.wait_and_throw();
            out_of_order_.wait_and_throw();
            recorder_.wait_and_throw();
        } catch (const std::exception& e) {
            world_.fail("thread " + std::to_string(id_) + ": " + e.what());
        }
    }

    std::uint64_t expected[kinds] = {};
    std::uint64_t shared_graph_items = 0, shared_graph_nodes = 0; // recorded into the shared graph
    std::uint64_t submissions = 0, launches = 0, updates = 0, recordings = 0, destroyed = 0;

private:
    struct kept_graph {
        std::optional<executable> graph;
        std::uint64_t items = 0, host_tasks = 0; // per launch
    };

    int pick(int n) { return static_cast<int>(random_() % static_cast<unsigned>(n)); }
    sycl::queue& any_queue() {
        switch (pick(4)) {
        case 0:
            return world_.shared_in_order;
        case 1:
            return world_.shared_out_of_order;
        case 2:
            return in_order_;
        default:
            return out_of_order_;
        }
    }

    sycl::event kernel(sycl::queue& q, kind k, std::uint32_t n, const std::vector<sycl::event>& deps = {}) {
        auto* c = world_.counter(id_, k);
        ++submissions;
        return q.submit([&](sycl::handler& h) {
            h.depends_on(deps);
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1>) { add(c, 1); });
        });
    }
    sycl::event host_task(sycl::queue& q, kind k, const std::vector<sycl::event>& deps = {}) {
        auto* c = world_.counter(id_, k);
        ++submissions;
        return q.submit([&](sycl::handler& h) {
            h.depends_on(deps);
            h.host_task([=] { add(c, 1); });
        });
    }

    // Records 1..6 kernels and host tasks from one of this thread's queues into a new graph (on the
    // out-of-order queue, each depends on the previous one now and then); returns it finalized with its
    // per-launch counts.
    kept_graph record(sycl::queue& q, kind items_kind, kind host_kind, bool drop_graph_early) {
        kept_graph out;
        std::optional<sx::command_graph<sx::graph_state::modifiable>> g{std::in_place, q};
        g->begin_recording(q);
        ++recordings;
        sycl::event previous;
        bool has_previous = false;
        for (int i = 1 + pick(6); i > 0; --i) {
            std::vector<sycl::event> deps;
            if (has_previous && pick(2)) deps.push_back(previous);
            if (pick(3)) {
                const std::uint32_t n = 1 + pick(64);
                previous = kernel(q, items_kind, n, deps);
                out.items += n;
            } else {
                previous = host_task(q, host_kind, deps);
                ++out.host_tasks;
            }
            has_previous = true;
        }
        g->end_recording();
        out.graph.emplace(g->finalize());
        if (drop_graph_early) g.reset(); // the executable graph does not need its modifiable graph
        return out;
    }

    void launch(kept_graph& k, sycl::queue& q, kind items_kind, kind host_kind) {
        q.ext_oneapi_graph(*k.graph);
        ++launches;
        expected[items_kind] += k.items;
        expected[host_kind] += k.host_tasks;
    }

    void step() {
        const int r = pick(100);
        if (r < 20) { // eager kernel
            const std::uint32_t n = 1 + pick(64);
            kernel(any_queue(), eager_items, n);
            expected[eager_items] += n;
        } else if (r < 32) { // eager host task
            host_task(any_queue(), eager_host_tasks);
            ++expected[eager_host_tasks];
        } else if (r < 34) { // a host task that throws: its error reaches the queue's handler once
            ++world_.errors_expected;
            ++submissions;
            any_queue().submit(
                [](sycl::handler& h) { h.host_task([] { throw std::runtime_error("soak-throw"); }); });
        } else if (r < 46) { // record, finalize, replay; keep some executable graphs for later
            auto k = record(pick(2) ? in_order_ : out_of_order_, graph_items, graph_host_tasks, pick(2) == 0);
            for (int i = 1 + pick(3); i > 0; --i)
                launch(k, any_queue(), graph_items, graph_host_tasks);
            if (kept_.size() < 4) kept_.push_back(std::move(k));
        } else if (r < 58 && !kept_.empty()) { // replay a kept graph; sometimes destroy it while it runs
            auto& k = kept_[pick(static_cast<int>(kept_.size()))];
            launch(k, any_queue(), graph_items, graph_host_tasks);
            if (pick(4) == 0) {
                k.graph.reset(); // SYCL: the launch in flight still completes
                ++destroyed;
                std::erase_if(kept_, [](const kept_graph& g) { return !g.graph; });
            }
        } else if (r < 66) { // updates
            update_cycle();
        } else if (r < 74) { // the executable graph all threads launch
            (pick(2) ? world_.shared_in_order : world_.shared_out_of_order)
                .ext_oneapi_graph(*world_.shared_exec);
            ++world_.shared_exec_launches;
            ++launches;
        } else if (r < 82) { // record into the graph every thread records into
            world_.shared_recording->begin_recording(recorder_);
            ++recordings;
            for (int i = 1 + pick(3); i > 0; --i) {
                const std::uint32_t n = 1 + pick(32);
                kernel(recorder_, shared_graph, n);
                shared_graph_items += n;
                ++shared_graph_nodes;
            }
            world_.shared_recording->end_recording(recorder_);
        } else if (r < 92) { // destroy a queue, an executable graph, a modifiable graph while their work runs
            destroy_in_flight();
        } else if (r < 96) {
            (pick(2) ? in_order_ : out_of_order_).wait_and_throw();
        } else {
            // Many small eager commands at once on one queue, some depending on the previous one.
            auto& q = any_queue();
            sycl::event previous = kernel(q, eager_items, 1);
            expected[eager_items] += 1;
            for (int i = 0; i < 16; ++i) {
                const kind k = pick(2) ? eager_host_tasks : eager_items;
                previous = k == eager_items ? kernel(q, k, 1, {previous}) : host_task(q, k, {previous});
                ++expected[k];
            }
        }
    }

    // An explicit graph whose kernel adds `amount` per work-item, amount a dynamic parameter: launched, the
    // parameter updated and pushed with node update, then the whole graph updated from a graph of the same
    // shape.
    void update_cycle() {
        auto& q = any_queue();
        sx::command_graph g{q};
        const std::uint64_t a = 1 + pick(5), b = 1 + pick(5), c = 1 + pick(5);
        const std::uint32_t n = 1 + pick(32);
        sx::dynamic_parameter amount(g, a);
        auto* counter = world_.counter(id_, dynamic_sum);
        auto node = g.add([&](sycl::handler& h) {
            h.set_arg(0, counter);
            h.set_arg(1, amount);
            h.parallel_for(sycl::range<1>{n}, *world_.add_kernel);
        });
        auto exec = g.finalize({sx::property::graph::updatable{}});
        q.ext_oneapi_graph(exec);
        amount.update(b);
        exec.update(node); // waits for the launch in flight: it counted `a`
        q.ext_oneapi_graph(exec);
        sx::command_graph same_shape{q};
        same_shape.add([&](sycl::handler& h) {
            h.set_args(counter, c);
            h.parallel_for(sycl::range<1>{n}, *world_.add_kernel);
        });
        exec.update(same_shape);
        q.ext_oneapi_graph(exec);
        launches += 3;
        updates += 3;
        expected[dynamic_sum] += n * (a + b + c);
    }

    void destroy_in_flight() {
        ++destroyed;
        switch (pick(3)) {
        case 0: { // a queue with work in flight, and one recording a graph
            sycl::queue q{world_.shared_in_order.get_context(), world_.shared_in_order.get_device(),
                          world_.handler()};
            const std::uint32_t n = 1 + pick(64);
            kernel(q, destroyed_early, n);
            host_task(q, destroyed_early);
            expected[destroyed_early] += n + 1;
            if (pick(2)) {
                ++world_.errors_expected; // reaches the handler when the queue goes
                q.submit(
                    [](sycl::handler& h) { h.host_task([] { throw std::runtime_error("soak-throw"); }); });
            }
            sx::command_graph g{q};
            g.begin_recording(q); // the queue goes while recording: that ends the recording
            kernel(q, destroyed_early, 1);
            break;
        }
        case 1: { // an executable graph destroyed right after its launch
            auto k = record(out_of_order_, destroyed_early, destroyed_early, true);
            launch(k, any_queue(), destroyed_early, destroyed_early);
            break; // k's executable graph goes here
        }
        default: { // a graph launched on a queue that goes right after, with the graph
            sycl::queue q{world_.shared_in_order.get_context(), world_.shared_in_order.get_device(),
                          world_.handler(), sycl::property_list{sycl::property::queue::in_order{}}};
            auto k = record(q, destroyed_early, destroyed_early, true);
            launch(k, q, destroyed_early, destroyed_early);
            launch(k, q, destroyed_early, destroyed_early);
            break;
        }
        }
    }

    soak_world& world_;
    int id_;
    std::mt19937_64 random_;
    sycl::queue in_order_, out_of_order_, recorder_;
    std::vector<kept_graph> kept_;
};

} // namespace

TEST_CASE("concurrency soak: threads record, replay, update and submit; every command runs exactly once") {
    const double seconds = env_number("ENCORE_SOAK_SECONDS", 2);
    const int threads = static_cast<int>(env_number("ENCORE_SOAK_THREADS", 4));
    const auto seed = static_cast<std::uint64_t>(env_number("ENCORE_SOAK_SEED", 1));
    REQUIRE(threads >= 1);

    soak_world world;
    world.threads = threads;
    world.shared_in_order =
        sycl::queue{world.handler(), sycl::property_list{sycl::property::queue::in_order{}}};
    world.shared_out_of_order =
        sycl::queue{world.shared_in_order.get_context(), world.shared_in_order.get_device(), world.handler()};
    auto& q = world.shared_in_order;
    const std::size_t counter_count = static_cast<std::size_t>(threads) * kinds + 2;
    world.counters = sycl::malloc_shared<std::uint64_t>(counter_count, q);
    std::fill(world.counters, world.counters + counter_count, 0);
    world.add_kernel.emplace(sycl::ext::encore::make_kernel(encore::make_kernel(
        "soak_add", [](const encore::work_item&, std::span<const encore::kernel_argument> args) {
            add(static_cast<std::uint64_t*>(args[0].pointer()), args[1].scalar<std::uint64_t>());
        })));
    // The executable graph every thread launches: 16 work-items and a host task per launch.
    std::uint64_t* shared_items = world.counters + threads * kinds;
    std::uint64_t* shared_tasks = shared_items + 1;
    {
        sx::command_graph g{q};
        auto k = g.add([&](sycl::handler& h) {
            h.parallel_for(sycl::range<1>{16}, [=](sycl::id<1>) { add(shared_items, 1); });
        });
        g.add([&](sycl::handler& h) { h.host_task([=] { add(shared_tasks, 1); }); },
              {sx::property::node::depends_on(k)});
        world.shared_exec.emplace(g.finalize());
    }
    world.shared_recording.emplace(q);

    std::vector<std::unique_ptr<soak_worker>> workers;
    for (int t = 0; t < threads; ++t)
        workers.push_back(std::make_unique<soak_worker>(world, t, seed * 1000 + t));
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(seconds));
    std::vector<std::thread> running;
    for (auto& w : workers)
        running.emplace_back([&w, deadline] { w->run(deadline); });
    for (auto& t : running)
        t.join();
    world.shared_in_order.wait_and_throw();
    world.shared_out_of_order.wait_and_throw();

    // The graph all threads recorded into, concurrently: every node there, each run by its two launches.
    std::uint64_t recorded_nodes = 0;
    for (auto& w : workers)
        recorded_nodes += w->shared_graph_nodes;
    CHECK(world.shared_recording->get_nodes().size() == recorded_nodes);
    auto shared_exec = world.shared_recording->finalize();
    q.ext_oneapi_graph(shared_exec);
    q.ext_oneapi_graph(shared_exec).wait();
    world.shared_exec.reset();
    q.wait_and_throw();

    for (const auto& failure : world.failures)
        FAIL_CHECK(failure);
    std::uint64_t executed = 0, submissions = 0, launches = 0, updates = 0, recordings = 0, destroyed = 0;
    for (int t = 0; t < threads; ++t) {
        auto& w = *workers[t];
        w.expected[shared_graph] = 2 * w.shared_graph_items;
        for (int k = 0; k < kinds; ++k) {
            const std::string counter = "thread " + std::to_string(t) + ": " + kind_names[k];
            CAPTURE(counter);
            CHECK(world.counters[t * kinds + k] == w.expected[k]);
            executed += w.expected[k];
        }
        submissions += w.submissions;
        launches += w.launches;
        updates += w.updates;
        recordings += w.recordings;
        destroyed += w.destroyed;
    }
    CHECK(*shared_items == 16 * world.shared_exec_launches);
    CHECK(*shared_tasks == world.shared_exec_launches);
    executed += 17 * world.shared_exec_launches;
    CHECK(world.errors_received == world.errors_expected);
    CHECK(world.strange_errors == 0);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("soak: %d threads, %.1f s: %llu commands submitted eagerly or recorded, %llu graph launches "
                "(%llu by every thread of one executable graph), %llu updates, %llu recording sessions "
                "(%llu nodes recorded into one graph by all threads), %llu destructions with work in flight, "
                "%llu errors thrown by host tasks; %llu work-items and host-task runs counted, all exact\n",
                threads, elapsed, static_cast<unsigned long long>(submissions),
                static_cast<unsigned long long>(launches),
                static_cast<unsigned long long>(world.shared_exec_launches.load()),
                static_cast<unsigned long long>(updates), static_cast<unsigned long long>(recordings),
                static_cast<unsigned long long>(recorded_nodes), static_cast<unsigned long long>(destroyed),
                static_cast<unsigned long long>(world.errors_expected.load()),
                static_cast<unsigned long long>(executed));
    workers.clear();
    sycl::free(world.counters, q);
}

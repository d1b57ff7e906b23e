// encore::queue: every command type eagerly, in-order and out-of-order ordering checked by effects, barriers,
// host tasks that never block the submitter, and cross-queue dependencies. Each body runs on every device.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>

#include "runtime_support.hpp"
#include "support/error_code.hpp"

using namespace encore;
using namespace encore::testing;

TEST_CASE("every command type runs eagerly and has its effect") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        usm_array<int> a(64, d), b(64, d);
        std::vector<int> initial(64);
        std::iota(initial.begin(), initial.end(), 0);
        a.assign(initial);

        q.submit(add_command(d, a.data(), 100, 64)).wait();
        CHECK(a[0] == 100);
        CHECK(a[63] == 163);

        q.memcpy(b.data(), a.data(), 64 * sizeof(int)).wait();
        CHECK(b.values() == a.values());

        q.memset(b.data(), 0, 64 * sizeof(int)).wait();
        CHECK(b.values() == std::vector<int>(64, 0));

        q.fill(b.data(), 7, 32).wait();
        CHECK(b[0] == 7);
        CHECK(b[31] == 7);
        CHECK(b[32] == 0);

        auto source = std::make_shared<buffer>(64), destination = std::make_shared<buffer>(64);
        std::memset(source->data(), 0x5a, 64);
        q.submit(copy_command{source, 8, destination, 16, 32}).wait();
        CHECK(destination->data()[15] == std::byte{0});
        CHECK(destination->data()[16] == std::byte{0x5a});
        CHECK(destination->data()[47] == std::byte{0x5a});
        CHECK(destination->data()[48] == std::byte{0});

        q.prefetch(a.data(), 64 * sizeof(int)).wait();
        q.mem_advise(a.data(), 64 * sizeof(int), 0).wait();
        CHECK(a[5] == 105); // hints change no data

        int ran = 0;
        q.host_task([&ran] { ran = 1; }).wait();
        CHECK(ran == 1);

        q.barrier().wait();
        q.submit(empty_command{}).wait();

        auto child = std::make_shared<graph>();
        auto first = child->add(memset_command{b.data(), 0, 64 * sizeof(int)});
        child->add(add_command(d, b.data(), 9, 4), {first});
        q.submit(subgraph_command{child}).wait();
        CHECK(b[0] == 9);
        CHECK(b[3] == 9);
        CHECK(b[4] == 0);
        q.wait_and_throw();
    }
}

TEST_CASE("an in-order queue runs commands in submission order") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d, {.in_order = true});
        usm_array<unsigned> x(1, d);
        std::vector<int> seen;
        // x = 3x + i, alternately in a kernel and in a host task: any reordering changes the result.
        const auto& step = kernels_for(d).affine;
        unsigned expected = 0;
        for (int i = 0; i < 200; ++i) {
            if (i % 2 == 0)
                q.parallel_for(
                    range(1), step,
                    {kernel_argument::from_pointer(x.data()), kernel_argument::from_scalar(3u),
                     kernel_argument::from_scalar(unsigned(i))});
            else
                q.host_task([&x, &seen, i] {
                    x[0] = 3u * x[0] + unsigned(i);
                    seen.push_back(i);
                });
            expected = 3u * expected + unsigned(i);
        }
        q.wait();
        CHECK(x[0] == expected);
        CHECK(seen.size() == 100);
        CHECK(std::is_sorted(seen.begin(), seen.end()));
    }
}

TEST_CASE("an out-of-order queue orders commands by their dependencies") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        usm_array<unsigned> x(1, d);
        const auto& step = kernels_for(d).affine;
        event previous;
        unsigned expected = 0;
        for (int i = 0; i < 300; ++i) {
            previous = i % 3 == 2 ? q.host_task([&x, i] { x[0] = 3u * x[0] + unsigned(i); }, previous)
                                  : q.parallel_for(range(1), step,
                                                   {kernel_argument::from_pointer(x.data()),
                                                    kernel_argument::from_scalar(3u),
                                                    kernel_argument::from_scalar(unsigned(i))},
                                                   previous);
            expected = 3u * expected + unsigned(i);
        }
        previous.wait();
        CHECK(x[0] == expected);
    }
}

TEST_CASE("a kernel can follow several dependencies, and one without arguments too") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        usm_array<int> x(8, d);
        auto set = q.memset(x.data(), 0, 8 * sizeof(int));
        auto fill = q.host_task([&x] { x[7] = 7; }, set);
        int* data = x.data();
        if (runs_host_kernels(d)) { // the pointer is captured: no arguments
            auto doubled = make_kernel("double", [data](const work_item& it) { data[it.global_id[0]] *= 2; });
            q.parallel_for(range(8), doubled, {set, fill}).wait();
        } else {
            q.parallel_for(range(8), kernels_for(d).scale,
                           {kernel_argument::from_pointer(data), kernel_argument::from_scalar(2)}, {set, fill})
                .wait();
        }
        CHECK(x[7] == 14);
        CHECK(x[0] == 0);
    }
}

TEST_CASE("independent commands of an out-of-order queue may all be in flight") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        rendezvous meet;
        bool met_a = false, met_b = false;
        auto a = q.host_task([&] { met_a = meet.arrive_and_wait(); });
        auto b = q.host_task([&] { met_b = meet.arrive_and_wait(); });
        event::wait({a, b});
        CHECK(met_a);
        CHECK(met_b);
    }
}

TEST_CASE("a barrier without dependencies waits for everything submitted before it") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        gate release;
        std::atomic<bool> done{false};
        q.host_task([&] {
            release.wait();
            done = true;
        });
        q.memset(nullptr, 0, 0);
        auto after = q.barrier();
        CHECK_FALSE(after.is_complete()); // the host task cannot finish before the gate opens
        release.open();
        after.wait();
        CHECK(done.load());
    }
}

TEST_CASE("a barrier with dependencies waits only for them") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        gate release;
        q.host_task([&] { release.wait(); });
        int value = 0;
        auto e = q.host_task([&] { value = 1; });
        q.barrier(e).wait(); // completes although the gated task has not
        CHECK(value == 1);
        release.open();
        q.wait();
    }
}

TEST_CASE("submitting a host task never blocks the submitting thread") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        for (bool in_order : {false, true}) {
            queue q(d, {.in_order = in_order});
            gate submitted;
            bool saw_gate = false;
            // The task waits for something the submitter does only after submit() returned.
            auto e = q.host_task([&] { saw_gate = submitted.wait(); });
            submitted.open();
            e.wait();
            CHECK(saw_gate);
        }
    }
}

TEST_CASE("wait() waits for every command submitted so far") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        usm_array<int> x(1000, d);
        std::atomic<int> tasks{0};
        for (int i = 0; i < 1000; ++i) {
            q.submit(add_command(d, x.data() + i, 1, 1));
            if (i % 10 == 0) q.host_task([&tasks] { ++tasks; });
        }
        q.wait();
        CHECK(x.values() == std::vector<int>(1000, 1));
        CHECK(tasks.load() == 100);
    }
}

TEST_CASE("a command may depend on an event of another queue") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue first(d), second(d, {.in_order = true});
        gate release;
        int value = 0;
        auto produced = first.host_task([&] {
            release.wait();
            value = 41;
        });
        auto consumed = second.host_task([&] { value += 1; }, produced);
        CHECK_FALSE(consumed.is_complete());
        release.open();
        consumed.wait();
        CHECK(value == 42);
    }
}

TEST_CASE("invalid commands are refused by the submitting call") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        CHECK_THROWS_AS(q.memset(nullptr, 0, 16), encore::error);
        CHECK_THROWS_AS(q.submit(host_task_command{}), encore::error);
        try {
            q.memcpy(nullptr, nullptr, 8);
            FAIL("memcpy with null pointers was accepted");
        } catch (const encore::error& e) {
            CHECK(e.code() == errc::invalid_argument);
        }
    }
}

TEST_CASE("a kernel command the caller keeps is submitted again and again, and stays as it was") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        for (const bool in_order : {true, false}) {
            INFO("in order: " << in_order);
            queue q(d, {.in_order = in_order});
            usm_array<int> a(64, d);
            a.assign(std::vector<int>(64, 0));
            const kernel_command add = add_command(d, a.data(), 3, 64);
            event last;
            for (int i = 0; i < 5; ++i)
                last = q.submit(add, {last}); // submit(const kernel_command&): nothing copied, nothing moved
            last.wait();
            CHECK(a[0] == 15);
            CHECK(a[63] == 15);
            CHECK(add.kernel == kernels_for(d).add);
            CHECK(add.arguments.size() == 2);
            kernel_command half = add;
            half.range = range(32);
            q.submit(half, {last}).wait();
            CHECK(a[31] == 18);
            CHECK(a[32] == 15);

            kernel_command no_kernel = add;
            no_kernel.kernel = nullptr;
            kernel_command four_dimensions = add;
            four_dimensions.range.dimensions = 4;
            for (const kernel_command* bad : {&no_kernel, &four_dimensions})
                CHECK(code_of([&] { q.submit(*bad); }) == errc::invalid_argument);
            q.wait_and_throw();
            CHECK(a[0] == 18); // the refused commands did not run
        }
    }
}

TEST_CASE("queues are shared handles") {
    queue a(devices_under_test().front());
    queue b = a;
    CHECK(a == b);
    CHECK(b.get_device() == a.get_device());
    CHECK_FALSE(queue(a.get_device()) == a);
}

namespace {
device native_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == "native") return d;
    throw error(errc::backend_failure, "no native device");
}
} // namespace

TEST_CASE("native: independent commands start in submission order; a graph launch's waiter does not overtake") {
    // Every worker is held by a spinning kernel, so an eager copy submitted next stays queued. A graph launch
    // submitted after it and waited for is driven by the waiting thread: it must start the copy first.
    queue q(native_device());
    const int workers = static_cast<int>(std::thread::hardware_concurrency());
    std::atomic<int> started{0};
    std::atomic<bool> release{false};
    std::vector<event> blockers;
    for (int i = 0; i < workers; ++i)
        blockers.push_back(q.parallel_for(range(1), [&](const work_item&) {
            started.fetch_add(1);
            while (!release.load()) std::this_thread::yield();
        }));
    while (started.load() < workers) std::this_thread::yield();

    usm_array<int> source(1024, native_device()), copied(1024, native_device()), graph_out(16, native_device());
    std::fill(source.data(), source.data() + 1024, 42);
    auto copy = q.memcpy(copied.data(), source.data(), 1024 * sizeof(int));
    graph g;
    g.add(memset_command{graph_out.data(), 1, 16 * sizeof(int)});
    executable_graph exec(g, native_device());
    q.launch(exec).wait();
    CHECK(copy.is_complete()); // started (and here run) before the launch it was submitted before
    CHECK(copied[1023] == 42);
    release = true;
    q.wait();
}

namespace {
// Sets an environment variable for one scope (read when a queue is created).
struct scoped_environment {
    scoped_environment(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        ::setenv(name, value, 1);
    }
    ~scoped_environment() {
        if (old_) ::setenv(name_, old_->c_str(), 1);
        else ::unsetenv(name_);
    }
    const char* name_;
    std::optional<std::string> old_;
};

// Submits `count` launches of one kernel type to `q`, each waited for, and returns how many ran on this thread.
// Each `Type` is a kernel type of its own (the cost estimates are per type).
template <int Type> int runs_on_submitting_thread(queue& q, int count, std::chrono::microseconds work) {
    std::vector<std::thread::id> ran_on(static_cast<std::size_t>(count));
    auto k = make_kernel("where", [&ran_on, work](const work_item&, std::span<const kernel_argument> a) {
        const auto until = std::chrono::steady_clock::now() + work;
        while (std::chrono::steady_clock::now() < until) {
        }
        ran_on[a[0].scalar<std::size_t>()] = std::this_thread::get_id();
    });
    for (int i = 0; i < count; ++i)
        q.parallel_for(range(1), k, {kernel_argument::from_scalar(static_cast<std::size_t>(i))}).wait();
    q.wait_and_throw();
    return static_cast<int>(std::count(ran_on.begin(), ran_on.end(), std::this_thread::get_id()));
}
} // namespace

TEST_CASE("native: tiny eager kernels run on the submitting thread once measured; others on workers") {
    // ENCORE_NATIVE_INLINE_NS is read when a queue is made. A bound of 1 s makes any measured kernel tiny here
    // (also under sanitizers); the first launch of a kernel type runs on a worker, which measures it.
    {
        scoped_environment bound("ENCORE_NATIVE_INLINE_NS", "1000000000");
        for (bool in_order : {false, true}) {
            queue q(native_device(), {.in_order = in_order, .enable_profiling = true});
            CHECK(runs_on_submitting_thread<1>(q, 50, std::chrono::microseconds(0)) >= 45);
            // A small memset waits for nothing: it has run when submit returns, and its event has ordered
            // timestamps.
            usm_array<int> x(16, native_device());
            auto e = q.memset(x.data(), 1, 16 * sizeof(int));
            CHECK(e.is_complete());
            CHECK(x[15] == 0x01010101);
            const auto t = e.profiling();
            CHECK(t.submit <= t.start);
            CHECK(t.start <= t.end);
        }
    }
    {
        // The default bound (0.5 us): a kernel that takes 50 us never runs inline, whatever was measured.
        queue q(native_device());
        CHECK(runs_on_submitting_thread<2>(q, 6, std::chrono::microseconds(50)) == 0);
    }
    {
        scoped_environment off("ENCORE_NATIVE_INLINE_NS", "0");
        queue q(native_device(), {.in_order = true});
        CHECK(runs_on_submitting_thread<3>(q, 20, std::chrono::microseconds(0)) == 0);
    }
    for (const char* bad_value : {"fast", "-1", "1000000001", "12ns"}) {
        INFO("ENCORE_NATIVE_INLINE_NS=" << std::string(bad_value));
        scoped_environment bad("ENCORE_NATIVE_INLINE_NS", bad_value);
        try {
            queue q(native_device());
            FAIL("a bad ENCORE_NATIVE_INLINE_NS was accepted");
        } catch (const encore::error& e) {
            CHECK(e.code() == errc::invalid_argument);
            CHECK(std::string(e.what()).find("ENCORE_NATIVE_INLINE_NS") != std::string::npos);
        }
    }
}

TEST_CASE("native: what a kernel run inline throws is reported once, like any other") {
    scoped_environment bound("ENCORE_NATIVE_INLINE_NS", "1000000000");
    std::vector<std::string> received;
    queue q(native_device(), {.in_order = true}, [&](exception_list errors) {
        for (auto& e : errors) try {
                std::rethrow_exception(e);
            } catch (const std::exception& x) {
                received.emplace_back(x.what());
            }
    });
    usm_array<int> x(1, native_device());
    auto k = make_kernel("fails_at_40", [](const work_item&, std::span<const kernel_argument> a) {
        const int i = a[1].scalar<int>();
        if (i == 40) throw std::runtime_error("launch 40 failed");
        *static_cast<int*>(a[0].pointer()) += 1;
    });
    for (int i = 0; i < 60; ++i)
        q.parallel_for(range(1), k, {kernel_argument::from_pointer(x.data()), kernel_argument::from_scalar(i)});
    q.wait();
    q.throw_asynchronous();
    CHECK(received == std::vector<std::string>{"launch 40 failed"});
    CHECK(x[0] == 59); // every other launch ran
}

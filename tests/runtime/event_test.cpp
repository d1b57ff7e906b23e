// encore::event: status, wait and profiling timestamps, for commands, host tasks and graph launches.
#include <doctest/doctest.h>

#include <chrono>

#include "runtime_support.hpp"

using namespace encore;
using namespace encore::testing;

TEST_CASE("a default-constructed event is complete and has no profiling") {
    event e;
    CHECK(e.is_complete());
    e.wait();
    CHECK_THROWS_AS(e.profiling(), encore::error);
}

TEST_CASE("an event is not complete before its work is, and is after wait()") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        gate release;
        auto gated = q.host_task([&] { release.wait(); });
        auto after = q.memset(nullptr, 0, 0, gated);
        CHECK(gated.status() != event_status::complete);
        CHECK(after.status() == event_status::submitted); // its dependency has not completed
        release.open();
        after.wait();
        CHECK(after.status() == event_status::complete);
        CHECK(gated.is_complete()); // the dependency completed first
    }
}

TEST_CASE("event::wait on a list waits for all of them") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        std::vector<event> events;
        std::atomic<int> ran{0};
        for (int i = 0; i < 20; ++i)
            events.push_back(q.host_task([&] { ++ran; }));
        event::wait(events);
        CHECK(ran.load() == 20);
        for (auto& e : events)
            CHECK(e.is_complete());
    }
}

TEST_CASE("profiling timestamps are ordered: submit <= start <= end") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d, {.in_order = true, .enable_profiling = true}); // the commands below share x
        usm_array<int> x(4096, d);
        std::vector<event> events{
            q.memset(x.data(), 0, 4096 * sizeof(int)),
            q.submit(add_command(d, x.data(), 1, 4096)),
            q.host_task([] {}),
            q.barrier(),
        };
        graph g;
        auto k = g.add(add_command(d, x.data(), 1, 16));
        g.add(host_task_command{[] {}}, {k});
        executable_graph exec(g, d);
        events.push_back(q.launch(exec));
        for (const auto& e : events) {
            auto t = e.profiling(); // waits for completion first
            CHECK(t.submit > 0);
            CHECK(t.submit <= t.start);
            CHECK(t.start <= t.end);
        }
        // A later command's submission cannot precede an earlier one's.
        CHECK(events.front().profiling().submit <= events.back().profiling().submit);
    }
}

TEST_CASE("profiling timestamps are on the host's steady clock, whatever the device's clock") {
    auto now_ns = [] {
        return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now().time_since_epoch())
                                              .count());
    };
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d, {.in_order = true, .enable_profiling = true});
        usm_array<int> x(1024, d);
        for (int command = 0; command < 3; ++command) {
            INFO("command " << command);
            const std::uint64_t before = now_ns();
            event e = command == 0   ? q.memset(x.data(), 0, 1024 * sizeof(int))
                      : command == 1 ? q.submit(add_command(d, x.data(), 1, 1024))
                                     : q.fill(x.data(), 7, 1024);
            const std::uint64_t after = now_ns();
            e.wait();
            const auto t = e.profiling();
            const std::uint64_t done = now_ns();
            CHECK(t.submit >= before);
            CHECK(t.submit <= after);
            // The device's distances carried over: its clock may drift from the host's by a little.
            CHECK(t.end <= done + 5'000'000);
        }
    }
}

TEST_CASE("profiling is refused on a queue created without it") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        auto e = q.host_task([] {});
        e.wait();
        try {
            e.profiling();
            FAIL("profiling info without enable_profiling");
        } catch (const encore::error& error) {
            CHECK(error.code() == errc::invalid_argument);
        }
    }
}

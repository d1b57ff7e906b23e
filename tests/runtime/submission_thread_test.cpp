// encore::detail::submission_thread: tasks run one at a time in submission order, on the submitting thread when
// they come alone and on the submitter's thread in bursts; errors, tasks that submit, back pressure, drain and
// destruction. (The CUDA backend's launcher is one of these; CI has no GPU, so its order rules are pinned here.)
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <latch>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "encore/backends/detail/submission_thread.hpp"
#include "support/error_code.hpp"

using encore::detail::submission_thread;
using encore::detail::submission_thread_options;
using namespace std::chrono_literals;

namespace {

// What ran, in which order, on which thread. Tasks run one at a time, so the log needs no lock of its own; the
// test reads it after drain(), which orders it after every write.
struct run_log {
    std::vector<int> order;
    std::vector<std::thread::id> threads;
};

struct task {
    int id = 0;
    run_log* log = nullptr;
    std::function<void()> body; // optional
    std::vector<std::string>* failures = nullptr;
    // Optional: where this task (the last object holding it, not a moved-from one) is destroyed.
    std::shared_ptr<std::vector<std::thread::id>> destroyed_on;

    task(int i, run_log* l, std::function<void()> b = {}, std::vector<std::string>* f = nullptr)
        : id(i), log(l), body(std::move(b)), failures(f) {}
    task(task&&) noexcept = default;
    task& operator=(task&&) noexcept = default;
    ~task() {
        if (destroyed_on) destroyed_on->push_back(std::this_thread::get_id()); // one at a time: under the lock
    }

    void operator()() {
        log->order.push_back(id);
        log->threads.push_back(std::this_thread::get_id());
        if (body) body();
    }
    void fail(std::exception_ptr e) noexcept {
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& x) {
            if (failures) failures->push_back(x.what());
        }
    }
};

// Submits tasks 0 .. count-1 from this thread, drains, and checks that every one ran, in order.
void submit_in_order(submission_thread<task>& s, run_log& log, int count) {
    for (int i = 0; i < count; ++i)
        s.submit(task{i, &log});
    s.drain();
    REQUIRE(log.order.size() == static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        CHECK(log.order[static_cast<std::size_t>(i)] == i);
}

submission_thread_options always_inline() {
    return {.burst_gap = 0ns, .linger = 0ns, .capacity = 1024};
}
submission_thread_options always_burst() {
    return {.burst_gap = 1h, .linger = 100us, .capacity = 1024};
}

} // namespace

TEST_CASE("a task submitted while nothing is queued or running, and not in a burst, runs on the submitting thread") {
    run_log log;
    submission_thread<task> s(always_inline());
    submit_in_order(s, log, 100);
    for (auto id : log.threads)
        CHECK(id == std::this_thread::get_id());
}

TEST_CASE("a burst goes to the submitter's thread, in submission order") {
    run_log log;
    submission_thread<task> s(always_burst());
    submit_in_order(s, log, 2000);
    // The first came alone (nothing ran before it); every later one was less than burst_gap after it.
    CHECK(log.threads.front() == std::this_thread::get_id());
    for (std::size_t i = 1; i < log.threads.size(); ++i)
        CHECK(log.threads[i] != std::this_thread::get_id());
}

TEST_CASE("in_order sees the tasks in the order they run, with several submitting threads") {
    run_log log;
    std::vector<int> seen; // written by in_order, under the submitter's lock
    submission_thread<task> s({.burst_gap = 1us, .linger = 20us, .capacity = 16});
    constexpr int threads = 4, per_thread = 500;
    std::vector<std::thread> producers;
    for (int t = 0; t < threads; ++t)
        producers.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i) {
                s.submit(task{t * per_thread + i, &log}, [&](task& k) { seen.push_back(k.id); });
                if (i % 50 == 0) std::this_thread::sleep_for(50us); // some submissions come alone
            }
        });
    for (auto& p : producers)
        p.join();
    s.drain();
    REQUIRE(log.order.size() == threads * per_thread);
    CHECK(seen == log.order);
    std::vector<int> next(threads, 0); // each producer's tasks ran in its order
    for (int id : log.order) {
        CHECK(id % per_thread == next[static_cast<std::size_t>(id / per_thread)]);
        ++next[static_cast<std::size_t>(id / per_thread)];
    }
}

TEST_CASE("a task that throws: on the submitting thread submit() throws, on the thread fail() gets the error") {
    run_log log;
    std::vector<std::string> failures;
    {
        submission_thread<task> s(always_inline());
        CHECK_THROWS_WITH_AS(s.submit(task{0, &log, [] { throw std::runtime_error("inline failure"); }, &failures}),
                             "inline failure", std::runtime_error);
        s.submit(task{1, &log}); // the submitter still works
        s.drain();
        CHECK(log.order == std::vector<int>{0, 1});
        CHECK(failures.empty());
    }
    log = {};
    {
        submission_thread<task> s(always_burst());
        s.submit(task{0, &log});
        s.submit(task{1, &log, [] { throw std::runtime_error("queued failure"); }, &failures});
        s.submit(task{2, &log});
        s.drain();
        CHECK(log.order == std::vector<int>{0, 1, 2});
        CHECK(failures == std::vector<std::string>{"queued failure"});
    }
}

TEST_CASE("a task may submit more (it runs after the submitting task), never waits on itself, and cannot drain") {
    for (auto options : {always_inline(), always_burst(), submission_thread_options{.burst_gap = 1h, .capacity = 1}}) {
        run_log log;
        std::vector<std::string> failures;
        submission_thread<task> s(options);
        std::atomic<bool> drain_refused{false};
        auto submit_more = [&] {
            CHECK(s.running_here());
            for (int i = 10; i < 15; ++i) // past the capacity of 1: a task's submissions never wait
                s.submit(task{i, &log});
            drain_refused = encore::testing::code_of([&] { s.drain(); }) == encore::errc::invalid_argument;
        };
        s.submit(task{0, &log});
        s.submit(task{1, &log, submit_more, &failures});
        s.submit(task{2, &log});
        s.drain(); // task 1 has run, so what it submitted was submitted before the next drain
        s.drain();
        CHECK_FALSE(s.running_here());
        // Task 2 may come before or after the five task 1 submitted (the main thread races with task 1); each
        // submitter's tasks run in its order, and what task 1 submitted runs after it.
        REQUIRE(log.order.size() == 8);
        auto at = [&](int id) { return std::find(log.order.begin(), log.order.end(), id) - log.order.begin(); };
        CHECK(at(0) == 0);
        CHECK(at(1) == 1);
        CHECK(at(2) > at(1));
        for (int i = 10; i < 15; ++i)
            CHECK(at(i) == at(10) + (i - 10) + (at(2) > at(10) && at(2) < at(i) ? 1 : 0));
        CHECK(drain_refused);
        CHECK(failures.empty());
    }
}

TEST_CASE("submit waits while `capacity` tasks are unfinished; drain waits for what was submitted before it") {
    run_log log;
    std::latch release(1);
    submission_thread<task> s({.burst_gap = 1h, .linger = 100us, .capacity = 3}); // running + 2 queued
    s.submit(task{0, &log});                            // alone: runs here
    std::atomic<bool> holding{false};
    s.submit(task{1, &log, [&] {
                      holding = true;
                      release.wait();
                  }}); // on the thread, which then holds it
    while (!holding)
        std::this_thread::sleep_for(1ms);
    s.submit(task{2, &log});
    s.submit(task{3, &log}); // 3 not finished: full
    std::atomic<bool> fourth_submitted{false};
    std::thread producer([&] {
        s.submit(task{4, &log});
        fourth_submitted = true;
    });
    std::this_thread::sleep_for(100ms);
    CHECK_FALSE(fourth_submitted.load());
    release.count_down();
    producer.join();
    CHECK(fourth_submitted.load());
    s.drain();
    CHECK(log.order == std::vector<int>{0, 1, 2, 3, 4});
}

TEST_CASE("destruction runs what is queued") {
    run_log log;
    {
        submission_thread<task> s(always_burst());
        for (int i = 0; i < 300; ++i)
            s.submit(task{i, &log});
    }
    REQUIRE(log.order.size() == 300);
    CHECK(log.order.back() == 299);
}

TEST_CASE("a cheap task runs on the submitting thread whenever nothing is queued or running, burst or not") {
    run_log log;
    submission_thread<task> s(always_burst());
    for (int i = 0; i < 100; ++i)
        s.submit(task{i, &log}, [](task&) {}, true);
    s.drain();
    REQUIRE(log.threads.size() == 100);
    for (const auto& t : log.threads)
        CHECK(t == std::this_thread::get_id());

    // Behind a task on the thread, a cheap one waits its turn there.
    std::latch release(1);
    std::atomic<bool> holding{false};
    s.submit(task{100, &log, [&] {
                      holding = true;
                      release.wait();
                  }});
    while (!holding)
        std::this_thread::sleep_for(1ms);
    s.submit(task{101, &log}, [](task&) {}, true);
    release.count_down();
    s.drain();
    REQUIRE(log.order.size() == 102);
    CHECK(log.order[100] == 100);
    CHECK(log.order[101] == 101);
    CHECK(log.threads[101] != std::this_thread::get_id());
}

TEST_CASE("tasks the thread ran are destroyed by submitters (what they free goes back where it was allocated)") {
    run_log log;
    auto destroyed_on = std::make_shared<std::vector<std::thread::id>>();
    {
        submission_thread<task> s(always_burst());
        for (int i = 0; i < 200; ++i) {
            task t{i, &log};
            t.destroyed_on = destroyed_on;
            s.submit(std::move(t));
        }
        s.drain();
        s.submit(task{200, &log}); // reclaims what the thread finished
        s.drain();
    } // the rest at destruction
    REQUIRE(log.threads.size() == 201);
    int on_thread = 0;
    for (std::size_t i = 0; i < 200; ++i)
        on_thread += log.threads[i] != std::this_thread::get_id();
    CHECK(on_thread == 199); // all but the first, which came alone
    REQUIRE(destroyed_on->size() == 200);
    for (const auto& t : *destroyed_on)
        CHECK(t == std::this_thread::get_id());
}

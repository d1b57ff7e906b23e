// sycl_ext_oneapi_reusable_events: events made apart from commands, re-associated by enqueue_signal_event and
// waited for by enqueue_wait_event(s), on queues and while a queue records a graph.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <sycl/sycl.hpp>

#include "support/sycl_error.hpp"

namespace syclexp = sycl::ext::oneapi::experimental;
using encore::testing::require_sycl_error;

namespace {
// A host task that finishes after `ms` milliseconds, then sets `flag` to `value`.
sycl::event slow_store(sycl::queue& q, std::atomic<int>& flag, int value, int ms = 30) {
    return q.submit([&flag, value, ms](sycl::handler& h) {
        h.host_task([&flag, value, ms] {
            std::this_thread::sleep_for(std::chrono::milliseconds(ms));
            flag.store(value);
        });
    });
}
} // namespace

TEST_CASE("make_event: a complete event of a context; per-event profiling is refused") {
    sycl::queue q;
    sycl::event e = syclexp::make_event(q.get_context());
    CHECK(e.get_info<sycl::info::event::command_execution_status>() == sycl::info::event_command_status::complete);
    e.wait();
    CHECK(e.get_wait_list().empty());
    sycl::event d = syclexp::make_event(); // the default context of the default device's platform
    d.wait();
    syclexp::make_event(q.get_context(), syclexp::enable_profiling{false});
    syclexp::make_event(q.get_context(), syclexp::properties{syclexp::enable_profiling{false}});
    CHECK_FALSE(q.get_device().has(sycl::aspect::ext_oneapi_per_event_profiling));
    require_sycl_error([&] { syclexp::make_event(q.get_context(), syclexp::enable_profiling{}); },
                       sycl::errc::feature_not_supported, "ext_oneapi_per_event_profiling");
    require_sycl_error(
        [&] { syclexp::make_event(q.get_context(), syclexp::properties{syclexp::enable_profiling{true}}); },
        sycl::errc::feature_not_supported, "enable_profiling");
}

TEST_CASE("enqueue_signal_event / enqueue_wait_event order two queues, and the event is reused") {
    for (bool in_order : {true, false}) {
        CAPTURE(in_order);
        sycl::property_list props = in_order ? sycl::property_list{sycl::property::queue::in_order{}}
                                             : sycl::property_list{};
        sycl::queue producer{props};
        sycl::queue consumer{producer.get_context(), producer.get_device(), props};
        sycl::event e = syclexp::make_event(producer.get_context());
        std::atomic<int> flag{0};
        std::vector<int> seen;
        for (int round = 1; round <= 4; ++round) {
            slow_store(producer, flag, round);
            syclexp::enqueue_signal_event(producer, e);
            syclexp::enqueue_wait_event(consumer, e);
            int observed = -1;
            consumer.submit([&](sycl::handler& h) { h.host_task([&] { observed = flag.load(); }); }).wait();
            seen.push_back(observed);
            e.wait();
            CHECK(e.get_info<sycl::info::event::command_execution_status>() ==
                  sycl::info::event_command_status::complete);
        }
        CHECK(seen == std::vector<int>{1, 2, 3, 4});
    }
}

TEST_CASE("enqueue_wait_events waits for every event; a dependency taken before a re-association keeps its command") {
    sycl::queue a{sycl::property::queue::in_order{}};
    sycl::queue b{a.get_context(), a.get_device(), sycl::property::queue::in_order{}};
    sycl::queue c{a.get_context(), a.get_device(), sycl::property::queue::in_order{}};
    std::atomic<int> first{0}, second{0};
    sycl::event ea = syclexp::make_event(a.get_context());
    sycl::event eb = syclexp::make_event(a.get_context());
    slow_store(a, first, 1, 40);
    syclexp::enqueue_signal_event(a, ea);
    slow_store(b, second, 2, 20);
    syclexp::enqueue_signal_event(b, eb);
    syclexp::enqueue_wait_events(c, {ea, eb});
    int sum = 0;
    c.submit([&](sycl::handler& h) { h.host_task([&] { sum = first.load() + second.load(); }); }).wait();
    CHECK(sum == 3);

    // `held` is ea's command; re-associating ea to a later, slow command does not change what `held` stands for.
    sycl::event held = ea;
    std::atomic<int> later{0};
    slow_store(a, later, 7, 60);
    syclexp::enqueue_signal_event(a, ea);
    held.wait(); // the first store's tag: complete already
    CHECK(held.get_info<sycl::info::event::command_execution_status>() == sycl::info::event_command_status::complete);
    ea.wait();
    CHECK(later.load() == 7);
}

TEST_CASE("enqueue_signal_event refuses an event of another context") {
    sycl::queue q;
    sycl::context other{q.get_device()};
    sycl::queue elsewhere{other, q.get_device()};
    sycl::event e = syclexp::make_event(q.get_context());
    require_sycl_error([&] { syclexp::enqueue_signal_event(elsewhere, e); }, sycl::errc::invalid,
                       "another context");
    // An event of `q`'s commands belongs to q's context too.
    sycl::event from_queue = q.submit([](sycl::handler& h) { h.host_task([] {}); });
    require_sycl_error([&] { syclexp::enqueue_signal_event(elsewhere, from_queue); }, sycl::errc::invalid,
                       "another context");
    syclexp::enqueue_signal_event(q, from_queue);
    from_queue.wait();
    // Waiting on an event of another context is allowed.
    syclexp::enqueue_wait_event(elsewhere, e);
    elsewhere.wait();
}

TEST_CASE("a signalled event on a profiling queue is a tag: its three times are one instant") {
    sycl::queue q{sycl::property_list{sycl::property::queue::in_order{}, sycl::property::queue::enable_profiling{}}};
    sycl::event start = syclexp::make_event(q.get_context());
    sycl::event end = syclexp::make_event(q.get_context());
    std::atomic<int> flag{0};
    syclexp::enqueue_signal_event(q, start);
    slow_store(q, flag, 1, 20);
    syclexp::enqueue_signal_event(q, end);
    q.wait();
    for (const sycl::event& tag : {start, end}) {
        const auto submit = tag.get_profiling_info<sycl::info::event_profiling::command_submit>();
        const auto begin = tag.get_profiling_info<sycl::info::event_profiling::command_start>();
        const auto finish = tag.get_profiling_info<sycl::info::event_profiling::command_end>();
        CHECK(submit == finish);
        CHECK(begin == finish);
    }
    const auto elapsed = end.get_profiling_info<sycl::info::event_profiling::command_start>() -
                         start.get_profiling_info<sycl::info::event_profiling::command_end>();
    CHECK(elapsed >= 20'000'000); // the host task slept 20 ms between the tags
}

TEST_CASE("while a queue records a graph: signal and wait become barrier nodes, the event is graph-limited") {
    sycl::queue q{sycl::property::queue::in_order{}};
    syclexp::command_graph graph{q.get_context(), q.get_device()};
    int* data = sycl::malloc_shared<int>(2, q);
    data[0] = data[1] = 0;
    sycl::event e = syclexp::make_event(q.get_context());
    graph.begin_recording(q);
    q.fill(data, 5, 1);
    syclexp::enqueue_signal_event(q, e);
    syclexp::enqueue_wait_event(q, e);
    q.submit([&](sycl::handler& h) { h.host_task([=] { data[1] = data[0] + 1; }); });
    graph.end_recording(q);
    require_sycl_error([&] { e.wait(); }, sycl::errc::invalid, "recording a graph");
    auto exec = graph.finalize();
    q.ext_oneapi_graph(exec).wait();
    CHECK(data[0] == 5);
    CHECK(data[1] == 6);
    sycl::free(data, q);
}

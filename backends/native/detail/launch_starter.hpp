// encore::native::detail::launch_starter — hands graph launches to the arena only when no waiting thread has
// taken them first. Not for you.
//
// A program that launches a graph and waits for it drives the launch on its own thread (launch_claim,
// task_list.hpp). Enqueuing the launch to the arena as well woke a worker for every launch; finding the launch
// already claimed, that worker, and the others oneTBB woke with it, spun looking for work (on the 16-core test
// host: over half the CPU samples of a fan-out replay, and the replay ran up to 25 % slower beside them). So a
// ready launch is posted here instead: one thread of the backend's, asleep while there is nothing to do, takes
// each posted launch and enqueues it to the arena unless a waiter has claimed it by then (its wake-up is the
// waiter's head start). A launch nobody waits for starts after that wake-up (microseconds); launches meant to
// overlap still overlap, since the arena's workers run them, not this thread. Posting is lock-free (an
// intrusive stack) and costs a futex wake only while the thread sleeps.
//
//     starter.post(request);   // request.start() runs on the starter's thread, in posting order
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

namespace encore::native::detail {

// What can be posted: start() runs once, on the starter's thread. The request must live until then.
struct start_request {
    virtual void start() noexcept = 0;
    start_request* next_posted = nullptr;

protected:
    ~start_request() = default;
};

class launch_starter {
public:
    launch_starter();
    ~launch_starter(); // starts whatever is still posted, then stops its thread
    launch_starter(const launch_starter&) = delete;
    launch_starter& operator=(const launch_starter&) = delete;

    void post(start_request& request) noexcept;

private:
    void run() noexcept;

    std::atomic<start_request*> posted_{nullptr}; // last posted first
    std::atomic<std::uint32_t> signal_{0};        // bumped by each post; the thread sleeps on it
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

} // namespace encore::native::detail

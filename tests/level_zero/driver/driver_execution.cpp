// How the test driver runs work: the worker threads of queues and immediate lists, and the execution of one
// command (waits, the work itself, the signal with its timestamps).
#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "driver_objects.hpp"

namespace encore_ze_driver {

driver_state& state() {
    static driver_state s;
    return s;
}

void count(std::uint64_t encore_ze_driver_counters::*field, std::uint64_t by) {
    auto& s = state();
    std::lock_guard lock(s.counters_mutex);
    s.counters.*field += by;
}

std::uint64_t now_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

worker::worker() : thread_([this] { loop(); }) {}

worker::~worker() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

void worker::post(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
        ++posted_;
    }
    changed_.notify_all();
}

bool worker::drain(std::uint64_t timeout_ns) {
    std::unique_lock lock(mutex_);
    const std::uint64_t target = posted_;
    auto done = [&] { return done_ >= target; };
    if (timeout_ns == UINT64_MAX) {
        changed_.wait(lock, done);
        return true;
    }
    return changed_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), done);
}

void worker::loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return; // stopping, and everything queued has run
        auto job = std::move(jobs_.front());
        jobs_.pop_front();
        lock.unlock();
        job();
        lock.lock();
        ++done_;
        changed_.notify_all();
    }
}

void signal_event(event_object* e, std::uint64_t start_ns, std::uint64_t end_ns) {
    auto& s = state();
    {
        std::lock_guard lock(s.mutex);
        e->signaled = true;
        e->start_ns = start_ns;
        e->end_ns = end_ns;
    }
    s.changed.notify_all();
}

namespace {

void wait_for(const std::vector<event_object*>& events) {
    if (events.empty()) return;
    auto& s = state();
    std::unique_lock lock(s.mutex);
    s.changed.wait(lock, [&] {
        for (const event_object* e : events)
            if (!e->signaled) return false;
        return true;
    });
}

void run_launch(const command& c) {
    // Every group gets the same argument pointers, except local memory, which is per group.
    const std::size_t count = c.arguments.size();
    std::vector<void*> pointers(count);
    std::vector<std::vector<unsigned char>> locals(count);
    std::vector<void*> local_pointers(count);
    encore_ze_group g{};
    for (int d = 0; d < 3; ++d) {
        g.group_count[d] = c.group_count[d];
        g.group_size[d] = c.group_size[d];
    }
    for (std::uint32_t z = 0; z < c.group_count[2]; ++z)
        for (std::uint32_t y = 0; y < c.group_count[1]; ++y)
            for (std::uint32_t x = 0; x < c.group_count[0]; ++x) {
                for (std::size_t i = 0; i < count; ++i) {
                    if (c.local_sizes[i]) {
                        locals[i].assign(c.local_sizes[i], 0);
                        local_pointers[i] = locals[i].data();
                        pointers[i] = &local_pointers[i];
                    } else {
                        pointers[i] = const_cast<unsigned char*>(c.arguments[i].data());
                    }
                }
                g.group_id[0] = x;
                g.group_id[1] = y;
                g.group_id[2] = z;
                g.arguments = pointers.data();
                c.entry(&g);
            }
    encore_ze_driver::count(&encore_ze_driver_counters::kernel_launches_run);
}

} // namespace

void run_command(const command& c) {
    wait_for(c.waits);
    const std::uint64_t start = now_ns();
    switch (c.type) {
    case command::kind::copy:
        if (c.bytes) std::memmove(c.destination, c.source, c.bytes);
        break;
    case command::kind::fill: {
        auto* out = static_cast<unsigned char*>(c.destination);
        const std::size_t n = c.pattern.size();
        if (n == 1)
            std::memset(out, c.pattern[0], c.bytes);
        else
            for (std::size_t i = 0; i < c.bytes; ++i)
                out[i] = c.pattern[i % n];
        break;
    }
    case command::kind::reset: {
        auto& s = state();
        std::lock_guard lock(s.mutex);
        for (event_object* e : c.events) {
            e->signaled = false;
            e->start_ns = e->end_ns = 0;
        }
        break;
    }
    case command::kind::timestamps: {
        auto* out = static_cast<ze_kernel_timestamp_result_t*>(c.destination);
        auto& s = state();
        std::lock_guard lock(s.mutex);
        for (std::size_t i = 0; i < c.events.size(); ++i) {
            out[i].global.kernelStart = out[i].context.kernelStart = c.events[i]->start_ns;
            out[i].global.kernelEnd = out[i].context.kernelEnd = c.events[i]->end_ns;
        }
        break;
    }
    case command::kind::launch:
        run_launch(c);
        break;
    case command::kind::barrier:
    case command::kind::signal:
    case command::kind::wait:
    case command::kind::nothing:
        break;
    }
    if (c.signal_event) signal_event(c.signal_event, start, now_ns());
}

module_object::~module_object() {
    if (library) dlclose(library);
    if (memfd >= 0) close(memfd);
}

} // namespace encore_ze_driver

// The objects behind the test driver's handles: what a ze_*_handle_t points at. Not installed; tests only.
//
// One process-wide mutex and condition variable guard every event's state: event changes are rare next to the
// work they order, and one lock makes "wait until these events are signaled" a plain condition-variable wait.
// Command lists hold recorded commands (arguments captured at append time, as Level Zero specifies); a
// command queue and an immediate list each own a worker thread that runs commands in order, blocking on the
// events a command waits for, so events really order the work.
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "driver_counters.h"
#include "kernel_abi.h"

namespace encore_ze_driver {

// Each object starts with a tag so that a handle of the wrong type is refused instead of misread.
enum class tag : std::uint32_t {
    driver = 0x5a450001,
    device,
    context,
    queue,
    list,
    pool,
    event,
    fence,
    module,
    kernel,
    build_log,
    dead = 0xdeadbeef
};

struct object {
    explicit object(tag t) : kind(t) {}
    ~object() { kind = tag::dead; }
    tag kind;
};

template <typename T> T* as(void* handle) {
    auto* o = static_cast<object*>(handle);
    return (o && o->kind == T::type) ? static_cast<T*>(o) : nullptr;
}

struct driver_state;

struct device_object : object {
    static constexpr tag type = tag::device;
    device_object() : object(type) {}
};

struct driver_object : object {
    static constexpr tag type = tag::driver;
    driver_object() : object(type) {}
    device_object device;
};

struct context_object : object {
    static constexpr tag type = tag::context;
    context_object() : object(type) {}
    std::mutex mutex;
    std::map<std::uintptr_t, std::pair<std::size_t, ze_memory_type_t>> allocations; // start -> size, kind
};

struct event_pool_object;

struct event_object : object {
    static constexpr tag type = tag::event;
    event_object() : object(type) {}
    event_pool_object* pool = nullptr;
    std::uint32_t index = 0;
    // Under the global state mutex.
    bool signaled = false;
    std::uint64_t start_ns = 0, end_ns = 0; // of the command that signaled it
};

struct event_pool_object : object {
    static constexpr tag type = tag::pool;
    event_pool_object() : object(type) {}
    context_object* context = nullptr;
    ze_event_pool_flags_t flags = 0;
    std::vector<event_object*> slots; // index -> the live event there, or null
};

struct kernel_object;

// One recorded command.
struct command {
    enum class kind {
        barrier,
        copy,
        fill,
        signal,
        wait,
        reset,
        launch,
        timestamps,
        nothing
    } type = kind::nothing;
    std::vector<event_object*> waits;
    event_object* signal_event = nullptr;
    void* destination = nullptr;
    const void* source = nullptr;
    std::size_t bytes = 0;
    std::vector<unsigned char> pattern;
    // launch: the kernel's state when appended
    encore_ze_kernel_entry entry = nullptr;
    std::vector<std::vector<unsigned char>> arguments; // value bytes; empty + local size: local memory
    std::vector<std::size_t> local_sizes;
    std::array<std::uint32_t, 3> group_size{1, 1, 1};
    std::array<std::uint32_t, 3> group_count{1, 1, 1};
    // timestamps / reset: the events concerned
    std::vector<event_object*> events;
};

// A thread that runs batches of commands in order.
class worker {
public:
    worker();
    ~worker(); // finishes what was queued, then joins
    worker(const worker&) = delete;
    worker& operator=(const worker&) = delete;
    void post(std::function<void()> job);
    // Blocks until everything posted so far has run, or `timeout_ns` passed; true when it has run.
    bool drain(std::uint64_t timeout_ns);

private:
    void loop();
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::function<void()>> jobs_;
    std::uint64_t posted_ = 0, done_ = 0;
    bool stopping_ = false;
    std::thread thread_;
};

struct command_list_object : object {
    static constexpr tag type = tag::list;
    command_list_object() : object(type) {}
    context_object* context = nullptr;
    bool immediate = false;
    bool closed = false;
    std::vector<command> commands;           // regular lists
    std::atomic<std::uint32_t> in_flight{0}; // executions not finished yet (a reset must wait for none)
    std::unique_ptr<worker> runner;          // immediate lists
};

struct fence_object;

struct command_queue_object : object {
    static constexpr tag type = tag::queue;
    command_queue_object() : object(type) {}
    context_object* context = nullptr;
    std::unique_ptr<worker> runner;
};

struct fence_object : object {
    static constexpr tag type = tag::fence;
    fence_object() : object(type) {}
    command_queue_object* queue = nullptr;
    bool signaled = false; // under the global state mutex
};

struct module_object : object {
    static constexpr tag type = tag::module;
    module_object() : object(type) {}
    ~module_object();
    std::vector<std::uint8_t> binary;
    void* library = nullptr; // dlopen handle
    int memfd = -1;
    const encore_ze_kernel_table* table = nullptr;
};

struct kernel_object : object {
    static constexpr tag type = tag::kernel;
    kernel_object() : object(type) {}
    module_object* module = nullptr;
    const encore_ze_kernel_info* info = nullptr;
    std::vector<std::vector<unsigned char>> arguments;
    std::vector<std::size_t> local_sizes;
    std::vector<bool> set;
    std::array<std::uint32_t, 3> group_size{1, 1, 1};
};

struct build_log_object : object {
    static constexpr tag type = tag::build_log;
    build_log_object() : object(type) {}
    std::string text;
};

// Process-wide state.
struct driver_state {
    std::mutex mutex; // guards every event's and fence's state
    std::condition_variable changed;
    driver_object driver;
    bool initialized = false;
    std::mutex counters_mutex;
    encore_ze_driver_counters counters{};
};
driver_state& state();

void count(std::uint64_t encore_ze_driver_counters::*field, std::uint64_t by = 1);
std::uint64_t now_ns();

// Runs one command on the calling thread (a worker): waits for its events, does the work, signals.
void run_command(const command& c);
// Marks `e` signaled with the given times and wakes every waiter.
void signal_event(event_object* e, std::uint64_t start_ns, std::uint64_t end_ns);

} // namespace encore_ze_driver

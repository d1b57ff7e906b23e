// encore::level_zero::level_zero_event — the event of one piece of Level Zero work (an eager command, a graph
// launch), around a ze_event_handle_t from a pool; and what it needs: the pools, the watcher that turns
// completions into callbacks, and the translation of a wait list into ze events.
//
// Level Zero events have no completion callback, so on_complete hands the event to the backend's watcher
// thread, which polls the events it holds (zeEventQueryStatus) and calls their callbacks; waiting is
// zeEventHostSynchronize. Events come from event_pool, which creates ze events one at a time as more are live
// at once and hands back reset ones afterwards: a program in a steady state creates none. An event keeps what
// its work uses alive (the events it waited for, staging memory) until it is seen complete.
//
//     auto e = std::make_shared<level_zero_event>(ctx, pool.acquire(), profiling, std::move(keep));
//     e->on_complete([] { /* start dependent work */ });
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/level_zero/detail/api.hpp"

namespace encore::level_zero {

// Host-visible events of one context, created on demand in pools of 64; `timestamps` pools carry kernel
// timestamps.
class event_pool {
public:
    event_pool(const detail::api& ze, ze_context_handle_t context, bool timestamps);
    ~event_pool();
    event_pool(const event_pool&) = delete;
    event_pool& operator=(const event_pool&) = delete;

    // An event in the reset state.
    ze_event_handle_t acquire();
    // Resets `e` (zeEventHostReset) and keeps it for the next acquire.
    void release(ze_event_handle_t e) noexcept;
    bool timestamps() const noexcept { return timestamps_; }
    ze_context_handle_t context() const noexcept { return context_; }

private:
    static constexpr std::uint32_t pool_size = 64;
    const detail::api& ze_;
    ze_context_handle_t context_;
    const bool timestamps_;
    std::mutex mutex_;
    std::vector<detail::pool_handle> pools_;
    std::uint32_t used_in_last_ = pool_size; // events made from the newest pool
    std::vector<detail::event_handle> events_;
    std::vector<ze_event_handle_t> free_;
};

class level_zero_event;

// One thread that polls the events someone waits on with a callback and calls the callbacks.
class event_watcher {
public:
    event_watcher() = default;
    ~event_watcher();
    void watch(std::shared_ptr<level_zero_event> e, std::function<void()> callback);

private:
    void loop();
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::pair<std::shared_ptr<level_zero_event>, std::function<void()>>> pending_;
    bool stopping_ = false;
    std::thread thread_; // started by the first watch
};

// Where an event's profiling timestamps come from once it completed.
struct event_timing {
    std::uint64_t submit_ticks = 0; // device clock at submission (zeDeviceGetGlobalTimestamps)
    double ns_per_tick = 1.0;       // ze_device_properties_t::timerResolution
    // A graph launch: the suffix list copied its start and end events' kernel timestamps here (host memory).
    std::shared_ptr<ze_kernel_timestamp_result_t> launch_stamps;
};

class level_zero_event final : public backend_event, public std::enable_shared_from_this<level_zero_event> {
public:
    level_zero_event(const detail::api& ze, event_watcher& watcher, event_pool& pool, ze_event_handle_t e,
                     bool profiling, event_timing timing, std::vector<std::shared_ptr<void>> keep_alive);
    ~level_zero_event() override;
    level_zero_event(const level_zero_event&) = delete;
    level_zero_event& operator=(const level_zero_event&) = delete;

    event_status status() const noexcept override;
    void wait() override;
    void on_complete(std::function<void()> callback) override;
    bool has_profiling() const noexcept override { return profiling_; }
    profiling_timestamps timestamps() const override;

    ze_event_handle_t handle() const noexcept { return event_; }
    const event_pool& pool() const noexcept { return pool_; }

private:
    void completed() const noexcept; // drops what the work kept alive

    const detail::api& ze_;
    event_watcher& watcher_;
    event_pool& pool_;
    ze_event_handle_t event_;
    const bool profiling_;
    event_timing timing_;
    mutable std::atomic<bool> done_{false};
    mutable std::mutex keep_mutex_;
    mutable std::vector<std::shared_ptr<void>> keep_alive_;
};

// The ze events to wait for before work of one context: events of that context are waited on directly; events
// of other backends or contexts become events of this context that their on_complete callback signals from
// the host. Complete events are left out.
struct wait_events {
    std::vector<ze_event_handle_t> handles;
    std::vector<std::shared_ptr<void>> keep_alive; // the events waited on, for as long as the work needs them
};
wait_events collect_wait_events(const detail::api& ze, event_pool& pool,
                                std::span<const event_ptr> wait_list);

} // namespace encore::level_zero

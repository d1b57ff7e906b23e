// encore::gpu::gpu_event — the event of one piece of GPU work (a command or a graph launch), and the thread
// that tells callbacks when such events complete. Named below by CUDA's calls; HIP's are their namesakes.
//
// An event is first `deferred` (its work waits on the host for events of other backends), then `enqueued`: its
// work has its place in the device launcher's order (gpu_launcher.hpp) on a chosen stream, so later work of the
// device can wait for it on the GPU; then `launched`: the driver has the work. Its driver event is recorded right after
// the work, except for eager commands of an in-order queue:
// there it is recorded only when something asks for it (a wait, a status query, a callback, a wait from
// another stream), because in a stream of commands almost nobody asks, and a record per command would cost
// as much as the command. A record made later than its work also covers what was enqueued on that stream
// since (never anything that could depend on this event), so such an event may complete a little late, never
// early. Events of one stream are ordered by the stream; the queue turns waits between streams into
// cuStreamWaitEvent, never into a host round trip.
//
// on_complete callbacks run on the completion_watcher's thread, which polls the events it was given with
// cuEventQuery (spinning briefly, then sleeping 20 µs between rounds). They may call the driver (a deferred
// submission does), which callbacks of cuLaunchHostFunc may not.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <typeinfo>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/gpu/driver.hpp"

namespace encore::gpu {

class gpu_backend;
class gpu_event;

// One stream of a queue. Work reaches it only through the device's launcher, in the launcher's order;
// `mutex` orders the records of its events (from the launcher and from threads that ask for an event).
struct stream_state {
    ~stream_state(); // destroys the stream (the driver lets its pending work finish)
    driver* api = nullptr;
    const void* owner = nullptr; // the queue it belongs to
    gpu::driver_context context = nullptr;
    gpu::driver_stream stream = nullptr;
    std::shared_ptr<error_sink> errors; // the queue's: failures of work the launcher's thread enqueued
    std::mutex mutex;
    // Under the launcher's lock, in its order; written by every submission, so on a cache line of their own (the
    // launcher's thread reads the fields above for every task).
    alignas(64) std::weak_ptr<gpu_event> lazy_tail; // the last work's event, while its record is on demand
    std::atomic<const gpu_event*> last{nullptr};    // the event of the last work enqueued here
    // Records are numbered on their stream (under `mutex`); a record seen complete completes every record made
    // before it there, so `complete_through` (the highest such number) answers for all of them without a driver
    // call: an out-of-order queue's wait() over thousands of events synchronizes once per stream, not per event.
    std::uint64_t records = 0;
    std::atomic<std::uint64_t> complete_through{0};
};

// What profiling timestamps are measured against: an event recorded at queue creation and the host clock
// read right when it completed.
struct profiling_reference {
    driver* api = nullptr;
    gpu::driver_event event = nullptr;
    std::uint64_t host_ns = 0;
    ~profiling_reference();
};

class gpu_event final : public backend_event, public std::enable_shared_from_this<gpu_event> {
public:
    gpu_event(gpu_backend& backend, std::uint32_t device, std::shared_ptr<profiling_reference> profiling);
    ~gpu_event() override;

    event_status status() const noexcept override;
    void wait() override;
    void on_complete(std::function<void()> callback) override;
    bool has_profiling() const noexcept override { return reference_ != nullptr; }
    profiling_timestamps timestamps() const override;
    // Profiling, once complete, given `t` = timestamps(): the time on t's clock of `e`, an event with timing
    // recorded between this event's start and end on its stream (a timing node inside its graph launch,
    // gpu_graph_lowering.hpp). Measured from the start event, not the queue's reference: cuEventElapsedTime's
    // float keeps sub-microsecond steps over short spans only.
    std::uint64_t time_of(gpu::driver_event e, const profiling_timestamps& t) const;

    std::uint32_t device() const noexcept { return device_; }
    // The stream the work goes to; nullptr while deferred or when it never went anywhere.
    stream_state* stream() const noexcept { return is_enqueued() ? stream_.get() : nullptr; }
    // The work has its place on a stream (launched or not yet): later work of the device may wait for it there.
    bool is_enqueued() const noexcept {
        const state s = state_.load(std::memory_order_acquire);
        return s == state::enqueued || s == state::launched;
    }
    // Returns once the device's launcher has put the work on its stream (or it failed); the caller saw it
    // enqueued.
    void wait_launched();
    // True once someone saw the work, or later work of its stream, complete (cheap; false does not mean it is
    // still running).
    bool known_complete() const noexcept {
        if (done_.load(std::memory_order_acquire)) return true;
        const std::uint64_t number = record_number_.load(std::memory_order_acquire);
        return number != 0 && stream_->complete_through.load(std::memory_order_acquire) >= number;
    }
    const gpu_backend& owner() const noexcept { return backend_; }

    // --- for the queue, which owns the life cycle ---
    // Profiling: records the start event on `s` (its mutex held), right before the work.
    void record_start_locked(stream_state& s);
    // Records the completion event on `s` now unless it was; `s.mutex` held. Idempotent.
    void record_locked(stream_state& s);
    // The work has its place in the launcher's order on `s` (under the launcher's lock).
    void set_enqueued(std::shared_ptr<stream_state> s);
    // The same for an event nobody else has seen yet (a submission that did not wait on the host): nobody can
    // be waiting for the state, so no lock.
    void set_enqueued_unshared(std::shared_ptr<stream_state> s) noexcept {
        stream_ = std::move(s);
        state_.store(state::enqueued, std::memory_order_release);
    }
    // The driver has the work (and the record, if it was made right after it): waits and callbacks may go on.
    void set_launched();
    // The work never reached a stream (its error went to the queue's error_sink): the event completes.
    void set_failed() noexcept;
    // The recorded completion event (recording it now if it was not; locks the stream). Only once launched.
    gpu::driver_event recorded_handle();

private:
    enum class state : std::uint8_t { deferred, enqueued, launched, failed };
    void complete_known() const noexcept { done_.store(true, std::memory_order_release); }
    // The recorded work was seen complete on its stream: so was every record before it there.
    void completed_on_stream() const noexcept;
    // Under mutex_: moves to `next` and, when that ends the wait for the launch (launched, failed), takes the
    // callbacks registered meanwhile; then wakes wait() if anyone waits. Returns the callbacks taken.
    std::vector<std::function<void()>> move_to(state next);

    gpu_backend& backend_;
    const std::uint32_t device_;
    std::shared_ptr<profiling_reference> reference_;
    std::atomic<state> state_{state::deferred};
    mutable std::atomic<bool> done_{false};
    std::shared_ptr<stream_state> stream_;
    gpu::driver_event event_ = nullptr;       // recorded under stream_->mutex; from the backend's pool unless profiling
    gpu::driver_event start_event_ = nullptr; // profiling only
    bool recorded_ = false;         // under the stream's mutex
    // The record's number on its stream (stream_state::records), 0 until recorded; stream_ is set before it.
    std::atomic<std::uint64_t> record_number_{0};
    std::uint64_t submit_ns_ = 0;
    std::mutex mutex_; // state changes, and the callbacks registered before launched
    // wait() for an event not launched yet blocks on state_ itself (atomic wait/notify): no condition variable to
    // build and destroy per event. A state change notifies only when someone waits (waiters_, under mutex_):
    // libstdc++'s notify makes a futex call whenever any thread waits on an atomic of the same hash bucket.
    bool waiters_ = false;
    std::vector<std::function<void()>> pending_;
};

// `e` as a gpu_event, or nullptr when it is another backend's (or one of another GPU plugin's: the caller
// compares its owner). gpu_event is final, so comparing the dynamic
// type is exact; dynamic_cast would walk the hierarchy and compare type names across libraries (about 140
// instructions, once per wait on the eager path).
inline gpu_event* as_gpu_event(backend_event* e) noexcept {
    return e && typeid(*e) == typeid(gpu_event) ? static_cast<gpu_event*>(e) : nullptr;
}

// One thread per backend that runs on_complete callbacks of GPU events once their work is done.
class completion_watcher {
public:
    explicit completion_watcher(driver& api);
    ~completion_watcher();
    completion_watcher(const completion_watcher&) = delete;
    completion_watcher& operator=(const completion_watcher&) = delete;

    void watch(std::shared_ptr<gpu_event> e, gpu::driver_event handle, gpu::driver_context context, std::function<void()> callback);

private:
    struct item {
        std::shared_ptr<gpu_event> event;
        gpu::driver_event handle;
        gpu::driver_context context;
        std::function<void()> callback;
    };
    void run();

    driver& api_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<item> incoming_;
    bool stop_ = false;
    std::thread thread_;
};

} // namespace encore::gpu

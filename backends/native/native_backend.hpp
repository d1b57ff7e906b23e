// encore::native::native_backend — Encore's built-in CPU backend on oneTBB.
//
// One device: this machine's CPU. Every allocation, device, host or shared, is aligned host memory recorded
// in a table (so free() can refuse foreign pointers). Work runs in one task_arena with a worker per hardware
// thread, so a thread that submits work never has to join the arena; one more slot is kept for a thread that
// waits for a graph launch nobody has started yet and drives it itself (task_list.hpp). oneTBB sizes its
// worker pool for a main thread that joins in (hardware threads - 1), so the backend raises the process's
// max_allowed_parallelism by one (a tbb::global_control it holds) to get a worker per hardware thread.
//
//     auto backend = encore::native::make_backend();
//     void* p = backend->allocate(0, encore::memory_kind::shared, 4096, 64);
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include "encore/backends/backend.hpp"
#include "encore/backends/detail/trace_recorder.hpp"
#include "encore/backends/native/detail/kernel_costs.hpp"
#include "encore/backends/native/detail/launch_starter.hpp"
#include "encore/backends/native/detail/start_order.hpp"

namespace encore::native {

class native_backend final : public backend {
public:
    native_backend();
    ~native_backend() override;

    std::string_view name() const noexcept override { return "native"; }
    std::uint32_t device_count() const noexcept override { return 1; }
    const device_properties& properties(std::uint32_t device) const override;

    void* allocate(std::uint32_t device, memory_kind kind, std::size_t bytes, std::size_t alignment) override;
    void deallocate(std::uint32_t device, void* pointer) override;

    std::unique_ptr<backend_queue> create_queue(std::uint32_t device, const queue_properties& properties,
                                                std::shared_ptr<error_sink> errors) override;
    std::unique_ptr<backend_executable> lower(std::uint32_t device, const graph& g,
                                              const partition& p) override;

    tbb::task_arena& arena() noexcept { return arena_; }
    // Launches posted to the starter (or enqueued by it) that have not let go of their claim yet. Each one holds
    // what keeps its launch's claim and event alive; the destructor lets them finish instead of dropping them
    // with the arena. Shared, so that a task still running after a destructor that gave up waiting counts down
    // memory that is still there.
    const std::shared_ptr<std::atomic<std::size_t>>& enqueued_launches() const noexcept { return enqueued_launches_; }
    // Where a ready graph launch goes on a machine of more than 4 hardware threads: to the arena, unless a thread
    // waiting for it drives it first; null on smaller machines, where launches are enqueued to the arena at once.
    // The starter saves waking workers that find the launch claimed and spin (on 16 cores they slowed a
    // launch-and-wait loop by up to 25 % and burned 12x its CPU time) but pays a futex wake per launch, which
    // costs more than those spinning workers on 2 cores (a 1,000-node fan-out's replay: 56 -> 63-67 ns/node).
    detail::launch_starter* launch_starter() noexcept { return launch_starter_.get(); }
    // Eager commands not started yet, in submission order (detail/start_order.hpp).
    detail::start_order& start_order() noexcept { return start_order_; }
    // What kernels took, per kernel type: eager submission runs tiny ones inline (native_queue.cpp).
    detail::kernel_costs& kernel_costs() noexcept { return kernel_costs_; }
    // The device's track in `session` (runtime/profiler.hpp), for eager commands' slices; only while it records.
    std::uint32_t trace_process(encore::detail::trace_session& session);

private:
    void check_device(std::uint32_t device) const;

    device_properties properties_;
    tbb::global_control parallelism_;
    tbb::task_arena arena_;
    std::shared_ptr<std::atomic<std::size_t>> enqueued_launches_ = std::make_shared<std::atomic<std::size_t>>(0);
    std::unique_ptr<detail::launch_starter> launch_starter_; // after the arena: stopped before it goes
    detail::start_order start_order_;
    detail::kernel_costs kernel_costs_;
    std::mutex trace_mutex_; // the device's track in the trace it last recorded into
    encore::detail::trace_session* traced_in_ = nullptr;
    std::uint32_t trace_process_ = 0;
    std::mutex allocations_mutex_;
    std::unordered_map<void*, std::size_t> allocations_; // pointer -> bytes
};

std::unique_ptr<backend> make_backend();

} // namespace encore::native

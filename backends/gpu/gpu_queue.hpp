// encore::gpu::gpu_queue — eager submission on GPU streams (named below by CUDA's calls; HIP's are namesakes).
//
// A queue owns a few non-blocking streams of its device. An in-order queue puts its commands on its first
// stream, one after the other, and records each command's event only when something asks for it
// (gpu_event.hpp). An out-of-order queue spreads commands: a command goes to the stream whose last work is
// one of the events it waits for (a chain stays on one stream, no event needed), otherwise to the next stream
// in turn, and every event is recorded. Graph launches (gpu_graph_lowering.hpp) go through the same path,
// so the independent partitions of one launch run on different streams.
//
// Waits: an event of this backend's device that has its place on a stream becomes cuStreamWaitEvent on the GPU
// (nothing at all on the same stream); any other event (another backend's, a host task's, or one of ours whose
// work still waits on the host) defers the submission: it is put on a stream by the thread that completes the
// last of them (backend_event::on_complete), and its event says `submitted` until then. submit() does not wait
// for other work; it waits only while the device's launcher has 256 commands it has not made driver calls for.
//
// The driver calls themselves are made by the device's launcher (gpu_launcher.hpp): on this thread for a
// submission that comes alone, on the launcher's thread in bursts. submit() prepares the command first, so every
// refusal (a kernel without CUDA code, a wrong geometry, ...) throws from it either way.
//
//     auto q = backend.create_queue(0, {.in_order = true}, errors);
//     auto e = q->submit(encore::memset_command{p, 0, n}, {});
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/gpu/gpu_event.hpp"

namespace encore::gpu {

class gpu_backend;
class driver_command;

// Where a piece of work goes and how its event is recorded.
enum class placement : std::uint8_t {
    in_order_command, // the queue's first stream; event recorded on demand
    spread,           // a stream chosen by its wait list; event recorded right after the work
    graph_launch,     // like spread; also records the chosen stream's pending on-demand event first
};

class gpu_queue final : public backend_queue {
public:
    gpu_queue(gpu_backend& backend, std::uint32_t device, const queue_properties& properties,
               std::shared_ptr<error_sink> errors);
    ~gpu_queue() override;

    event_ptr submit(command c, std::span<const event_ptr> wait_list) override;
    event_ptr submit_kernel(const kernel_command& k, std::span<const event_ptr> wait_list) override;

    // Runs `work(stream)` on one of the queue's streams after `wait_list`, as `where` says, and returns the
    // event of the work. `work` may throw; when it runs deferred, what it throws goes to the error_sink.
    event_ptr run_after(std::function<void(gpu::driver_stream)> work, std::span<const event_ptr> wait_list, placement where);

    gpu_backend& owner() const noexcept;
    std::uint32_t device() const noexcept;
    bool profiling() const noexcept; // made with enable_profiling: its events have timestamps

private:
    struct core;
    event_ptr submit_prepared(driver_command d, std::span<const event_ptr> wait_list);

    std::shared_ptr<core> core_; // shared with deferred submissions, which may outlive nothing but this
};

// The queue of `backend` behind `q`, or encore::error(invalid_argument) naming `what` when `q` is another
// backend's.
gpu_queue& as_gpu_queue(backend_queue& q, const gpu_backend& backend, const char* what);

} // namespace encore::gpu

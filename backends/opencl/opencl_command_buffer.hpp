// encore::opencl::command_buffer_executable — one partition of a finalized graph lowered to one
// cl_khr_command_buffer.
//
// Lowering records every node in partition order (a topological order) into a command buffer of an
// executable's own queue (out-of-order where the device's command buffers allow it), each command waiting for
// the sync points of its predecessors inside the partition, and finalizes it once. Kernels:
// clCommandNDRangeKernelKHR with the arguments set on the shared cl_kernel (the recording captures them); USM
// copies and fills: the SVM commands from extension version 0.9.4 on, before that clCommandCopyBufferKHR /
// clCommandFillBufferKHR on the cl_mem view of the allocation (opencl_memory.hpp); memory the backend did not
// allocate (a copy's host side, encore::buffer storage) gets a CL_MEM_USE_HOST_PTR view of its own on devices
// with host-unified memory and is refused (feature_not_supported) elsewhere; prefetch, mem_advise, barrier
// and empty nodes become barriers on their predecessors (nothing when they have none). Each kernel node has a
// cl_kernel of its own (PoCL 3.1 reads the arguments of a recorded kernel when the buffer runs). A launch is
// one clEnqueueCommandBufferKHR after the wait list; the buffer is made for simultaneous use where the device
// allows it, since the runtime enqueues a launch while the previous one is pending; elsewhere a launch first
// waits for the previous one (host side). Which signatures the recording calls have is the device's reported
// extension version's business (opencl_command_buffer_api.hpp).
//
// A launch from a queue with profiling runs a second recording, made on first need on a queue with profiling,
// so that launches without it do not pay for timestamps.
//
// Update: where the device has cl_khr_command_buffer_mutable_dispatch with argument updates (SVM pointers),
// the command buffer is made mutable and each kernel node recorded with the fields the device can update
// (arguments, global size, local size, global offset); an update of a kernel node that keeps its kernel and
// its number of dimensions is one clUpdateMutableCommandsKHR (every argument, and the sizes). Anything else
// (another kernel, other dimensions, a field the device cannot update, a copy or fill, a device without the
// extension, ENCORE_OPENCL_MUTABLE_DISPATCH=0) marks the command buffer stale, and the next launch records it
// again from the graph's current commands, with a trace line (ENCORE_TRACE). The update itself checks the new
// command first, so a refused one changes nothing.
//
//     auto exec = backend.lower(0, g, parts.partitions[0]);
//     exec->launch(queue, {})->wait();
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/opencl/opencl_event.hpp"

namespace encore::opencl {

class opencl_backend;

class command_buffer_executable final : public backend_executable {
public:
    command_buffer_executable(opencl_backend& backend, std::uint32_t device, const graph& g,
                              const partition& p);
    ~command_buffer_executable() override;

    event_ptr launch(backend_queue& queue, std::span<const event_ptr> wait_list) override;
    void update(std::uint32_t node, const command& c) override;

private:
    // One recording of the partition, on a queue of its own.
    struct recording {
        std::shared_ptr<queue_link> link;
        cl_command_buffer_khr buffer = nullptr;
        std::vector<detail::mem_handle> host_views; // views of memory the backend did not allocate
        std::vector<detail::kernel_handle> kernels; // one per kernel node, its arguments set once
        std::vector<cl_mutable_command_khr> mutable_of; // per partition node: its mutable-dispatch handle, or null
        event_ptr last_launch; // without simultaneous use: the launch a new one waits for
        bool stale = false;
        std::string why_stale; // for the trace line of the recording again
        bool holds_nothing = false; // no command was recorded (a partition of empty nodes): launched as a marker
    };
    std::uint32_t local(std::uint32_t node) const;
    void record(recording& r);
    // Updates node `i`'s recorded kernel from `was` to `k` (null: not kernel commands) in place; empty when done,
    // else why mutable dispatch cannot (the recording is then made again).
    std::string update_in_place(recording& r, std::uint32_t i, const kernel_command* was, const kernel_command* k);
    void release(recording& r) noexcept;
    // The cl_mem holding [p, p + bytes) and p's offset in it.
    std::pair<cl_mem, std::size_t> view_for(recording& r, const void* p, std::size_t bytes, const char* what);

    opencl_backend& backend_;
    const std::uint32_t device_;
    const graph& graph_;         // borrowed for this object's life (backend.hpp)
    const partition& partition_; // likewise
    std::vector<std::pair<std::uint32_t, std::uint32_t>> local_of_; // (graph node, local index), sorted
    bool out_of_order_ = false; // the command buffer's queue (where the device's command buffers allow it)
    bool simultaneous_use_ = false; // CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR
    recording plain_;    // for queues without profiling: its queue has none (profiling costs PoCL 5-15 %)
    recording profiled_; // recorded on the first launch from a profiling queue
};

} // namespace encore::opencl

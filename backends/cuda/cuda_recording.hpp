// encore::cuda::cuda_recording — native recording on CUDA: a stream capture into a CUDA graph
// (backend_recording in backends/backend.hpp; the SYCL front end's property::graph::enable_native_recording).
//
// One stream of the device captures everything, in relaxed mode (other threads keep making any driver call).
// The dependencies of each command are given to the driver exactly: before a command is enqueued, the
// stream's capture dependency set is replaced by the nodes of the commands it waits for
// (cuStreamUpdateCaptureDependencies); after it, the set holds the command's own node
// (cuStreamGetCaptureInfo), which is what later commands wait for. So an out-of-order queue's independent
// commands become independent nodes, as in a lowered graph, without the fork and join events a multi-stream
// capture needs. Commands without work (barriers, empty commands, prefetches, advice) add no node: their
// dependents wait for what they waited for.
//
// end() closes the capture (cuStreamEndCapture); the CUDA graph is then a cuda_native_graph, which the
// lowering adds to a partition's CUDA graph as a child graph node (cuda_graph_lowering.cpp). A driver failure
// during capture invalidates the capture (CUDA's rule): the failing call throws, and so does every later one,
// naming it.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/cuda/detail/driver.hpp"

namespace encore::cuda {

class cuda_backend;

// A captured CUDA graph; what a native_graph_command of the cuda backend holds.
class cuda_native_graph final : public native_graph {
public:
    cuda_native_graph(detail::graph_handle graph, std::size_t commands, std::uint32_t device)
        : graph_(std::move(graph)), commands_(commands), device_(device) {}

    std::string_view backend() const noexcept override { return "cuda"; }
    std::size_t size() const noexcept override { return commands_; }
    std::uint32_t device() const noexcept { return device_; }

    // Adds the captured graph to `parent` as a child graph node (the driver clones it). Serialized: one CUDA
    // graph must not be read by two threads at once.
    CUgraphNode add_to(CUgraph parent, std::span<const CUgraphNode> dependencies) const;

private:
    detail::graph_handle graph_;
    std::size_t commands_;
    std::uint32_t device_;
    mutable std::mutex mutex_;
};

class cuda_recording final : public backend_recording {
public:
    cuda_recording(cuda_backend& backend, std::uint32_t device);
    ~cuda_recording() override;

    std::uint32_t capture(const command& c, std::span<const std::uint32_t> after) override;
    std::shared_ptr<const native_graph> end() override;

private:
    void require_usable() const;

    cuda_backend& backend_;
    const std::uint32_t device_;
    const CUcontext context_;
    detail::stream_handle stream_;
    bool capturing_ = false;
    std::string broken_; // the failure that invalidated the capture
    // Per captured command: the nodes a command that waits for it must depend on.
    std::vector<std::vector<CUgraphNode>> tails_;
};

} // namespace encore::cuda

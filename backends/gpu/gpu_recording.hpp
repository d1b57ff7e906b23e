// encore::gpu::gpu_recording — native recording on a GPU: a stream capture into a GPU graph (backend_recording
// in backends/backend.hpp; the SYCL front end's property::graph::enable_native_recording). Named below by
// CUDA's calls; HIP's are their namesakes.
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
// end() closes the capture (cuStreamEndCapture); the captured graph is then a gpu_native_graph, which the
// lowering adds to a partition's graph as a child graph node (gpu_graph_lowering.cpp). A driver failure
// during capture invalidates the capture (CUDA's rule): the failing call throws, and so does every later one,
// naming it.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/gpu/driver.hpp"

namespace encore::gpu {

class gpu_backend;

// A captured graph; what a native_graph_command of a GPU backend holds.
class gpu_native_graph final : public native_graph {
public:
    gpu_native_graph(std::string_view backend, graph_handle graph, std::size_t commands, std::uint32_t device,
                     std::vector<std::shared_ptr<void>> scratch = {})
        : backend_(backend), graph_(std::move(graph)), commands_(commands), device_(device),
          scratch_(std::move(scratch)) {}

    std::string_view backend() const noexcept override { return backend_; }
    std::size_t size() const noexcept override { return commands_; }
    std::uint32_t device() const noexcept { return device_; }

    // Adds the captured graph to `parent` as a child graph node (the driver clones it). Serialized: one graph
    // must not be read by two threads at once.
    driver_graph_node add_to(driver& d, driver_graph parent, std::span<const driver_graph_node> dependencies) const;

private:
    std::string_view backend_; // the driver's name (static storage)
    graph_handle graph_;
    std::size_t commands_;
    std::uint32_t device_;
    // The captured kernels' scratch (reductions): owned, not stream-ordered, so that the graph holds no memory
    // nodes (a child graph node cannot). Every instance of the graph uses the same: its launches must not overlap.
    std::vector<std::shared_ptr<void>> scratch_;
    mutable std::mutex mutex_;
};

class gpu_recording final : public backend_recording {
public:
    gpu_recording(gpu_backend& backend, std::uint32_t device);
    ~gpu_recording() override;

    std::uint32_t capture(const command& c, std::span<const std::uint32_t> after) override;
    std::shared_ptr<const native_graph> end() override;

private:
    void require_usable() const;

    gpu_backend& backend_;
    const std::uint32_t device_;
    driver& api_;
    const gpu::driver_context context_;
    stream_handle stream_;
    bool capturing_ = false;
    std::string broken_; // the failure that invalidated the capture
    // Per captured command: the nodes a command that waits for it must depend on.
    std::vector<std::vector<driver_graph_node>> tails_;
    std::vector<std::shared_ptr<void>> scratch_; // the captured kernels' (gpu_native_graph keeps them)
};

} // namespace encore::gpu

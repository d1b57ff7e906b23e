// encore::gpu::driver_command — one encore::command in the form a GPU driver (driver.hpp) runs it, eagerly on a
// stream (gpu_queue) or as a node of a GPU graph (gpu_graph_lowering). Named below by CUDA's calls; HIP's are
// their namesakes (hipModuleLaunchKernel, hipMemcpyAsync, ...).
//
// | command    | eagerly                                   | in a GPU graph                               |
// |------------|-------------------------------------------|----------------------------------------------|
// | kernel     | cuLaunchKernel                            | kernel node                                  |
// | memcpy     | cuMemcpyAsync (unified addresses)         | memcpy node (1-D, unified addresses)         |
// | memset     | cuMemsetD8Async; pinned host memory: the fill kernel | memset node; host memory: fill kernel node |
// | fill       | 1/2/4-byte aligned patterns: cuMemsetD8/16/32Async; wider ones (up to 256 bytes): the fill kernel | memset node / fill kernel node |
// | copy       | buffers (runtime-owned host storage): a host function doing memcpy (cuLaunchHostFunc) | host node |
// | prefetch   | shared memory: cuMemPrefetchAsync to the device; other memory: nothing (a hint) | empty node: graphs have no prefetch node, and a prefetch changes no result |
// | mem_advise | shared memory: cuMemAdvise (CUmem_advise values) when submitted; others ignored | applied once when lowered (advice is a property of the memory, not an operation in stream order), then an empty node |
// | barrier, empty | nothing but the ordering                | empty node                                   |
// | native_graph | refused (feature_not_supported): it runs as a node of a graph | child graph node (gpu_recording.hpp) |
// Host tasks and subgraphs never get here (the runtime runs and inlines them).
//
//     auto d = driver_command::from(backend, 0, encore::memset_command{p, 0, n});
//     d.enqueue(driver, stream, 0);
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "encore/backends/gpu/driver.hpp"
#include "encore/backends/gpu/gpu_kernel_launch.hpp"
#include "encore/graph/command.hpp"

namespace encore::gpu {

class gpu_backend;
class gpu_native_graph;

// A copy between encore::buffers, run by a host function in stream order.
struct host_copy {
    std::shared_ptr<memory_object> source, destination;
    std::size_t source_offset = 0, destination_offset = 0, bytes = 0;
    static void run(void* self);      // the copy (graph host nodes: the node owns it)
    static void run_once(void* self); // the copy, then deletes `self` (eager)
};

class driver_command {
public:
    enum class form : std::uint8_t { kernel, memcpy, memset, host_copy, prefetch, advise, nothing, child_graph };

    // Throws encore::error: kernel_not_supported for a kernel without code for the API, feature_not_supported for
    // what else the GPU cannot run (a copy between memory objects that are not buffers, ...), invalid_argument for host
    // tasks and subgraphs.
    static driver_command from(gpu_backend& backend, std::uint32_t device, const command& c, bool in_graph);
    // A kernel command (the same as from() of a command holding it).
    static driver_command from(gpu_backend& backend, std::uint32_t device, const kernel_command& k);

    form how() const noexcept { return form_; }
    // `device`: the device's ordinal (prefetches go there).
    void enqueue(driver& d, driver_stream s, std::uint32_t device);
    driver_graph_node add_to(driver& d, driver_graph g, std::span<const driver_graph_node> dependencies,
                             driver_context c);
    // Gives `node` (made by add_to from a command of the same form) this command's parameters: in the template
    // graph, and in `exec` (when not null) for kernels. False when the driver refuses, and always for child
    // graphs (a template graph cannot have its child replaced: the executable is rebuilt).
    bool set_in(driver& d, driver_graph_node node, driver_graph_exec exec, driver_context c);
    // A graph node's kernel scratch (gpu_kernel_launch.hpp), made by add_to / set_in: whoever keeps the node
    // keeps this.
    std::shared_ptr<void> scratch() const noexcept { return launch_.owned_scratch; }
    // A kernel with memsets before it or its finishing launch after it: several graph nodes, of which add_to returns
    // the last (set_in cannot update such a group: the graph is rebuilt).
    bool several_nodes() const noexcept {
        return form_ == form::kernel && (launch_.finisher != nullptr || !launch_.zero_first.empty());
    }

    // Gives a kernel with scratch its own, zeroed (a graph node's; add_to and set_in call it), and returns it;
    // null for other commands. enqueue then launches with it instead of stream-ordered memory (a capture).
    std::shared_ptr<void> own_scratch(driver& d, driver_context c);

private:
    form form_ = form::nothing;
    kernel_launch launch_;
    memcpy_params copy_;   // memcpy only
    memset_params memset_; // memset only
    std::unique_ptr<host_copy> host_copy_;
    std::shared_ptr<const gpu_native_graph> child_; // child_graph
    const void* pointer_ = nullptr; // prefetch / advise
    std::size_t bytes_ = 0; // prefetch / advise
};

} // namespace encore::gpu

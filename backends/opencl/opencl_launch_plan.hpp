// encore::opencl::launch_plan_executable — one partition of a finalized graph replayed with plain enqueues,
// for devices without cl_khr_command_buffer (NVIDIA's OpenCL) or with it turned off
// (ENCORE_OPENCL_COMMAND_BUFFERS=0).
//
// Everything a launch needs is built once at finalize: one step per node, in partition order (a topological
// order), each kernel step with a cl_kernel of its own whose arguments are set once, and an in-order queue of
// the executable's own. On that queue the partition order is the dependency order, so no step needs an event
// or a wait list: a launch enqueues the first step after the launch's wait list, the rest back to back, asks
// only the last for an event, and flushes once. No allocation per node. Independent branches do not overlap
// (they would need an event per edge); on a device that runs one small kernel at a time that costs nothing.
//
// Update: the node's step is built again from the new command (a kernel step sets its arguments again),
// before the next launch; a refused command changes nothing.
//
//     auto exec = backend.lower(0, g, parts.partitions[0]);   // a launch_plan_executable on NVIDIA's OpenCL
//     exec->launch(queue, {})->wait();
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/opencl/opencl_commands.hpp"
#include "encore/backends/opencl/opencl_event.hpp"

namespace encore::opencl {

class opencl_backend;

class launch_plan_executable final : public backend_executable {
public:
    launch_plan_executable(opencl_backend& backend, std::uint32_t device, const graph& g, const partition& p);

    event_ptr launch(backend_queue& queue, std::span<const event_ptr> wait_list) override;
    void update(std::uint32_t node, const command& c) override;

private:
    enum class form : std::uint8_t { nothing, kernel, memcpy, fill };
    struct step {
        form how = form::nothing;
        detail::kernel_handle kernel;
        launch_geometry geometry;
        void* destination = nullptr;
        const void* source = nullptr;
        std::size_t bytes = 0;
        std::array<std::byte, max_fill_pattern> pattern{};
        std::size_t pattern_bytes = 0;
    };
    step prepare(const command& c);
    cl_int enqueue(cl_command_queue q, const step& s, cl_uint waits, const cl_event* wait_list,
                   cl_event* event) const;
    void find_last();

    opencl_backend& backend_;
    const std::uint32_t device_;
    const partition& partition_; // borrowed for this object's life (backend.hpp)
    std::vector<std::pair<std::uint32_t, std::uint32_t>> local_of_; // (graph node, local index), sorted
    std::vector<step> steps_;                                       // partition order
    std::size_t first_ = 0, last_ = 0;                              // work steps; first_ > last_: none
    std::shared_ptr<queue_link> plain_;    // the in-order queue of launches from queues without profiling
    std::shared_ptr<queue_link> profiled_; // and with it, made on first need (profiling costs PoCL 5-15 %)
};

} // namespace encore::opencl

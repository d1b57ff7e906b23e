// encore::gpu::gpu_executable — one partition of a finalized graph lowered to one GPU graph (a CUDA graph, a HIP
// graph: the calls are named below by CUDA's names; HIP's are their namesakes).
//
// Lowering adds one node per command (driver_command: kernel, memcpy, memset, host and empty nodes), an edge
// for every dependency between two nodes of the partition, and instantiates the graph once. A launch is one
// cuGraphLaunch on a stream of the launching queue, after its wait list (cuStreamWaitEvent for CUDA events,
// gpu_queue.hpp), and answers with the event recorded after it.
//
// Update: a kernel node gets its new arguments and range with cuGraphExecKernelNodeSetParams (and the template
// node too, so both stay alike). Other nodes are changed in the template graph, and the next launch brings the
// executable graph up to date with one cuGraphExecUpdate for all of them. When a command changes form (a fill
// whose new pattern needs the fill kernel instead of a memset node) the template is rebuilt; when the driver
// refuses the update, the graph is instantiated again — and the trace (ENCORE_TRACE) says so, with the reason.
//
// Memory: what a node keeps after lowering is its graph node and its form (9 bytes); the commands stay in
// the runtime's graph, which outlives this object and holds each node's current command (backend.hpp), and a
// rebuild lowers them from there again. Only host-copy nodes keep their driver_command: the host node
// points into it. (Keeping every driver_command, 824 bytes each, made finalizing a chain of 10,000 kernels
// write 8 MB of fresh memory; its page faults were most of the time.)
//
// Under a trace (docs/profiling.md), a launch from a queue made with profiling runs a second lowering of the
// partition instead (built at the first such launch, dropped by an update): an event-record node before and after
// each node, and each successor waiting for the record after its predecessor, so that a node's slice lies after
// its predecessors' and before its successors'. Each traced launch takes a set of events of its own from a pool
// and points the record nodes at it (cuGraphExecEventRecordNodeSetEvent, on the launcher's thread right before
// its cuGraphLaunch), so launches in flight never share events; once the launch completes, its times are read
// (cuEventElapsedTime from the launch's start event), one slice per node is recorded, and the set goes back to
// the pool. Untraced launches never touch any of it.
//
//     auto exec = backend.lower(0, g, parts.partitions[0]);
//     exec->launch(queue, {})->wait();
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/detail/trace_recorder.hpp"
#include "encore/backends/gpu/gpu_commands.hpp"
#include "encore/backends/gpu/driver.hpp"

namespace encore::gpu {

class gpu_backend;
class gpu_queue;

class gpu_executable final : public backend_executable {
public:
    gpu_executable(gpu_backend& backend, std::uint32_t device, const graph& g, const partition& p);
    ~gpu_executable() override;

    event_ptr launch(backend_queue& queue, std::span<const event_ptr> wait_list) override;
    void update(std::uint32_t node, const command& c) override;

private:
    enum class pending : std::uint8_t { none, exec_update, rebuild };
    // One lowering of the partition into a graph of the driver's.
    struct lowered_graph {
        explicit lowered_graph(driver& api) : graph(api) {}
        graph_handle graph;
        std::vector<driver_command::form> forms;                            // partition order
        std::vector<driver_graph_node> nodes;                               // in `graph`
        std::vector<std::pair<std::uint32_t, driver_command>> host_copies; // (local index, its command), sorted
        std::vector<std::shared_ptr<void>> scratch; // per local index: its kernel's scratch (reductions), or null
        // Per local index: a kernel with memsets or a finishing launch (updates rebuild).
        std::vector<bool> several_nodes;
        // The timed form: per local index i, the record nodes before (2i) and after (2i+1) it.
        std::vector<driver_graph_node> records;
    };
    struct timed_graph;
    struct event_set;

    std::uint32_t local(std::uint32_t node) const;
    // Lowers every node from graph_ (its current commands). With `timing_events` (two per node), the timed form.
    lowered_graph lower(const std::vector<event_handle>* timing_events) const;
    void build_template();
    void instantiate();
    void bring_up_to_date();
    event_ptr launch_timed(gpu_queue& q, std::span<const event_ptr> wait_list,
                           const encore::detail::trace_launch_label& label);

    gpu_backend& backend_;
    const std::uint32_t device_;
    driver& api_;
    const gpu::driver_context context_;
    const graph& graph_;                                            // borrowed for this object's life
    const partition& partition_;                                    // likewise
    std::vector<std::pair<std::uint32_t, std::uint32_t>> local_of_; // (graph node, local index), sorted
    lowered_graph template_;
    graph_exec_handle exec_;
    pending pending_ = pending::none;
    std::shared_ptr<timed_graph> timed_; // traced launches only; shared with their completion callbacks
};

} // namespace encore::gpu

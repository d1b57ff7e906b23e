// encore::executable_graph — a graph finalized for one device: ready to be launched again and again.
//
// Finalizing snapshots the graph (later changes to it do not reach the executable graph), inlines its
// subgraphs, orders it topologically, cuts it into partitions around its host tasks
// (partitioner/partition.hpp) and has the device's backend lower every device partition once (the native
// backend builds a task list; CUDA would build a cudaGraphExec_t). A launch then only starts work: each
// device partition after the partitions it depends on, each host task on a host thread. The launch's event
// completes when every partition tail has; independent branches (two host tasks in two branches, say) run
// concurrently. Launches of one executable graph are ordered: a launch starts after the previous launch has
// completed, and after the events it is given.
//
// Update (SYCL's node update and whole-graph update): update() replaces the command of a node by one of the
// same kind, for every later launch; for kernels that means new arguments and a new range (same kernel name,
// same number of dimensions). update(const graph&) takes every command from a graph of the same topology
// (encore::require_same_topology). An update waits for the launch in flight, if any, to complete before it
// changes anything, so a running launch never sees half an update.
//
//     encore::graph g;
//     auto a = g.add(encore::kernel_command{k, {encore::kernel_argument::from_pointer(x)},
//     encore::range(n)}); g.add(encore::host_task_command{[] { std::puts("done"); }}, {a});
//     encore::executable_graph exec(g, q.get_device());
//     for (int i = 0; i < 100; ++i) q.launch(exec);
//     exec.update_arguments(a, {encore::kernel_argument::from_pointer(y)});
//     q.launch(exec).wait();
//
// Multi-device graphs (an Encore extension; docs/multi-device.md): finalized for a list of devices of one
// backend, node n runs on devices[g.device_slot(n)]. The graph is cut where an edge goes from one device to
// another, as around host tasks; each device's partitions are lowered for that device, and a cross-device edge
// becomes a wait for the other device's event (CUDA: cuStreamWaitEvent, no host round trip). A launch goes on
// a queue of any of the devices: that device's partitions run on the queue, the others on in-order queues the
// executable graph keeps per device. Copies between devices are ordinary memcpy nodes (peer copies on CUDA).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/runtime/device.hpp"
#include "encore/graph/graph.hpp"
#include "encore/graph/topological_order.hpp"
#include "encore/partitioner/partition.hpp"

namespace encore {

namespace detail {
struct queue_state;
}

struct finalize_options {
    order_strategy order = order_strategy::reverse_depth_first;
    std::optional<partition_strategy> partitioning; // the partitioner's default when empty
};

class executable_graph {
public:
    executable_graph(const graph& g, const device& d, finalize_options options = {});
    // Multi-device: node n runs on devices[g.device_slot(n)]. Throws invalid_argument for an empty list, devices
    // of several backends, a device listed twice, or a node whose slot has no device.
    executable_graph(const graph& g, std::vector<device> devices, finalize_options options = {});
    ~executable_graph(); // waits for the last launch
    executable_graph(executable_graph&&) noexcept;
    executable_graph& operator=(executable_graph&&) noexcept;
    executable_graph(const executable_graph&) = delete;
    executable_graph& operator=(const executable_graph&) = delete;

    const device& get_device() const noexcept; // the first of devices()
    const std::vector<device>& devices() const noexcept;
    std::size_t size() const noexcept; // nodes of the finalized graph, subgraphs inlined
    const partitioning& partitions() const noexcept;

    // `n` is a node of the graph this was finalized from. Throws foreign_node / unknown_node for other
    // handles, invalid_argument for a command of another kind, another kernel, another number of dimensions
    // or an invalid command.
    void update(node n, command c);
    // Like update(), but a kernel node may get another kernel and a range of other dimensions (SYCL's dynamic
    // command groups swap whole command groups).
    void replace(node n, command c);
    void update_arguments(node n, std::vector<kernel_argument> arguments);
    void update_range(node n, const nd_range& range);
    // Takes every command of `g`; throws topology_mismatch when `g`'s shape differs from the finalized
    // graph's. All or nothing: when the backend refuses one command (errc::kernel_not_supported, ...), no node
    // changes.
    void update(const graph& g);

    // For encore::queue::launch: starts one launch after `wait_list`. The queue's device must be one of
    // devices() (invalid_argument otherwise).
    event_ptr launch(detail::queue_state& q, std::vector<event_ptr> wait_list);

private:
    void update_node(node n, command c, bool same_kernel);
    struct impl;
    std::unique_ptr<impl> impl_;
};

inline executable_graph finalize(const graph& g, const device& d, finalize_options options = {}) {
    return executable_graph(g, d, options);
}

} // namespace encore

// Encore's SYCL extension for graphs over several devices (docs/multi-device.md).
//
// sycl_ext_oneapi_graph ties a command_graph to one device. A graph made with
// property::graph::multi_device may hold nodes of several devices of the same backend and context: a node
// runs on the device of the queue that recorded it, or, added explicitly, on the device named by
// property::node::device (the graph's own device otherwise). One ext_oneapi_graph launch, on a queue of any of
// those devices, replays the whole graph: each device runs its nodes, an edge between nodes of two devices is
// an event the later device waits for (on CUDA inside the GPU, cuStreamWaitEvent), and a memcpy between memory
// of two devices is a peer copy.
//
//     namespace sycl_encore = sycl::ext::encore;
//     sycl::queue q0{gpus[0]}, q1{ctx, gpus[1]};
//     sycl::ext::oneapi::experimental::command_graph g{ctx, gpus[0], {sycl_encore::property::graph::multi_device{}}};
//     g.begin_recording({q0, q1});
//     auto a = q0.parallel_for(n, [=](sycl::id<1> i) { x0[i] += 1; });
//     auto b = q1.parallel_for(n, [=](sycl::id<1> i) { x1[i] += 1; });
//     q1.memcpy(x1, x0, 64 * sizeof(float), {a, b});             // a peer copy, after both kernels
//     g.end_recording();
//     auto exec = g.finalize();
//     q0.ext_oneapi_graph(exec).wait();
#pragma once

#include "sycl/device.hpp"
#include "sycl/property_list.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::encore::property {

namespace graph {
// The graph may hold nodes of several devices of its backend and context (without it, recording from a queue
// of another device throws errc::invalid, as the specification says).
struct multi_device {};
} // namespace graph

namespace node {
// add(): the node runs on this device (the graph needs property::graph::multi_device unless it is the graph's
// own device).
class device {
public:
    explicit device(const sycl::device& d) : device_(d) {}
    const sycl::device& get_device() const noexcept { return device_; }

private:
    sycl::device device_;
};
} // namespace node

} // namespace ext::encore::property

template <> struct is_property<ext::encore::property::graph::multi_device> : std::true_type {};
template <> struct is_property<ext::encore::property::node::device> : std::true_type {};

} // namespace _V1
} // namespace sycl

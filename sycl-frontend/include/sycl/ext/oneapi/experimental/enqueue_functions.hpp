// sycl_ext_oneapi_enqueue_functions: free functions that submit one command, to a queue or inside a command group,
// without returning an event (submit_with_event does). Each queue form is one queue::submit, so the functions
// record into a graph like any submission, and in-order queues order them.
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     syclex::parallel_for(q, sycl::range<1>{n}, [=](sycl::id<1> i) { out[i] = 2 * in[i]; });
//     syclex::memcpy(q, host, out, n * sizeof(float));
//     syclex::barrier(q);
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "sycl/ext/oneapi/experimental/graph.hpp"
#include "sycl/ext/oneapi/properties/properties.hpp"
#include "sycl/handler.hpp"
#include "sycl/queue.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

// A range or nd_range and launch properties: the kernel properties Encore takes (work_group_size,
// work_group_size_hint, sub_group_size, device_has: sycl/ext/oneapi/kernel_properties/properties.hpp), applied to the
// launch as handler::parallel_for applies them.
template <typename Range, typename Properties = empty_properties_t> class launch_config {
public:
    launch_config(Range r, Properties props = {}) : range_(r), properties_(props) {}
    const Range& ext_encore_range() const noexcept { return range_; }
    const Properties& ext_encore_properties() const noexcept { return properties_; }

private:
    Range range_;
    Properties properties_;
};

template <typename CommandGroupFunc> void submit(queue q, CommandGroupFunc&& cgf) {
    q.submit(std::forward<CommandGroupFunc>(cgf));
}
template <typename CommandGroupFunc> event submit_with_event(queue q, CommandGroupFunc&& cgf) {
    return q.submit(std::forward<CommandGroupFunc>(cgf));
}

// Kernels: lambdas and functors (with reductions), or kernel objects with their arguments.
template <typename KernelName = sycl::detail::auto_name, typename KernelType>
void single_task(handler& h, const KernelType& k) {
    h.single_task<KernelName>(k);
}
template <typename KernelName = sycl::detail::auto_name, typename KernelType>
void single_task(queue q, const KernelType& k) {
    q.submit([&](handler& h) { h.single_task<KernelName>(k); });
}
template <typename... Args> void single_task(handler& h, const kernel& k, Args&&... args) {
    if constexpr (sizeof...(Args) > 0) h.set_args(std::forward<Args>(args)...);
    h.single_task(k);
}
template <typename... Args> void single_task(queue q, const kernel& k, Args&&... args) {
    q.submit([&](handler& h) { single_task(h, k, std::forward<Args>(args)...); });
}

template <typename KernelName = sycl::detail::auto_name, int D, typename KernelType, typename... Reductions>
void parallel_for(handler& h, range<D> r, const KernelType& k, Reductions&&... reductions) {
    if constexpr (std::is_same_v<KernelType, kernel>)
        h.parallel_for(r, k);
    else
        h.parallel_for<KernelName>(r, std::forward<Reductions>(reductions)..., k);
}
template <typename KernelName = sycl::detail::auto_name, int D, typename KernelType, typename... Reductions>
void parallel_for(queue q, range<D> r, const KernelType& k, Reductions&&... reductions) {
    q.submit([&](handler& h) { parallel_for<KernelName>(h, r, k, std::forward<Reductions>(reductions)...); });
}
template <typename KernelName = sycl::detail::auto_name, int D, typename Properties, typename KernelType,
          typename... Reductions>
void parallel_for(handler& h, launch_config<range<D>, Properties> config, const KernelType& k,
                  Reductions&&... reductions) {
    h.parallel_for<KernelName>(config.ext_encore_range(), config.ext_encore_properties(),
                               std::forward<Reductions>(reductions)..., k);
}
template <typename KernelName = sycl::detail::auto_name, int D, typename Properties, typename KernelType,
          typename... Reductions>
void parallel_for(queue q, launch_config<range<D>, Properties> config, const KernelType& k,
                  Reductions&&... reductions) {
    q.submit([&](handler& h) { parallel_for<KernelName>(h, config, k, std::forward<Reductions>(reductions)...); });
}
template <int D, typename... Args> void parallel_for(handler& h, range<D> r, const kernel& k, Args&&... args) {
    if constexpr (sizeof...(Args) > 0) h.set_args(std::forward<Args>(args)...);
    h.parallel_for(r, k);
}
template <int D, typename... Args> void parallel_for(queue q, range<D> r, const kernel& k, Args&&... args) {
    q.submit([&](handler& h) { parallel_for(h, r, k, std::forward<Args>(args)...); });
}

template <typename KernelName = sycl::detail::auto_name, int D, typename KernelType, typename... Reductions>
void nd_launch(handler& h, nd_range<D> r, const KernelType& k, Reductions&&... reductions) {
    if constexpr (std::is_same_v<KernelType, kernel>)
        h.parallel_for(r, k);
    else
        h.parallel_for<KernelName>(r, std::forward<Reductions>(reductions)..., k);
}
template <typename KernelName = sycl::detail::auto_name, int D, typename KernelType, typename... Reductions>
void nd_launch(queue q, nd_range<D> r, const KernelType& k, Reductions&&... reductions) {
    q.submit([&](handler& h) { nd_launch<KernelName>(h, r, k, std::forward<Reductions>(reductions)...); });
}
template <typename KernelName = sycl::detail::auto_name, int D, typename Properties, typename KernelType,
          typename... Reductions>
void nd_launch(handler& h, launch_config<nd_range<D>, Properties> config, const KernelType& k,
               Reductions&&... reductions) {
    h.parallel_for<KernelName>(config.ext_encore_range(), config.ext_encore_properties(),
                               std::forward<Reductions>(reductions)..., k);
}
template <typename KernelName = sycl::detail::auto_name, int D, typename Properties, typename KernelType,
          typename... Reductions>
void nd_launch(queue q, launch_config<nd_range<D>, Properties> config, const KernelType& k,
               Reductions&&... reductions) {
    q.submit([&](handler& h) { nd_launch<KernelName>(h, config, k, std::forward<Reductions>(reductions)...); });
}
// A kernel object with launch properties (work_group_scratch_size, work_group_size...).
template <int D, typename Properties, typename... Args>
void nd_launch(handler& h, launch_config<nd_range<D>, Properties> config, const kernel& k, Args&&... args) {
    if constexpr (sizeof...(Args) > 0) h.set_args(std::forward<Args>(args)...);
    h.parallel_for(config.ext_encore_range(), config.ext_encore_properties(), k);
}
template <int D, typename Properties, typename... Args>
void nd_launch(queue q, launch_config<nd_range<D>, Properties> config, const kernel& k, Args&&... args) {
    q.submit([&](handler& h) { nd_launch(h, config, k, std::forward<Args>(args)...); });
}
template <int D, typename... Args> void nd_launch(handler& h, nd_range<D> r, const kernel& k, Args&&... args) {
    if constexpr (sizeof...(Args) > 0) h.set_args(std::forward<Args>(args)...);
    h.parallel_for(r, k);
}
template <int D, typename... Args> void nd_launch(queue q, nd_range<D> r, const kernel& k, Args&&... args) {
    q.submit([&](handler& h) { nd_launch(h, r, k, std::forward<Args>(args)...); });
}

// USM.
inline void memcpy(handler& h, void* destination, const void* source, std::size_t bytes) {
    h.memcpy(destination, source, bytes);
}
inline void memcpy(queue q, void* destination, const void* source, std::size_t bytes) {
    q.submit([&](handler& h) { h.memcpy(destination, source, bytes); });
}
template <typename T> void copy(handler& h, const T* source, T* destination, std::size_t count) {
    h.copy(source, destination, count);
}
template <typename T> void copy(queue q, const T* source, T* destination, std::size_t count) {
    q.submit([&](handler& h) { h.copy(source, destination, count); });
}
inline void memset(handler& h, void* pointer, int value, std::size_t bytes) { h.memset(pointer, value, bytes); }
inline void memset(queue q, void* pointer, int value, std::size_t bytes) {
    q.submit([&](handler& h) { h.memset(pointer, value, bytes); });
}
template <typename T> void fill(handler& h, T* pointer, const T& pattern, std::size_t count) {
    h.fill(pointer, pattern, count);
}
template <typename T> void fill(queue q, T* pointer, const T& pattern, std::size_t count) {
    q.submit([&](handler& h) { h.fill(pointer, pattern, count); });
}
inline void prefetch(handler& h, void* pointer, std::size_t bytes) { h.prefetch(pointer, bytes); }
inline void prefetch(queue q, void* pointer, std::size_t bytes) {
    q.submit([&](handler& h) { h.prefetch(pointer, bytes); });
}
inline void mem_advise(handler& h, void* pointer, std::size_t bytes, int advice) {
    h.mem_advise(pointer, bytes, advice);
}
inline void mem_advise(queue q, void* pointer, std::size_t bytes, int advice) {
    q.submit([&](handler& h) { h.mem_advise(pointer, bytes, advice); });
}

// Barriers: after everything submitted before (barrier), or after `events` (partial_barrier).
inline void barrier(handler& h) { h.ext_oneapi_barrier(); }
inline void barrier(queue q) {
    q.submit([](handler& h) { h.ext_oneapi_barrier(); });
}
inline void partial_barrier(handler& h, const std::vector<event>& events) { h.ext_oneapi_barrier(events); }
inline void partial_barrier(queue q, const std::vector<event>& events) {
    q.submit([&](handler& h) { h.ext_oneapi_barrier(events); });
}

// sycl_ext_oneapi_graph's enqueue function: a launch of an executable graph.
inline void execute_graph(handler& h, command_graph<graph_state::executable>& g) { h.ext_oneapi_graph(g); }
inline void execute_graph(queue q, command_graph<graph_state::executable>& g) {
    q.submit([&](handler& h) { h.ext_oneapi_graph(g); });
}

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

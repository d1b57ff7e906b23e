// sycl_ext_oneapi_async_memory_alloc: allocations and frees ordered like commands.
//
// async_malloc returns the pointer at once; commands ordered after the allocation's command group (an
// in-order queue's next commands, or commands depending on its event) may use it. async_free gives the memory
// back once the commands ordered before it have completed. The queue forms submit one command group; the
// handler forms make the command group they are called in the allocation (or the free): such a command group
// holds nothing else.
//
// In a graph (explicit add, or a recording queue) the allocation is graph-owned (sycl_ext_oneapi_graph,
// "Graph-Owned Memory Allocations"; docs/sycl-graph.md): the command group is a node_type::async_malloc node,
// async_free of that pointer a node_type::async_free node, and the memory lives as long as the graph and its
// executable graphs (command_graph<executable>::get_required_mem_size says how much).
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     sycl::queue q{sycl::property::queue::in_order{}};
//     int* p = static_cast<int*>(syclex::async_malloc(q, sycl::usm::alloc::device, 1024 * sizeof(int)));
//     q.fill(p, 1, 1024);
//     syclex::async_free(q, p);
#pragma once

#include <cstddef>

#include "sycl/ext/oneapi/experimental/async_alloc/memory_pool.hpp"
#include "sycl/handler.hpp"
#include "sycl/queue.hpp"
#include "sycl/usm.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

// Throws errc::invalid for usm::alloc::unknown, errc::memory_allocation when the device has no room.
void* async_malloc(const queue& q, usm::alloc kind, std::size_t bytes);
void* async_malloc(handler& h, usm::alloc kind, std::size_t bytes);
// From `pool`, which must be of the queue's (handler's) device and context (errc::invalid otherwise).
void* async_malloc_from_pool(const queue& q, std::size_t bytes, const memory_pool& pool);
void* async_malloc_from_pool(handler& h, std::size_t bytes, const memory_pool& pool);
// `pointer` must come from async_malloc (errc::invalid otherwise; nullptr is ignored).
void async_free(const queue& q, void* pointer);
void async_free(handler& h, void* pointer);

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

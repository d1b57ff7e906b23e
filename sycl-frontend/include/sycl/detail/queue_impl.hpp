// What the copies of one sycl::queue share. Not for you: use sycl::queue.
#pragma once

#include <memory>
#include <mutex>
#include <span>

#include "encore/runtime/queue.hpp"
#include "sycl/device.hpp"
#include "sycl/event.hpp"
#include "sycl/handler.hpp"
#include "sycl/property_list.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

// One requirement per buffer: a command group that names a buffer through several accessors waits and counts as
// the strongest of them.
requirement_vector merge_requirements(std::span<const requirement> requirements);
// The buffers of `requirements`, in order.
std::vector<buffer_state*> buffers_of(std::span<const requirement> requirements);
// `v` (a small_vector, whose iterators std::span does not take) as a span.
template <typename T, std::size_t N>
std::span<const T> as_span(const boost::container::small_vector<T, N>& v) noexcept {
    return {v.data(), v.size()};
}

struct queue_impl : std::enable_shared_from_this<queue_impl> {
    queue_impl(const context& c, const device& d, const async_handler& handler, const property_list& properties);
    // A queue that goes away while recording ends its recording (so the graph's buffers are free again).
    ~queue_impl();

    // Runs the command group function and submits what it collected: eagerly, or into the graph the queue
    // records into.
    template <typename F> event submit(F&& cgf) {
        handler h(dev, ctx, shared_from_this());
        std::forward<F>(cgf)(h);
        return finish(h);
    }
    event finish(handler& h);
    void wait();
    void set_external_event(const event& e);
    void throw_asynchronous();

    context ctx;
    device dev;
    property_list properties;
    encore::queue engine;
    bool has_async_handler; // the queue's or its context's

    // sycl_ext_oneapi_graph: the graph this queue records into, if any (under `mutex`).
    std::mutex mutex;
    std::shared_ptr<graph_impl> recording; // what a recording remembers across sessions: graph_impl::histories
    encore::event barrier;    // the last barrier submitted eagerly: later submissions wait for it
    // sycl_ext_oneapi_in_order_queue_events: the event the next command group waits for
    // (ext_oneapi_set_external_event).
    event external_event;
};

} // namespace detail
} // namespace _V1
} // namespace sycl

// sycl::event (SYCL 2020 section 4.6.6): the completion of a command group, with its status and profiling times.
//
// An event of a queue wraps the engine's encore::event. An event returned while the queue records into a graph
// (sycl_ext_oneapi_graph) stands for a node of that graph instead: it is a "graph-limited" event, usable only
// as a dependency of later submissions recorded into the same graph (a queue that records nothing and depends on
// it joins the recording: transitive queue recording); waiting on it throws errc::invalid.
//
//     auto e = q.submit([&](sycl::handler& h) { h.memset(p, 0, n); });
//     e.wait();
//     auto ns = e.get_profiling_info<sycl::info::event_profiling::command_end>() -
//               e.get_profiling_info<sycl::info::event_profiling::command_start>();
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "encore/runtime/event.hpp"
#include "exception.hpp"
#include "info.hpp"

namespace sycl {
inline namespace _V1 {

namespace info {
enum class event_command_status { submitted, running, complete };
namespace event {
// clang-format off
struct command_execution_status { using return_type = info::event_command_status; };
// clang-format on
} // namespace event
namespace event_profiling {
// clang-format off
struct command_submit { using return_type = std::uint64_t; };
struct command_start { using return_type = std::uint64_t; };
struct command_end { using return_type = std::uint64_t; };
// clang-format on
} // namespace event_profiling
} // namespace info

namespace detail {
struct queue_impl;
struct graph_impl;
struct graph_owner;
// The node a recorded submission became, for events returned while recording.
struct recorded_node {
    std::weak_ptr<graph_impl> graph;
    std::uint32_t index = 0;   // the node; for a native recording session, the captured command's number
    std::uint64_t session = 0; // the native recording session (property::graph::enable_native_recording), or 0
};
} // namespace detail

class event {
public:
    event() = default; // a complete event

    void wait();
    static void wait(const std::vector<event>& events);
    // wait(), then hands the asynchronous errors of the event's queue to its async handler.
    void wait_and_throw();
    static void wait_and_throw(const std::vector<event>& events);

    backend get_backend() const noexcept;
    // The events this event's command group waited for: those it named (depends_on, a barrier's list), those its
    // accessors implied, and the queue's pending barrier; without duplicates, completed ones included. The
    // previous command of an in-order queue is not listed. Throws errc::invalid for a graph-limited event.
    std::vector<event> get_wait_list();
    template <typename Descriptor> typename Descriptor::return_type get_info() const;
    // Waits for the command, then returns the time in nanoseconds. Throws errc::invalid when the queue was not
    // made with property::queue::enable_profiling, or when the event is graph-limited.
    template <typename Descriptor> typename Descriptor::return_type get_profiling_info() const;

    friend bool operator==(const event& a, const event& b) noexcept {
        return a.engine_ == b.engine_ && a.node_ == b.node_;
    }

    // Encore: what the event stands for.
    event(encore::event engine, std::weak_ptr<detail::queue_impl> queue, backend b)
        : engine_(std::move(engine)), queue_(std::move(queue)), backend_(b) {}
    explicit event(std::shared_ptr<const detail::recorded_node> node, backend b)
        : node_(std::move(node)), backend_(b) {}
    const encore::event& engine() const noexcept { return engine_; }
    // Profiling queries on this event throw errc::invalid with `reason` (a graph finalized without
    // property::graph::enable_profiling). `reason` must outlive the event (a string literal).
    void refuse_profiling(const char* reason) noexcept { no_profiling_reason_ = reason; }
    // Non-null for a graph-limited event.
    const std::shared_ptr<const detail::recorded_node>& recorded() const noexcept { return node_; }
    // What get_wait_list answers (set by the queue when the command group had dependencies). One event, the
    // common case, is kept in the event itself; more are copied into a list the event's copies share.
    void set_wait_list(std::span<const encore::event> waits);
    // sycl_ext_oneapi_reusable_events: the context's number (context::engine_id) of an event made by make_event,
    // else of the event's queue; 0 when not known (a default-constructed event, or one whose queue is gone).
    std::uint64_t ext_encore_context_id() const noexcept;
    explicit event(std::uint64_t context_id) : context_id_(context_id) {}
    // Made by enqueue_signal_event: a tag, whose profiling times are all the moment it completed.
    void ext_encore_mark_tag(std::uint64_t context_id) noexcept {
        tag_ = true;
        context_id_ = context_id;
    }

private:
    void require_not_graph_limited(const char* call) const;

    encore::event engine_;
    std::weak_ptr<detail::queue_impl> queue_;
    std::shared_ptr<const detail::recorded_node> node_;
    backend backend_ = backend::ext_oneapi_native_cpu;
    const char* no_profiling_reason_ = nullptr;
    encore::event only_wait_;                                  // a wait list of one event
    std::shared_ptr<const std::vector<encore::event>> waits_; // a longer one
    std::uint64_t context_id_ = 0;
    bool tag_ = false;
};

} // namespace _V1
} // namespace sycl

template <> struct std::hash<sycl::event> {
    std::size_t operator()(const sycl::event& e) const noexcept {
        return std::hash<const void*>()(e.engine().state().get()) ^ std::hash<const void*>()(e.recorded().get());
    }
};

// sycl_ext_oneapi_reusable_events: events made apart from any command (make_event), that a queue re-associates
// with its latest commands (enqueue_signal_event) and that a queue waits for (enqueue_wait_event(s)).
//
// enqueue_signal_event(q, e) makes `e` a new event of a barrier on `q` (on an in-order queue the barrier is the tag
// the extension describes: it waits for what was submitted before and holds back nothing else), so copies of `e`
// taken before keep their old command, and a command that depended on `e` keeps its dependency. On a queue made
// with property::queue::enable_profiling, the tag's three profiling times are all the moment it completed.
// enqueue_wait_event(s)(q, ...) is a barrier on `q` that waits for the events (of any context).
// While `q` records a graph these become graph nodes like any barrier: a signalled event is then graph-limited.
//
// Per-event profiling (make_event with enable_profiling{true}) is not built: no device has
// aspect::ext_oneapi_per_event_profiling, and make_event refuses it with errc::feature_not_supported.
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     sycl::event done = syclex::make_event(q1.get_context());
//     q1.parallel_for(n, produce);
//     syclex::enqueue_signal_event(q1, done);
//     syclex::enqueue_wait_event(q2, done);   // q2's next commands wait for `produce`
//     q2.parallel_for(n, consume);
#pragma once

#define SYCL_EXT_ONEAPI_REUSABLE_EVENTS 1

#include <string>
#include <type_traits>
#include <vector>

#include "sycl/context.hpp"
#include "sycl/device_selector.hpp"
#include "sycl/event.hpp"
#include "sycl/exception.hpp"
#include "sycl/ext/oneapi/properties/properties.hpp"
#include "sycl/queue.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

// make_event's property: whether the event records profiling times.
struct enable_profiling {
    enable_profiling(bool enable = true) : value(enable) {}
    bool value;
};
using enable_profiling_key = enable_profiling;

namespace detail_events {
void check_profiling(const context& c, bool wanted);
template <typename PropertyListT> bool wants_profiling(const PropertyListT& props) {
    if constexpr (std::is_same_v<PropertyListT, enable_profiling>)
        return props.value;
    else {
        static_assert(is_property_list_v<PropertyListT>,
                      "make_event: pass enable_profiling, or properties{...} holding only enable_profiling");
        if constexpr (PropertyListT::template has_property<enable_profiling>())
            return props.template get_property<enable_profiling>().value;
        else
            return false;
    }
}
} // namespace detail_events

// A complete event of context `c`, which no command has signalled yet.
template <typename PropertyListT = empty_properties_t>
event make_event(const context& c, PropertyListT props = {}) {
    detail_events::check_profiling(c, detail_events::wants_profiling(props));
    return event(c.engine_id());
}
// The same, in the default context of the default device's platform.
template <typename PropertyListT = empty_properties_t> event make_event(PropertyListT props = {}) {
    return make_event(device{}.get_platform().khr_get_default_context(), props);
}

// Commands submitted to `q` after this call wait for `e` (for every event of `events`).
void enqueue_wait_event(queue q, const event& e);
void enqueue_wait_events(queue q, const std::vector<event>& events);
// `e` leaves its previous command and completes when everything submitted to `q` before has. Throws errc::invalid
// when `e` belongs to another context than `q`.
void enqueue_signal_event(queue q, event& e);

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

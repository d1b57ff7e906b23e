#include "sycl/ext/oneapi/experimental/reusable_events.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

void detail_events::check_profiling(const context& c, bool wanted) {
    if (!wanted) return;
    for (const auto& d : c.get_devices())
        if (!d.has(aspect::ext_oneapi_per_event_profiling))
            throw exception(errc::feature_not_supported,
                            "make_event: device '" + d.get_info<info::device::name>() +
                                "' cannot profile single events (aspect::ext_oneapi_per_event_profiling); make the "
                                "queue with sycl::property::queue::enable_profiling to time its commands");
}

void enqueue_wait_event(queue q, const event& e) {
    q.ext_oneapi_submit_barrier({e});
}

void enqueue_wait_events(queue q, const std::vector<event>& events) {
    q.ext_oneapi_submit_barrier(events);
}

void enqueue_signal_event(queue q, event& e) {
    const std::uint64_t context = q.get_context().engine_id();
    if (const std::uint64_t own = e.ext_encore_context_id(); own != 0 && own != context)
        throw exception(errc::invalid, "enqueue_signal_event: the event belongs to another context than the queue");
    event tag = q.ext_oneapi_submit_barrier();
    tag.ext_encore_mark_tag(context);
    e = std::move(tag);
}

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

#include "sycl/queue.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "sycl/detail/async_alloc_impl.hpp"
#include "sycl/detail/engine_error.hpp"
#include "sycl/detail/graph_impl.hpp"

namespace sycl {
inline namespace _V1 {

namespace detail {

namespace {
encore::async_handler engine_handler(const async_handler& h) {
    if (!h) return {}; // the engine then rethrows the first error from throw_asynchronous
    return [h](encore::exception_list errors) {
        for (auto& e : errors) e = as_sycl_error(e);
        h(sycl::exception_list(std::move(errors)));
    };
}

encore::queue make_engine_queue(const device& d, const async_handler& h, const property_list& p) {
    encore::queue_properties properties;
    properties.in_order = p.has_property<property::queue::in_order>();
    properties.enable_profiling = p.has_property<property::queue::enable_profiling>();
    try {
        return encore::queue(d.engine(), properties, engine_handler(h));
    } catch (const encore::error& e) {
        if (e.code() == encore::errc::feature_not_supported && properties.enable_profiling)
            throw exception(errc::feature_not_supported,
                            std::string("queue: property::queue::enable_profiling: ") + e.what());
        throw_as_sycl(e);
    }
}

// Buffer tracking reads the last accesses and records the new one: one lock makes that atomic across queues.
std::mutex& tracking_mutex() {
    static std::mutex m;
    return m;
}
} // namespace

std::vector<buffer_state*> buffers_of(std::span<const requirement> requirements) {
    std::vector<buffer_state*> buffers;
    for (const auto& r : requirements) buffers.push_back(r.buffer);
    return buffers;
}

requirement_vector merge_requirements(std::span<const requirement> requirements) {
    requirement_vector out;
    for (const auto& r : requirements) {
        auto it = std::find_if(out.begin(), out.end(), [&](const requirement& o) { return o.buffer == r.buffer; });
        if (it == out.end())
            out.push_back(r);
        else if (writes(r.mode))
            it->mode = access_mode::read_write;
    }
    return out;
}

queue_impl::queue_impl(const context& c, const device& d, const async_handler& handler, const property_list& p)
    : ctx(c), dev(d), properties(p), engine(make_engine_queue(d, handler ? handler : c.handler(), p)),
      has_async_handler(handler || c.handler()) {
    if (!ctx.contains(dev)) throw exception(errc::invalid, "queue: the device does not belong to the context");
}

queue_impl::~queue_impl() {
    std::shared_ptr<graph_impl> graph;
    {
        std::lock_guard lock(mutex);
        graph = recording;
    }
    if (!graph) return;
    std::lock_guard graph_lock(graph->mutex);
    try {
        stop_recording(*graph, *this);
    } catch (const std::exception& e) { // ending a native recording session failed in the driver
        std::fprintf(stderr, "encore: a queue destroyed while recording ended graph %llu's native recording "
                             "session, which failed: %s\n",
                     static_cast<unsigned long long>(graph->g.id()), e.what());
    }
}

event queue_impl::finish(handler& h) {
    auto& c = h.contents();
    std::shared_ptr<graph_impl> graph;
    wait_events waits;
    {
        std::lock_guard lock(mutex);
        graph = recording;
        // The external event is this command group's dependency like any other (and so can make the queue join
        // a graph's recording); it is used once.
        if (external_event != event{}) c.dependencies.push_back(std::exchange(external_event, event{}));
        // A barrier holds back everything submitted to the queue after it (sycl_ext_oneapi_enqueue_barrier).
        if (barrier.state() && !barrier.is_complete()) waits.push_back(barrier);
    }
    if (!graph) graph = join_recording_through(*this, as_span(c.dependencies));
    if (graph) return record_submission(*graph, *this, h);

    if (!c.dynamic_arguments.empty())
        throw exception(errc::invalid, "a dynamic_parameter can only be an argument of a command added to its graph");
    if (!c.dynamic_requirements.empty())
        throw exception(errc::invalid, "handler::require: a dynamic_parameter can only be required by a command added "
                                       "to its graph");
    if (c.allocation || c.frees) prepare_eager_async(c);
    // join_recording_through took every graph-limited event: these are eager work.
    for (const auto& e : c.dependencies)
        if (e.engine().state()) waits.push_back(e.engine());
    requirement_vector requirements;
    if (c.executable) {
        requirement_vector all = c.requirements;
        for (const auto& r : c.executable->buffer_requirements()) all.push_back(r);
        requirements = merge_requirements(as_span(all));
    } else if (!c.requirements.empty()) {
        requirements = merge_requirements(as_span(c.requirements));
    }

    const bool is_barrier = c.command && std::holds_alternative<encore::barrier_command>(*c.command);
    // Buffer tracking reads the last accesses and records the new one: one lock makes that atomic across queues.
    // A command group that names no buffer has nothing to track.
    std::unique_lock<std::mutex> tracking;
    if (!requirements.empty()) tracking = std::unique_lock(tracking_mutex());
    for (const auto& r : requirements) r.buffer->dependencies(r.mode, waits);
    if (auto* task = c.command ? std::get_if<encore::host_task_command>(&*c.command) : nullptr)
        task->task = with_host_use(std::move(task->task), buffers_of(as_span(requirements)));
    const std::span<const encore::event> wait_list = as_span(waits);
    encore::event e = translate_errors([&] {
        if (c.executable) return engine.launch(*c.executable->engine, wait_list);
        if (!c.command) return engine.submit(encore::empty_command{}, wait_list);
        if (c.barrier_on_everything) return engine.barrier();
        return engine.submit(std::move(*c.command), wait_list);
    });
    for (const auto& r : requirements) r.buffer->record(r.mode, e);
    if (tracking) tracking.unlock();
    if (is_barrier) {
        std::lock_guard queue_lock(mutex);
        barrier = e;
    }
    event result(std::move(e), weak_from_this(), dev.get_backend());
    if (!waits.empty()) result.set_wait_list(wait_list);
    if (c.executable && !c.executable->profiling)
        result.refuse_profiling("get_profiling_info: the executable graph was finalized without "
                                "property::graph::enable_profiling");
    return result;
}

void queue_impl::wait() {
    encore::event external;
    {
        std::lock_guard lock(mutex);
        if (recording)
            throw exception(errc::invalid, "queue::wait: the queue is recording a graph; end the recording first");
        // A graph-limited external event stays for the next command group: it stands for a node, not for work.
        if (!external_event.recorded()) external = std::exchange(external_event, event{}).engine();
    }
    if (external.state()) translate_errors([&] { external.wait(); });
    engine.wait();
}

void queue_impl::set_external_event(const event& e) {
    if (!engine.is_in_order())
        throw exception(errc::invalid, "queue::ext_oneapi_set_external_event: the queue is not in-order "
                                       "(sycl_ext_oneapi_in_order_queue_events applies to in-order queues only)");
    std::lock_guard lock(mutex);
    external_event = e;
}

void queue_impl::throw_asynchronous() {
    if (has_async_handler) return engine.throw_asynchronous(); // what the handler throws is the program's own
    try {
        engine.throw_asynchronous();
    } catch (...) { // no handler: the first error, as a sycl::exception
        std::rethrow_exception(as_sycl_error(std::current_exception()));
    }
}

} // namespace detail

queue::queue(const device& d, const async_handler& h, const property_list& p)
    : queue(d.get_platform().ext_oneapi_get_default_context(), d, h, p) {}

queue::queue(const context& c, const device& d, const async_handler& h, const property_list& p)
    : impl_(std::make_shared<detail::queue_impl>(c, d, h, p)) {}

bool queue::khr_empty() const {
    event external;
    {
        std::lock_guard lock(impl_->mutex);
        external = impl_->external_event;
    }
    // An external event (ext_oneapi_set_external_event) is work the next command group waits for.
    if (external.engine().state() && !external.engine().is_complete()) return false;
    return impl_->engine.empty();
}

} // namespace _V1
} // namespace sycl

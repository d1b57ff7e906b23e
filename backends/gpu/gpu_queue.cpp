#include "gpu_queue.hpp"

#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/backends/gpu/gpu_commands.hpp"
#include "encore/backends/detail/completion_event.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

stream_state::~stream_state() {
    if (stream) api->destroy_stream(stream);
}

namespace {
constexpr std::size_t streams_per_queue = 4;
} // namespace

struct gpu_queue::core : std::enable_shared_from_this<core> {
    core(gpu_backend& b, std::uint32_t d, const queue_properties& p, std::shared_ptr<error_sink> e)
        : backend(b), device(d), properties(p), errors(std::move(e)), context(b.context(d)),
          device_launcher(b.launcher_of(d)) {
        driver& api = b.api();
        context_scope scope(api, context);
        for (std::size_t i = 0; i < streams_per_queue; ++i) {
            auto s = std::make_shared<stream_state>();
            s->api = &api;
            s->owner = this;
            s->context = context;
            s->errors = errors;
            s->stream = api.create_stream();
            streams.push_back(std::move(s));
        }
        if (properties.enable_profiling) {
            reference = std::make_shared<profiling_reference>();
            reference->api = &api;
            reference->event = api.create_event(true);
            api.record(reference->event, streams[0]->stream);
            api.synchronize(reference->event);
            reference->host_ns = encore::detail::host_clock_ns();
        }
    }

    // An event run_after found to be one of this device's (as_gpu_event).
    static gpu_event* ours(const event_ptr* e) noexcept { return static_cast<gpu_event*>(e->get()); }

    // The stream a piece of work goes to: the one whose last work it waits for, else the next in turn.
    const std::shared_ptr<stream_state>& choose(std::span<const event_ptr* const> gpu_waits, placement where) {
        if (where == placement::in_order_command) return streams[0];
        for (const event_ptr* w : gpu_waits) {
            stream_state* s = ours(w)->stream();
            if (s && s->owner == this && s->last.load(std::memory_order_acquire) == ours(w))
                for (auto& candidate : streams)
                    if (candidate.get() == s) return candidate;
        }
        return streams[next.fetch_add(1, std::memory_order_relaxed) % streams.size()];
    }

    // Hands `work` (a driver_command or a std::function taking the stream) to the launcher, to run on the
    // chosen stream after `gpu_waits` (events of this device with their place in the launcher's order). Throws
    // what the work throws when the launcher runs it on this thread.
    template <typename Work>
    void enqueue_now(const std::shared_ptr<gpu_event>& ev, Work&& work, std::span<const event_ptr* const> gpu_waits,
                     placement where, bool deferred) {
        const auto& chosen = choose(gpu_waits, where);
        stream_state& s = *chosen;
        launch_task task;
        task.event = ev;
        task.stream = &s;
        task.device = device;
        task.set_work(std::forward<Work>(work));
        task.record = deferred || reference || where != placement::in_order_command;
        for (const event_ptr* w : gpu_waits) // the same stream orders the rest
            if (ours(w)->stream() != &s && !ours(w)->known_complete()) task.waits.push_back(*w);
        // No driver call at all (an empty command or barrier whose event is recorded on demand): cheaper than a
        // handoff to the launcher's thread.
        const bool cheap = !task.function && task.command.how() == driver_command::form::nothing && !task.record &&
                           task.waits.empty();
        try {
            device_launcher.submit(std::move(task), [&](launch_task& t) {
                if (where == placement::graph_launch) t.tail = s.lazy_tail.lock();
                if (t.record)
                    s.lazy_tail.reset();
                else
                    s.lazy_tail = ev;
                s.last.store(ev.get(), std::memory_order_release);
                if (deferred)
                    ev->set_enqueued(chosen);
                else
                    ev->set_enqueued_unshared(chosen); // not handed out yet: nobody waits for it
            }, cheap);
        } catch (...) {
            ev->set_failed();
            throw;
        }
    }

    // Enqueues `work` now when every wait is on this backend's streams (the common case: no allocation for the
    // work itself); otherwise the last host-side wait to complete enqueues it.
    template <typename Work>
    event_ptr run_after(Work&& work, std::span<const event_ptr> wait_list, placement where) {
        auto ev = std::make_shared<gpu_event>(backend, device, reference);
        const event_ptr* gpu_small[8];
        std::vector<const event_ptr*> gpu_large;
        std::size_t gpu_count = 0;
        std::vector<event_ptr> host_waits;
        for (const auto& e : wait_list) {
            if (!e) continue;
            auto* own = as_gpu_event(e.get());
            // Work of any device of this backend with its place in a launcher's order: waited for on the GPU
            // (another device's through cuStreamWaitEvent, which takes events of other contexts).
            if (own && &own->owner() == &backend && own->is_enqueued()) {
                if (own->known_complete()) continue;
                if (gpu_count < std::size(gpu_small))
                    gpu_small[gpu_count] = &e;
                else {
                    if (gpu_large.empty()) gpu_large.assign(gpu_small, gpu_small + gpu_count);
                    gpu_large.push_back(&e);
                }
                ++gpu_count;
                continue;
            }
            if (e->status() == event_status::complete) continue;
            host_waits.push_back(e);
        }
        std::span<const event_ptr* const> gpu_waits = gpu_count <= std::size(gpu_small)
                                                          ? std::span<const event_ptr* const>(gpu_small, gpu_count)
                                                          : std::span<const event_ptr* const>(gpu_large);
        if (host_waits.empty()) {
            enqueue_now(ev, std::forward<Work>(work), gpu_waits, where, false);
            return ev;
        }
        // Deferred: keep the work and the GPU-side waits alive until the host-side ones completed.
        std::vector<event_ptr> kept;
        for (const auto& e : wait_list)
            if (auto* own = as_gpu_event(e.get()); own && &own->owner() == &backend && own->is_enqueued())
                kept.push_back(e); // another GPU plugin's events were host-side waits above
        auto kept_work = std::make_shared<std::decay_t<Work>>(std::forward<Work>(work));
        encore::detail::when_all(host_waits, [self = shared_from_this(), ev, kept_work, kept = std::move(kept), where]() {
            std::vector<const event_ptr*> waits;
            for (const auto& e : kept)
                waits.push_back(&e);
            try {
                self->enqueue_now(ev, std::move(*kept_work), waits, where, true);
            } catch (...) {
                self->errors->report(std::current_exception());
                ev->set_failed();
            }
        });
        return ev;
    }

    gpu_backend& backend;
    const std::uint32_t device;
    const queue_properties properties;
    const std::shared_ptr<error_sink> errors;
    const gpu::driver_context context;
    launcher& device_launcher;
    std::vector<std::shared_ptr<stream_state>> streams;
    std::atomic<std::uint32_t> next{0};
    std::shared_ptr<profiling_reference> reference;
};

gpu_queue::gpu_queue(gpu_backend& backend, std::uint32_t device, const queue_properties& properties,
                       std::shared_ptr<error_sink> errors)
    : core_(std::make_shared<core>(backend, device, properties, std::move(errors))) {}

gpu_queue::~gpu_queue() = default;

event_ptr gpu_queue::submit(command c, std::span<const event_ptr> wait_list) {
    // Prepared here, so that a refusal throws from submit(); the launcher gets it by move.
    return submit_prepared(driver_command::from(core_->backend, core_->device, c, false), wait_list);
}

event_ptr gpu_queue::submit_kernel(const kernel_command& k, std::span<const event_ptr> wait_list) {
    return submit_prepared(driver_command::from(core_->backend, core_->device, k), wait_list);
}

event_ptr gpu_queue::submit_prepared(driver_command d, std::span<const event_ptr> wait_list) {
    return core_->run_after(std::move(d), wait_list,
                            core_->properties.in_order ? placement::in_order_command : placement::spread);
}

event_ptr gpu_queue::run_after(std::function<void(gpu::driver_stream)> work, std::span<const event_ptr> wait_list,
                                placement where) {
    return core_->run_after(std::move(work), wait_list, where);
}

gpu_backend& gpu_queue::owner() const noexcept {
    return core_->backend;
}
std::uint32_t gpu_queue::device() const noexcept {
    return core_->device;
}

bool gpu_queue::profiling() const noexcept {
    return core_->reference != nullptr;
}

gpu_queue& as_gpu_queue(backend_queue& q, const gpu_backend& backend, const char* what) {
    auto* ours = dynamic_cast<gpu_queue*>(&q);
    if (!ours || &ours->owner() != &backend)
        throw error(errc::invalid_argument, std::string(what) + " belongs to the " + std::string(backend.name()) +
                                                " backend and cannot run on a queue of another backend");
    return *ours;
}

} // namespace encore::gpu

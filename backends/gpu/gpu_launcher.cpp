#include "gpu_launcher.hpp"

#include <optional>

#include "encore/backends/gpu/driver.hpp"

namespace encore::gpu {

void launch_task::operator()() {
    stream_state& s = *stream;
    context_scope scope(*s.api, s.context);
    for (const auto& w : waits) {
        auto* e = static_cast<gpu_event*>(w.get());
        // Another device's work is placed by that device's launcher, which may not have reached it yet: it was
        // handed over before this task (it is enqueued), so that launcher gets there without waiting for this
        // one, and the record made then is what the stream waits for (cuStreamWaitEvent across devices).
        const bool other_device = e->device() != device;
        if (other_device) e->wait_launched();
        if (e->known_complete()) continue;
        gpu::driver_event handle = nullptr;
        {
            std::optional<context_scope> theirs; // a record on demand is made on its stream, in its context
            if (other_device) theirs.emplace(*s.api, e->stream()->context);
            handle = e->recorded_handle();
        }
        s.api->wait_event(s.stream, handle);
    }
    if (tail || event->has_profiling()) {
        std::lock_guard lock(s.mutex);
        if (tail) tail->record_locked(s); // its holder may pass it to a sibling partition on another stream
        if (event->has_profiling()) event->record_start_locked(s);
    }
    if (function)
        function(s.stream);
    else
        command.enqueue(*s.api, s.stream, device);
    if (record) {
        std::lock_guard lock(s.mutex);
        event->record_locked(s);
    }
    event->set_launched();
}

void launch_task::prefetch() const noexcept {
    const char* e = reinterpret_cast<const char*>(event.get());
    for (std::size_t line = 0; line < sizeof(gpu_event); line += 64)
        __builtin_prefetch(e + line, 1, 3); // set_launched writes its state and locks its mutex
    __builtin_prefetch(stream, 0, 3);
}

void launch_task::fail(std::exception_ptr e) noexcept {
    stream->errors->report(std::move(e));
    event->set_failed();
}

} // namespace encore::gpu

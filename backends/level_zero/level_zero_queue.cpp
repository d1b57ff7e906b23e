#include "level_zero_queue.hpp"

#include "encore/backends/detail/completion_event.hpp"
#include "encore/backends/level_zero/level_zero_backend.hpp"
#include "encore/backends/level_zero/level_zero_commands.hpp"
#include "encore/graph/error.hpp"

namespace encore::level_zero {

using detail::check;

level_zero_queue::level_zero_queue(level_zero_backend& backend, std::uint32_t device,
                                   const queue_properties& properties, std::shared_ptr<error_sink> errors)
    : backend_(backend), device_(device), properties_(properties), errors_(std::move(errors)) {
    const auto& s = backend.state(device);
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    desc.ordinal = 0;
    desc.index = 0;
    desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
    if (backend.regular_eager_lists())
        check(backend.ze().zeCommandQueueCreate(s.context.get(), s.device, &desc, queue_.out()),
              "zeCommandQueueCreate", s.properties.name);
    else
        check(backend.ze().zeCommandListCreateImmediate(s.context.get(), s.device, &desc, list_.out()),
              "zeCommandListCreateImmediate", s.properties.name);
}

level_zero_queue::regular_list& level_zero_queue::free_regular_list() {
    const auto& ze = backend_.ze();
    for (auto& slot : regular_) {
        if (slot->submitted) {
            if (ze.zeFenceQueryStatus(slot->fence.get()) != ZE_RESULT_SUCCESS) continue;
            check(ze.zeFenceReset(slot->fence.get()), "zeFenceReset");
            slot->submitted = false;
        }
        check(ze.zeCommandListReset(slot->list.get()), "zeCommandListReset");
        return *slot;
    }
    const auto& s = backend_.state(device_);
    auto slot = std::make_unique<regular_list>();
    ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    check(ze.zeCommandListCreate(s.context.get(), s.device, &desc, slot->list.out()), "zeCommandListCreate");
    ze_fence_desc_t fdesc{ZE_STRUCTURE_TYPE_FENCE_DESC};
    check(ze.zeFenceCreate(queue_.get(), &fdesc, slot->fence.out()), "zeFenceCreate");
    regular_.push_back(std::move(slot));
    return *regular_.back();
}

level_zero_queue::~level_zero_queue() {
    for (auto& e : in_flight_)
        try {
            e->wait();
        } catch (...) { // reported to the error sink by whoever waits on it; the list goes either way
        }
    if (queue_)
        backend_.ze().zeCommandQueueSynchronize(queue_.get(), UINT64_MAX); // lists go after the queue let go
}

event_ptr level_zero_queue::submit(command c, std::span<const event_ptr> wait_list) {
    const auto& ze = backend_.ze();
    auto& s = backend_.state(device_);
    event_pool& pool = properties_.enable_profiling ? *s.timestamp_events : *s.events;
    wait_events waits = collect_wait_events(ze, pool, wait_list);
    event_timing timing;
    timing.ns_per_tick = s.ns_per_tick;
    if (properties_.enable_profiling) {
        std::uint64_t host = 0;
        check(ze.zeDeviceGetGlobalTimestamps(s.device, &host, &timing.submit_ticks),
              "zeDeviceGetGlobalTimestamps");
    }
    ze_event_handle_t signal = pool.acquire();
    std::shared_ptr<void> staging;
    std::lock_guard lock(mutex_);
    while (!in_flight_.empty() && in_flight_.front()->status() == event_status::complete)
        in_flight_.pop_front();
    try {
        if (queue_) {
            regular_list& slot = free_regular_list();
            staging = append_command(backend_, device_, slot.list.get(), c, signal, waits.handles);
            check(ze.zeCommandListClose(slot.list.get()), "zeCommandListClose");
            ze_command_list_handle_t list = slot.list.get();
            check(ze.zeCommandQueueExecuteCommandLists(queue_.get(), 1, &list, slot.fence.get()),
                  "zeCommandQueueExecuteCommandLists");
            slot.submitted = true;
        } else {
            staging = append_command(backend_, device_, list_.get(), c, signal, waits.handles);
        }
    } catch (const error& failure) {
        pool.release(signal);
        // A copy between memory objects the backend cannot reach is the work's failure, reported through the
        // queue as on the native backend (the reference); every other refusal leaves submit.
        if (kind_of(c) != command_kind::copy || failure.code() != errc::feature_not_supported || !errors_)
            throw;
        errors_->report(std::current_exception());
        auto done = std::make_shared<encore::detail::completion_event>(properties_.enable_profiling);
        done->set_submit(encore::detail::host_clock_ns());
        done->mark_running();
        done->complete();
        return done;
    } catch (...) {
        pool.release(signal);
        throw;
    }
    if (staging) waits.keep_alive.push_back(std::move(staging));
    if (const auto* k = std::get_if<kernel_command>(&c))
        waits.keep_alive.push_back(std::const_pointer_cast<kernel>(k->kernel)); // its module too
    auto e =
        std::make_shared<level_zero_event>(ze, backend_.watcher(), pool, signal, properties_.enable_profiling,
                                           std::move(timing), std::move(waits.keep_alive));
    in_flight_.push_back(e);
    return e;
}

level_zero_queue& as_level_zero_queue(backend_queue& queue, const level_zero_backend& backend,
                                      std::uint32_t device, const char* what) {
    auto* q = dynamic_cast<level_zero_queue*>(&queue);
    if (!q || &q->owner() != &backend || q->device() != device)
        throw error(errc::invalid_argument, std::string(what) +
                                                ": the queue is not a level_zero queue of device " +
                                                std::to_string(device));
    return *q;
}

} // namespace encore::level_zero

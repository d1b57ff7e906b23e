#include "level_zero_graph.hpp"

#include <algorithm>

#include "encore/backends/level_zero/level_zero_backend.hpp"
#include "encore/backends/level_zero/level_zero_commands.hpp"
#include "encore/backends/level_zero/level_zero_event.hpp"
#include "encore/backends/level_zero/level_zero_queue.hpp"
#include "encore/graph/error.hpp"

namespace encore::level_zero {

using detail::check;

namespace {

detail::list_handle new_list(const detail::api& ze, const level_zero_backend::device_state& s) {
    ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    desc.commandQueueGroupOrdinal = 0;
    detail::list_handle list;
    check(ze.zeCommandListCreate(s.context.get(), s.device, &desc, list.out()), "zeCommandListCreate");
    return list;
}

// Host memory for the two kernel timestamps a profiled launch copies out.
std::shared_ptr<ze_kernel_timestamp_result_t> timestamp_memory(level_zero_backend& backend,
                                                               std::uint32_t device) {
    void* p = backend.allocate(device, memory_kind::host, 2 * sizeof(ze_kernel_timestamp_result_t), 64);
    return std::shared_ptr<ze_kernel_timestamp_result_t>(static_cast<ze_kernel_timestamp_result_t*>(p),
                                                         [&backend, device](ze_kernel_timestamp_result_t* q) {
                                                             try {
                                                                 backend.deallocate(device, q);
                                                             } catch (...) {
                                                             }
                                                         });
}

} // namespace

chain_executable::chain_executable(level_zero_backend& backend, std::uint32_t device, const graph& g,
                                   const partition& p)
    : backend_(backend), device_(device), graph_(g), partition_(p) {
    const auto& ze = backend.ze();
    const auto& s = backend.state(device);
    const auto count = static_cast<std::uint32_t>(p.nodes.size());
    local_of_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i)
        local_of_.emplace_back(p.nodes[i], i);
    std::sort(local_of_.begin(), local_of_.end());
    auto position = [&](std::uint32_t node) -> std::int64_t {
        auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{node, std::uint32_t{0}});
        return (it != local_of_.end() && it->first == node) ? std::int64_t{it->second} : std::int64_t{-1};
    };
    predecessors_.resize(count);
    std::vector<bool> has_successor(count, false);
    for (std::uint32_t i = 0; i < count; ++i)
        for (const auto& u : g.predecessors(g.node_at(p.nodes[i])))
            if (const auto at = position(u.index); at >= 0) {
                predecessors_[i].push_back(static_cast<std::uint32_t>(at));
                has_successor[static_cast<std::size_t>(at)] = true;
            }
    for (std::uint32_t i = 0; i < count; ++i)
        if (!has_successor[i]) sinks_.push_back(i);

    ze_command_queue_desc_t qdesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    qdesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    qdesc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
    check(ze.zeCommandQueueCreate(s.context.get(), s.device, &qdesc, queue_.out()), "zeCommandQueueCreate");
    ze_event_pool_desc_t pdesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC};
    pdesc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
    pdesc.count = count + 2;
    check(ze.zeEventPoolCreate(s.context.get(), &pdesc, 0, nullptr, pool_.out()), "zeEventPoolCreate");
    auto make_event = [&](std::uint32_t index) {
        ze_event_desc_t edesc{ZE_STRUCTURE_TYPE_EVENT_DESC};
        edesc.index = index;
        edesc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
        edesc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
        detail::event_handle e;
        check(ze.zeEventCreate(pool_.get(), &edesc, e.out()), "zeEventCreate");
        return e;
    };
    node_events_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i)
        node_events_.push_back(make_event(i));
    wait_event_ = make_event(count);
    signal_event_ = make_event(count + 1);

    main_ = new_list(ze, s);
    record_main();
    reset_ = new_list(ze, s);
    for (const auto& e : node_events_)
        check(ze.zeCommandListAppendEventReset(reset_.get(), e.get()), "zeCommandListAppendEventReset");
    check(ze.zeCommandListAppendEventReset(reset_.get(), signal_event_.get()),
          "zeCommandListAppendEventReset");
    close(reset_.get());
    free_launch_lists();
}

chain_executable::launch_lists& chain_executable::free_launch_lists() {
    const auto& ze = backend_.ze();
    for (auto& slot : launch_lists_) {
        if (!slot->submitted) return *slot;
        // The fence is signaled just after the launch's event (the suffix signals the event, then the batch
        // ends): when the event is complete, or gone (its destructor waited for it), the wait is over at
        // once.
        const auto returned = slot->returned.lock();
        const bool done = ze.zeFenceQueryStatus(slot->fence.get()) == ZE_RESULT_SUCCESS || !returned ||
                          returned->status() == event_status::complete;
        if (done) {
            check(ze.zeFenceHostSynchronize(slot->fence.get(), UINT64_MAX), "zeFenceHostSynchronize");
            check(ze.zeFenceReset(slot->fence.get()), "zeFenceReset");
            slot->submitted = false;
            return *slot;
        }
    }
    const auto& s = backend_.state(device_);
    auto slot = std::make_unique<launch_lists>();
    slot->prefix = new_list(ze, s);
    slot->suffix = new_list(ze, s);
    ze_fence_desc_t fdesc{ZE_STRUCTURE_TYPE_FENCE_DESC};
    check(ze.zeFenceCreate(queue_.get(), &fdesc, slot->fence.out()), "zeFenceCreate");
    launch_lists_.push_back(std::move(slot));
    return *launch_lists_.back();
}

chain_executable::~chain_executable() {
    // Lists and events go only once nothing of them runs.
    if (queue_) backend_.ze().zeCommandQueueSynchronize(queue_.get(), UINT64_MAX);
}

void chain_executable::close(ze_command_list_handle_t list) {
    check(backend_.ze().zeCommandListClose(list), "zeCommandListClose");
}

void chain_executable::record_main() {
    const auto& ze = backend_.ze();
    staging_.clear();
    ze_event_handle_t start = wait_event_.get();
    check(ze.zeCommandListAppendBarrier(main_.get(), nullptr, 1, &start), "zeCommandListAppendBarrier",
          "the main list's wait for its prefix");
    std::vector<ze_event_handle_t> waits;
    for (std::uint32_t i = 0; i < partition_.nodes.size(); ++i) {
        waits.clear();
        for (std::uint32_t at : predecessors_[i])
            waits.push_back(node_events_[at].get());
        const std::uint32_t node = partition_.nodes[i];
        try {
            if (auto kept =
                    append_command(backend_, device_, main_.get(), graph_.command_at(graph_.node_at(node)),
                                   node_events_[i].get(), waits))
                staging_.push_back(std::move(kept));
        } catch (const error& e) {
            throw error(e.code(), "level_zero lowering of " + graph_.describe(node) + ": " + e.what());
        }
    }
    waits.clear();
    for (std::uint32_t at : sinks_)
        waits.push_back(node_events_[at].get());
    check(ze.zeCommandListAppendBarrier(main_.get(), signal_event_.get(),
                                        static_cast<std::uint32_t>(waits.size()),
                                        waits.empty() ? nullptr : waits.data()),
          "zeCommandListAppendBarrier", "the main list's end");
    close(main_.get());
    stale_ = false;
}

event_ptr chain_executable::launch(backend_queue& queue, std::span<const event_ptr> wait_list) {
    const auto& ze = backend_.ze();
    auto& s = backend_.state(device_);
    auto& q = as_level_zero_queue(queue, backend_, device_, "level_zero graph launch");
    if (stale_) {
        backend_.trace(
            "graph partition of " + std::to_string(partition_.nodes.size()) +
            " nodes updated: no mutable command lists on this driver, recording its main command list "
            "again before this launch");
        // An update waits for the launch in flight; the queue lets go of the list once that has ended.
        check(ze.zeCommandQueueSynchronize(queue_.get(), UINT64_MAX), "zeCommandQueueSynchronize");
        check(ze.zeCommandListReset(main_.get()), "zeCommandListReset");
        record_main();
    }
    const bool profiling = q.profiling();
    event_pool& pool = profiling ? *s.timestamp_events : *s.events;
    wait_events waits = collect_wait_events(ze, pool, wait_list);
    event_timing timing;
    timing.ns_per_tick = s.ns_per_tick;
    if (profiling) {
        std::uint64_t host = 0;
        check(ze.zeDeviceGetGlobalTimestamps(s.device, &host, &timing.submit_ticks),
              "zeDeviceGetGlobalTimestamps");
        timing.launch_stamps = timestamp_memory(backend_, device_);
    }
    launch_lists& slot = free_launch_lists();
    ze_event_handle_t done = pool.acquire();
    try {
        std::array<ze_command_list_handle_t, 4> lists{};
        std::uint32_t n = 0;
        lists[n++] = reset_.get();
        if (!waits.handles.empty() || profiling) {
            check(ze.zeCommandListReset(slot.prefix.get()), "zeCommandListReset");
            check(ze.zeCommandListAppendBarrier(slot.prefix.get(), wait_event_.get(),
                                                static_cast<std::uint32_t>(waits.handles.size()),
                                                waits.handles.empty() ? nullptr : waits.handles.data()),
                  "zeCommandListAppendBarrier", "the prefix");
            close(slot.prefix.get());
            lists[n++] = slot.prefix.get();
        } else {
            check(ze.zeEventHostSignal(wait_event_.get()), "zeEventHostSignal", "the wait event");
        }
        lists[n++] = main_.get();
        check(ze.zeCommandListReset(slot.suffix.get()), "zeCommandListReset");
        ze_event_handle_t end = signal_event_.get();
        if (profiling) {
            ze_event_handle_t stamped[2] = {wait_event_.get(), signal_event_.get()};
            check(ze.zeCommandListAppendQueryKernelTimestamps(
                      slot.suffix.get(), 2, stamped, timing.launch_stamps.get(), nullptr, nullptr, 1, &end),
                  "zeCommandListAppendQueryKernelTimestamps");
        }
        check(ze.zeCommandListAppendEventReset(slot.suffix.get(), wait_event_.get()),
              "zeCommandListAppendEventReset");
        check(ze.zeCommandListAppendBarrier(slot.suffix.get(), done, 1, &end), "zeCommandListAppendBarrier",
              "the suffix");
        close(slot.suffix.get());
        lists[n++] = slot.suffix.get();
        check(ze.zeCommandQueueExecuteCommandLists(queue_.get(), n, lists.data(), slot.fence.get()),
              "zeCommandQueueExecuteCommandLists");
        slot.submitted = true;
    } catch (...) {
        pool.release(done);
        throw;
    }
    auto returned = std::make_shared<level_zero_event>(ze, backend_.watcher(), pool, done, profiling,
                                                       std::move(timing), std::move(waits.keep_alive));
    slot.returned = returned;
    return returned;
}

void chain_executable::update(std::uint32_t node, const command& c) {
    auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{node, std::uint32_t{0}});
    if (it == local_of_.end() || it->first != node)
        throw error(errc::invalid_argument,
                    "level_zero update: node " + std::to_string(node) + " is not in this partition");
    if (kind_of(c) != kind_of(graph_.command_at(graph_.node_at(node))))
        throw error(errc::invalid_argument,
                    "level_zero update: node " + std::to_string(node) + " cannot change its command's kind");
    if (const auto* k = std::get_if<kernel_command>(&c))
        backend_.kernel_of(device_, *k->kernel); // has code here
    stale_ = true;
}

} // namespace encore::level_zero

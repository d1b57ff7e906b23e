#include "cuda_queue.hpp"

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_commands.hpp"
#include "backends/cuda/detail/driver.hpp"
#include "backends/detail/completion_event.hpp"
#include "graph/error.hpp"

namespace encore::cuda {

using detail::check;

stream_state::~stream_state() {
    if (stream) static_cast<void>(cuStreamDestroy(stream));
}

namespace {
constexpr std::size_t streams_per_queue = 4;
} // namespace

struct cuda_queue::core : std::enable_shared_from_this<core> {
    core(cuda_backend& b, std::uint32_t d, const queue_properties& p, std::shared_ptr<error_sink> e)
        : backend(b), device(d), properties(p), errors(std::move(e)), context(b.context(d)) {
        detail::context_scope scope(context);
        for (std::size_t i = 0; i < streams_per_queue; ++i) {
            auto s = std::make_shared<stream_state>();
            s->owner = this;
            s->context = context;
            check(cuStreamCreate(&s->stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
            streams.push_back(std::move(s));
        }
        if (properties.enable_profiling) {
            reference = std::make_shared<profiling_reference>();
            check(cuEventCreate(&reference->event, CU_EVENT_DEFAULT), "cuEventCreate");
            check(cuEventRecord(reference->event, streams[0]->stream), "cuEventRecord");
            check(cuEventSynchronize(reference->event), "cuEventSynchronize");
            reference->host_ns = encore::detail::host_clock_ns();
        }
    }

    // The stream a piece of work goes to: the one whose last work it waits for, else the next in turn.
    const std::shared_ptr<stream_state>& choose(std::span<cuda_event* const> gpu_waits, placement where) {
        if (where == placement::in_order_command) return streams[0];
        for (auto* w : gpu_waits) {
            stream_state* s = w->stream();
            if (s && s->owner == this && s->last.load(std::memory_order_acquire) == w)
                for (auto& candidate : streams)
                    if (candidate.get() == s) return candidate;
        }
        return streams[next.fetch_add(1, std::memory_order_relaxed) % streams.size()];
    }

    // Enqueues `work` (a borrowed callable taking the CUstream) on the chosen stream after `gpu_waits`.
    template <typename Work>
    void enqueue_now(const std::shared_ptr<cuda_event>& ev, const Work& work, std::span<cuda_event* const> gpu_waits,
                     placement where, bool deferred) {
        const auto& chosen = choose(gpu_waits, where);
        stream_state& s = *chosen;
        CUevent cross_small[8];
        std::vector<CUevent> cross_large;
        std::size_t cross_count = 0;
        for (auto* w : gpu_waits) {
            if (w->stream() == &s || w->known_complete()) continue;
            CUevent h = w->recorded_handle(); // locks w's stream: never while holding ours
            if (cross_count < std::size(cross_small))
                cross_small[cross_count] = h;
            else
                cross_large.push_back(h);
            ++cross_count;
        }
        detail::context_scope scope(context);
        std::unique_lock lock(s.mutex);
        for (std::size_t i = 0; i < cross_count; ++i)
            check(cuStreamWaitEvent(s.stream, i < std::size(cross_small) ? cross_small[i] : cross_large[i - 8], 0),
                  "cuStreamWaitEvent");
        if (where == placement::graph_launch)
            if (auto tail = s.lazy_tail.lock()) tail->record_locked(s); // its holder may pass it to a sibling
        if (reference) ev->record_start_locked(s);
        work(s.stream);
        if (deferred || reference || where != placement::in_order_command) {
            ev->record_locked(s);
            s.lazy_tail.reset();
        } else {
            s.lazy_tail = ev;
        }
        s.last.store(ev.get(), std::memory_order_release);
        lock.unlock(); // set_enqueued runs callbacks registered meanwhile, which record (and lock) this stream
        if (deferred)
            ev->set_enqueued(chosen);
        else
            ev->set_enqueued_unshared(chosen); // not handed out yet: nobody registered anything
    }

    // Runs `now(stream)` right away when every wait is on the GPU (the common case: no allocation for the
    // work itself); otherwise `keep()` makes the std::function that the last host-side wait enqueues later.
    template <typename Now, typename Keep>
    event_ptr run_after(const Now& now, Keep&& keep, std::span<const event_ptr> wait_list, placement where) {
        auto ev = std::make_shared<cuda_event>(backend, device, reference);
        cuda_event* gpu_small[8];
        std::vector<cuda_event*> gpu_large;
        std::size_t gpu_count = 0;
        std::vector<event_ptr> host_waits;
        for (const auto& e : wait_list) {
            if (!e) continue;
            auto* own = as_cuda_event(e.get());
            if (own && &own->owner() == &backend && own->device() == device && own->is_enqueued()) {
                if (own->known_complete()) continue;
                if (gpu_count < std::size(gpu_small))
                    gpu_small[gpu_count] = own;
                else {
                    if (gpu_large.empty()) gpu_large.assign(gpu_small, gpu_small + gpu_count);
                    gpu_large.push_back(own);
                }
                ++gpu_count;
                continue;
            }
            if (e->status() == event_status::complete) continue;
            host_waits.push_back(e);
        }
        std::span<cuda_event* const> gpu_waits = gpu_count <= std::size(gpu_small)
                                                     ? std::span<cuda_event* const>(gpu_small, gpu_count)
                                                     : std::span<cuda_event* const>(gpu_large);
        if (host_waits.empty()) {
            enqueue_now(ev, now, gpu_waits, where, false);
            return ev;
        }
        // Deferred: keep the GPU-side waits alive until the host-side ones completed.
        std::vector<event_ptr> kept;
        for (const auto& e : wait_list)
            if (auto* own = as_cuda_event(e.get()); own && own->is_enqueued()) kept.push_back(e);
        encore::detail::when_all(host_waits, [self = shared_from_this(), ev, work = std::function<void(CUstream)>(keep()),
                                              kept = std::move(kept), where]() {
            std::vector<cuda_event*> waits;
            for (const auto& e : kept)
                waits.push_back(static_cast<cuda_event*>(e.get()));
            try {
                self->enqueue_now(ev, work, waits, where, true);
            } catch (...) {
                self->errors->report(std::current_exception());
                ev->set_failed();
            }
        });
        return ev;
    }

    cuda_backend& backend;
    const std::uint32_t device;
    const queue_properties properties;
    const std::shared_ptr<error_sink> errors;
    const CUcontext context;
    std::vector<std::shared_ptr<stream_state>> streams;
    std::atomic<std::uint32_t> next{0};
    std::shared_ptr<profiling_reference> reference;
};

cuda_queue::cuda_queue(cuda_backend& backend, std::uint32_t device, const queue_properties& properties,
                       std::shared_ptr<error_sink> errors)
    : core_(std::make_shared<core>(backend, device, properties, std::move(errors))) {}

cuda_queue::~cuda_queue() = default;

event_ptr cuda_queue::submit(command c, std::span<const event_ptr> wait_list) {
    // The command is prepared on the stack and enqueued by reference; only a submission that has to wait on
    // the host moves it to the heap.
    driver_command d = driver_command::from(core_->backend, core_->device, c, false);
    const CUdevice device = core_->backend.device_handle(core_->device);
    return core_->run_after([&d, device](CUstream s) { d.enqueue(s, device); },
                            [&d, device] {
                                auto kept = std::make_shared<driver_command>(std::move(d));
                                return [kept, device](CUstream s) { kept->enqueue(s, device); };
                            },
                            wait_list, core_->properties.in_order ? placement::in_order_command : placement::spread);
}

event_ptr cuda_queue::run_after(std::function<void(CUstream)> work, std::span<const event_ptr> wait_list,
                                placement where) {
    return core_->run_after(work, [&work] { return std::move(work); }, wait_list, where);
}

cuda_backend& cuda_queue::owner() const noexcept {
    return core_->backend;
}
std::uint32_t cuda_queue::device() const noexcept {
    return core_->device;
}

cuda_queue& as_cuda_queue(backend_queue& q, const char* what) {
    auto* cuda = dynamic_cast<cuda_queue*>(&q);
    if (!cuda)
        throw error(errc::invalid_argument,
                    std::string(what) + " belongs to the cuda backend and cannot run on a queue of another backend");
    return *cuda;
}

} // namespace encore::cuda

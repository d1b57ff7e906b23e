#include "native_queue.hpp"

#include "encore/backends/detail/completion_event.hpp"
#include "encore/backends/detail/host_task_pool.hpp"
#include "encore/backends/detail/sanitizer_annotations.hpp"
#include "encore/backends/native/command_execution.hpp"
#include "encore/backends/native/detail/tbb_handoff.hpp"
#include "encore/backends/native/kernel_launch.hpp"
#include "encore/backends/native/native_backend.hpp"
#include "encore/graph/error.hpp"

namespace encore::native {

// One eager command on its way through the arena; it keeps itself alive (`self`) until its task has run. It runs
// once: on the worker that runs its task, or earlier on a thread that drives a later graph launch
// (detail/start_order.hpp), whichever claims it first.
struct detail::eager_work : ordered_start {
    eager_work(command command_, std::shared_ptr<encore::detail::completion_event> d, std::shared_ptr<error_sink> e,
               native_backend& b)
        : c(std::move(command_)), done(std::move(d)), errors(std::move(e)), backend(b) {}
    command c;
    std::shared_ptr<encore::detail::completion_event> done;
    std::shared_ptr<error_sink> errors;
    native_backend& backend;
    std::shared_ptr<eager_work> self;

    void run() noexcept {
        done->mark_running();
        try {
            execute(c);
        } catch (...) {
            errors->report(std::current_exception());
        }
        done->complete();
    }
};

void detail::run_eager(eager_work& work) noexcept {
    const auto keep = std::move(work.self);
    if (!work.claim()) return; // a launch's driver ran it
    work.backend.start_order().started(work);
    work.run();
}

void detail::run_claimed_eager(ordered_start& s) noexcept {
    static_cast<eager_work&>(s).run();
}

native_queue::native_queue(native_backend& backend, const queue_properties& properties,
                           std::shared_ptr<error_sink> errors)
    : backend_(backend), properties_(properties), errors_(std::move(errors)) {}

event_ptr native_queue::submit(command c, std::span<const event_ptr> wait_list) {
    if (auto* k = std::get_if<kernel_command>(&c)) check_kernel(*k, backend_.properties(0));
    if (auto* n = std::get_if<native_graph_command>(&c)) refuse_native_graph(*n);
    switch (kind_of(c)) {
    case command_kind::host_task:
        return encore::detail::launch_host_task(std::get<host_task_command>(std::move(c)).task, wait_list,
                                                errors_, properties_.enable_profiling);
    case command_kind::barrier:
    case command_kind::empty: {
        auto done = std::make_shared<encore::detail::completion_event>(properties_.enable_profiling);
        encore::detail::when_all(wait_list, [done] {
            done->mark_running();
            done->complete();
        });
        return done;
    }
    default:
        break;
    }
    auto done = std::make_shared<encore::detail::completion_event>(properties_.enable_profiling);
    auto work = std::make_shared<detail::eager_work>(std::move(c), done, errors_, backend_);
    encore::detail::when_all(wait_list, [work, backend = &backend_] {
        work->self = work;
        work->owner = work;
        backend->start_order().enqueued(*work);
        ENCORE_TSAN_RELEASE(work.get());
        backend->arena().enqueue(detail::eager_task{work.get()});
    });
    return done;
}

native_queue& as_native_queue(backend_queue& q, const char* what) {
    auto* native = dynamic_cast<native_queue*>(&q);
    if (!native)
        throw error(errc::invalid_argument,
                    std::string(what) +
                        " belongs to the native backend and cannot run on a queue of another backend");
    return *native;
}

} // namespace encore::native

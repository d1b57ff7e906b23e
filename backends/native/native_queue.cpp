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

// One eager command on its way through the arena; it keeps itself alive (`self`) until its task has run.
struct detail::eager_work {
    command c;
    std::shared_ptr<encore::detail::completion_event> done;
    std::shared_ptr<error_sink> errors;
    std::shared_ptr<eager_work> self;
};

void detail::run_eager(eager_work& work) noexcept {
    const auto keep = std::move(work.self);
    work.done->mark_running();
    try {
        execute(work.c);
    } catch (...) {
        work.errors->report(std::current_exception());
    }
    work.done->complete();
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
    auto work =
        std::make_shared<detail::eager_work>(detail::eager_work{std::move(c), done, errors_, nullptr});
    encore::detail::when_all(wait_list, [work, arena = &backend_.arena()] {
        work->self = work;
        ENCORE_TSAN_RELEASE(work.get());
        arena->enqueue(detail::eager_task{work.get()});
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

#include "sycl/event.hpp"

#include <algorithm>

#include "sycl/detail/engine_error.hpp"
#include "sycl/detail/queue_impl.hpp"

namespace sycl {
inline namespace _V1 {

void event::require_not_graph_limited(const char* call) const {
    if (node_)
        throw exception(errc::invalid, std::string("event::") + call +
                                           ": the event was returned while recording a graph; it can only be a "
                                           "dependency of later submissions recorded into that graph");
}

void event::wait() {
    require_not_graph_limited("wait");
    detail::translate_errors([&] { engine_.wait(); });
}

void event::wait(const std::vector<event>& events) {
    for (auto e : events) e.wait();
}

void event::wait_and_throw() {
    wait();
    if (auto q = queue_.lock()) q->throw_asynchronous();
}

void event::wait_and_throw(const std::vector<event>& events) {
    for (auto e : events) e.wait_and_throw();
}

backend event::get_backend() const noexcept { return backend_; }

std::uint64_t event::ext_encore_context_id() const noexcept {
    if (context_id_ != 0) return context_id_;
    auto queue = queue_.lock();
    return queue ? queue->ctx.engine_id() : 0;
}

std::vector<event> event::get_wait_list() {
    require_not_graph_limited("get_wait_list");
    std::vector<event> out;
    if (only_wait_.state()) out.emplace_back(only_wait_, queue_, backend_);
    if (!waits_) return out;
    for (const auto& w : *waits_)
        if (std::none_of(out.begin(), out.end(), [&](const event& o) { return o.engine() == w; }))
            out.emplace_back(w, queue_, backend_);
    return out;
}

void event::set_wait_list(std::span<const encore::event> waits) {
    only_wait_ = {};
    waits_.reset();
    if (waits.size() == 1)
        only_wait_ = waits.front();
    else if (!waits.empty())
        waits_ = std::make_shared<const std::vector<encore::event>>(waits.begin(), waits.end());
}

template <> info::event_command_status event::get_info<info::event::command_execution_status>() const {
    require_not_graph_limited("get_info");
    switch (engine_.status()) {
    case encore::event_status::submitted: return info::event_command_status::submitted;
    case encore::event_status::running: return info::event_command_status::running;
    case encore::event_status::complete: return info::event_command_status::complete;
    }
    return info::event_command_status::complete;
}

namespace {
encore::profiling_timestamps timestamps_of(const encore::event& e) {
    if (!e.state() || !e.state()->has_profiling())
        throw exception(errc::invalid, "get_profiling_info: the event's queue was not made with "
                                       "sycl::property::queue::enable_profiling");
    return detail::translate_errors([&] { return e.profiling(); });
}
} // namespace

template <> std::uint64_t event::get_profiling_info<info::event_profiling::command_submit>() const {
    require_not_graph_limited("get_profiling_info");
    if (no_profiling_reason_) throw exception(errc::invalid, no_profiling_reason_);
    const auto t = timestamps_of(engine_);
    return tag_ ? t.end : t.submit;
}
template <> std::uint64_t event::get_profiling_info<info::event_profiling::command_start>() const {
    require_not_graph_limited("get_profiling_info");
    if (no_profiling_reason_) throw exception(errc::invalid, no_profiling_reason_);
    const auto t = timestamps_of(engine_);
    return tag_ ? t.end : t.start;
}
template <> std::uint64_t event::get_profiling_info<info::event_profiling::command_end>() const {
    require_not_graph_limited("get_profiling_info");
    if (no_profiling_reason_) throw exception(errc::invalid, no_profiling_reason_);
    return timestamps_of(engine_).end;
}

} // namespace _V1
} // namespace sycl

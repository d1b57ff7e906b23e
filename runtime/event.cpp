#include "event.hpp"

#include "encore/graph/error.hpp"

namespace encore {

event_status event::status() const noexcept {
    return state_ ? state_->status() : event_status::complete;
}

void event::wait() const {
    if (state_) state_->wait();
}

void event::wait(std::span<const event> events) {
    for (const auto& e : events)
        e.wait();
}

profiling_timestamps event::profiling() const {
    if (!state_)
        throw error(errc::invalid_argument, "event profiling: a default-constructed event ran no work");
    if (!state_->has_profiling())
        throw error(errc::invalid_argument,
                    "event profiling: the event's queue was created without enable_profiling");
    state_->wait();
    return state_->timestamps();
}

} // namespace encore

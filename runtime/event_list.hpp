// encore::event_list — the dependencies of one submission: a borrowed view of events.
//
// Every submitting call takes one, so a caller can pass nothing, one event, a braced list, a vector or a
// span. It borrows: the events must outlive the call, which the braced list's temporaries do.
//
//     q.memcpy(dst, src, n, {a, b});
//     q.host_task(task, events_vector);
#pragma once

#include <initializer_list>
#include <span>
#include <vector>

#include "encore/runtime/event.hpp"

namespace encore {

class event_list {
public:
    event_list() = default;
    event_list(const event& e) : first_(&e), size_(1) {}
    // The braced list's array lives until the end of the full expression holding the call: longer than we
    // look.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
    event_list(std::initializer_list<event> events) : first_(events.begin()), size_(events.size()) {}
#pragma GCC diagnostic pop
    event_list(std::span<const event> events) : first_(events.data()), size_(events.size()) {}
    event_list(const std::vector<event>& events) : first_(events.data()), size_(events.size()) {}

    const event* begin() const noexcept {
        return first_;
    }
    const event* end() const noexcept {
        return first_ + size_;
    }
    std::size_t size() const noexcept {
        return size_;
    }
    bool empty() const noexcept {
        return size_ == 0;
    }

private:
    const event* first_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace encore

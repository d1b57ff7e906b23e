#include "launch_starter.hpp"

namespace encore::native::detail {

launch_starter::launch_starter() : thread_([this] { run(); }) {}

launch_starter::~launch_starter() {
    stopping_.store(true, std::memory_order_release);
    signal_.fetch_add(1, std::memory_order_release);
    signal_.notify_one();
    thread_.join();
}

void launch_starter::post(start_request& request) noexcept {
    // Treiber stack push; the thread takes the whole stack at once.
    start_request* head = posted_.load(std::memory_order_relaxed);
    do
        request.next_posted = head;
    while (!posted_.compare_exchange_weak(head, &request, std::memory_order_release, std::memory_order_relaxed));
    signal_.fetch_add(1, std::memory_order_release);
    signal_.notify_one();
}

void launch_starter::run() noexcept {
    for (;;) {
        // Read before taking the stack: a post after the exchange changes it, so the wait below returns at once.
        const std::uint32_t seen = signal_.load(std::memory_order_acquire);
        start_request* stack = posted_.exchange(nullptr, std::memory_order_acquire);
        if (stack) {
            start_request* in_order = nullptr; // the stack reversed: first posted first
            while (stack) {
                start_request* next = stack->next_posted;
                stack->next_posted = in_order;
                in_order = stack;
                stack = next;
            }
            while (in_order) {
                start_request* next = in_order->next_posted; // start() may end the request's life
                in_order->start();
                in_order = next;
            }
            continue;
        }
        if (stopping_.load(std::memory_order_acquire)) return;
        signal_.wait(seen, std::memory_order_acquire);
    }
}

} // namespace encore::native::detail

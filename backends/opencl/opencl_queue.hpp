// encore::opencl::opencl_queue — an eager queue on one OpenCL command queue (out-of-order where the Encore
// queue is and the device allows it; the runtime orders in-order queues through their wait lists anyway).
//
// submit() turns the wait list into cl_events (wait_list_events): events of this device's context are waited
// on directly; events of other backends (a native host task, another device) become user events that their
// on_complete callback completes, so submit never blocks and the command is enqueued right away. Each command
// answers with an opencl_event; a command that does nothing and waits for nothing answers with an event that
// is complete already.
//
//     auto q = backend.create_queue(0, {.in_order = true}, errors);
//     q->submit(encore::memset_command{p, 0, 4096}, {})->wait();
#pragma once

#include <array>
#include <memory>
#include <span>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/opencl/opencl_event.hpp"

namespace encore::opencl {

class opencl_backend;

// The cl_events to wait for before work of `context`; owns the user events it made for foreign events. A list
// longer than the inline storage borrows `spare` (when given) and hands it back with its capacity: a queue that
// submits a large join again and again allocates once (a large allocation per submission also made glibc
// consolidate the free chunks PoCL left, about 250,000 instructions each time on the 2-core machine). One
// wait_list_events at a time per spare.
class wait_list_events {
public:
    wait_list_events(const detail::api& cl, cl_context context, std::span<const event_ptr> wait_list,
                     std::vector<cl_event>* spare = nullptr);
    ~wait_list_events();
    wait_list_events(const wait_list_events&) = delete;
    wait_list_events& operator=(const wait_list_events&) = delete;
    std::span<const cl_event> events() const noexcept {
        return {spilled_.empty() ? inline_.data() : spilled_.data(), count_};
    }

private:
    void collect(cl_context context, std::span<const event_ptr> wait_list);
    void add(cl_event e);
    void release() noexcept; // the user events; the spilled list's storage back to the spare

    const detail::api& cl_;
    std::array<cl_event, 8> inline_{}; // most wait lists are short: no allocation
    std::vector<cl_event> spilled_;
    std::size_t count_ = 0;
    std::vector<cl_event> user_events_; // one reference each, released after the enqueue
    std::vector<cl_event>* spare_;
};

class opencl_queue final : public backend_queue {
public:
    opencl_queue(opencl_backend& backend, std::uint32_t device, const queue_properties& properties,
                 std::shared_ptr<error_sink> errors);
    event_ptr submit(command c, std::span<const event_ptr> wait_list) override;
    event_ptr submit_kernel(const kernel_command& k, std::span<const event_ptr> wait_list) override;

    opencl_backend& owner() const noexcept { return backend_; }
    std::uint32_t device() const noexcept { return device_; }
    bool profiling() const noexcept { return properties_.enable_profiling; }
    const std::shared_ptr<error_sink>& errors() const noexcept { return errors_; }
    // The event of work enqueued on `link` (takes `e` over), made right after its enqueue call returned; with
    // profiling, `submitted_ns` and `queued_ns` as opencl_event takes them (host clock).
    event_ptr wrap(cl_event e, const std::shared_ptr<queue_link>& link, std::uint64_t submitted_ns,
                   std::uint64_t queued_ns) const;
    // The host clock where the queue profiles (0 elsewhere: no clock read on the common path).
    std::uint64_t profiling_now() const noexcept;

private:
    // The event of `e` (a command enqueued at `handed`), with a marker where one is due.
    event_ptr made(cl_event e, std::uint64_t handed);

    opencl_backend& backend_;
    const std::uint32_t device_;
    const queue_properties properties_;
    std::shared_ptr<error_sink> errors_;
    std::shared_ptr<queue_link> link_;
    const bool marks_; // out of order, on a device that uses markers (queue_link::mark)
    std::vector<cl_event> spare_wait_list_; // what wait lists of submit and submit_kernel borrow (one at a time)
};

// `queue` as an opencl_queue of `backend`'s `device`; throws invalid_argument otherwise (`what` names the
// caller).
opencl_queue& as_opencl_queue(backend_queue& queue, const opencl_backend& backend, std::uint32_t device,
                              const char* what);

} // namespace encore::opencl

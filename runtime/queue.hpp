// encore::queue — where work is submitted: eagerly, one command at a time, or as launches of executable
// graphs.
//
// A queue belongs to one device. Out-of-order (the default), a command waits only for the events it is given;
// an in-order queue also makes each submission wait for the one before it. Every submission returns an event
// and never blocks the calling thread, host tasks included (they run on host threads, never on the
// submitter). A queue is a shared handle: copies refer to the same queue; the last one to go waits for all
// its work.
//
// Errors: what a kernel or a host task throws is kept by the queue (the failed command's event still
// completes, and commands that depend on it still run, as in SYCL). throw_asynchronous() hands the kept
// exceptions to the queue's async handler; without a handler it rethrows the first of them (and drops the
// others) instead of terminating. wait_and_throw() is wait() then throw_asynchronous(). A queue that goes
// away waits for its work and passes errors nobody took to its handler, or else writes each to stderr. Misuse found at submission (an
// invalid command, a graph finalized for another device) throws encore::error from the submitting call.
//
//     encore::queue q({.in_order = true}, [](encore::exception_list errors) { log(errors); });
//     int* data = encore::malloc_shared<int>(n, q);
//     q.parallel_for(encore::range(n), [=](const encore::work_item& it) { data[it.global_id[0]] = 1; });
//     q.host_task([=] { consume(data); });
//     q.wait_and_throw();
#pragma once

#include <cstddef>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "encore/runtime/device.hpp"
#include "encore/runtime/event.hpp"
#include "encore/runtime/event_list.hpp"
#include "encore/runtime/kernel_function.hpp"
#include "encore/graph/command.hpp"

namespace encore {

class executable_graph;

using exception_list = std::vector<std::exception_ptr>;
using async_handler = std::function<void(exception_list)>;

namespace detail {
struct queue_state;
}

class queue {
public:
    queue(); // the default device, out-of-order
    explicit queue(const device& d, queue_properties properties = {}, async_handler handler = {});
    explicit queue(queue_properties properties, async_handler handler = {});

    const device& get_device() const noexcept;
    const queue_properties& properties() const noexcept;
    bool is_in_order() const noexcept { return properties().in_order; }

    // Any command; host tasks run on host threads, subgraphs are finalized and launched as a whole.
    event submit(command c, event_list dependencies = {});
    // A kernel command the caller keeps and submits again: not copied where the backend enqueues it right away
    // (OpenCL, CUDA, HIP); one given away is moved into the command as above.
    event submit(const kernel_command& k, event_list dependencies = {});
    event submit(kernel_command&& k, event_list dependencies = {}) {
        return submit(command{std::move(k)}, dependencies);
    }

    event memcpy(void* destination, const void* source, std::size_t bytes, event_list dependencies = {});
    event memset(void* destination, int value, std::size_t bytes, event_list dependencies = {});
    template <typename T>
    event fill(T* destination, const T& pattern, std::size_t count, event_list dependencies = {}) {
        fill_command f{destination, std::vector<std::byte>(sizeof(T)), count};
        std::memcpy(f.pattern.data(), &pattern, sizeof(T));
        return submit(std::move(f), dependencies);
    }
    event prefetch(const void* pointer, std::size_t bytes, event_list dependencies = {});
    event mem_advise(const void* pointer, std::size_t bytes, int advice, event_list dependencies = {});
    event parallel_for(const nd_range& range, std::shared_ptr<const kernel> k,
                       std::vector<kernel_argument> arguments = {}, event_list dependencies = {});
    // A kernel without arguments (a callable kernel that captures what it needs) after `dependencies`.
    event parallel_for(const nd_range& range, std::shared_ptr<const kernel> k, event_list dependencies);
    template <work_item_function F>
    event parallel_for(const nd_range& range, F function, event_list dependencies = {}) {
        return parallel_for(range, make_kernel("parallel_for", std::move(function)), {}, dependencies);
    }
    event host_task(std::function<void()> task, event_list dependencies = {});
    // Completes when `dependencies` have, or, with none, when everything submitted before it has (SYCL's
    // ext_oneapi_submit_barrier).
    event barrier(event_list dependencies = {});
    // Runs every node of `g` once. Launches of one executable graph run one after the other, in launch order.
    event launch(executable_graph& g, event_list dependencies = {});

    // Whether everything submitted so far has completed (a snapshot: work may complete right after). Never blocks.
    bool empty() const;
    // Blocks until everything submitted so far has completed. Does not throw what the work threw.
    void wait();
    void wait_and_throw();
    void throw_asynchronous();

    friend bool operator==(const queue& a, const queue& b) noexcept { return a.state_ == b.state_; }

private:
    std::shared_ptr<detail::queue_state> state_;
};

} // namespace encore

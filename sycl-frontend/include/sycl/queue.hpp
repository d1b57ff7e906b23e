// sycl::queue (SYCL 2020 section 4.6.5): where command groups are submitted, with the shortcut member functions
// of section 4.6.5.2.
//
// A queue runs on one device of one context (by default its platform's default context, so queues of one device
// share USM allocations). Out-of-order unless made with property::queue::in_order; events carry profiling
// times with property::queue::enable_profiling. What kernels and host tasks throw goes to the queue's async
// handler (or its context's) at wait_and_throw/throw_asynchronous; with neither, Encore rethrows the first of
// them from there. Every call that is given bad arguments throws sycl::exception with the specification's errc.
//
//     sycl::queue q{sycl::cpu_selector_v, sycl::property::queue::in_order{}};
//     float* x = sycl::malloc_shared<float>(n, q);
//     q.parallel_for(n, [=](sycl::id<1> i) { x[i] = i; });
//     q.wait_and_throw();
#pragma once

#include <memory>
#include <vector>

#include "detail/queue_impl.hpp"
#include "handler.hpp"
#include "usm.hpp"

#define SYCL_KHR_QUEUE_EMPTY_QUERY 1

namespace sycl {
inline namespace _V1 {

namespace info::queue {
// clang-format off
struct context { using return_type = sycl::context; };
struct device { using return_type = sycl::device; };
// clang-format on
} // namespace info::queue

namespace ext::oneapi::experimental {
enum class queue_state { executing, recording };
}

class queue {
public:
    explicit queue(const property_list& p = {}) : queue(device(), async_handler{}, p) {}
    explicit queue(const async_handler& h, const property_list& p = {}) : queue(device(), h, p) {}
    template <typename Selector>
        requires std::is_invocable_r_v<int, const Selector&, const device&>
    explicit queue(const Selector& selector, const property_list& p = {}) : queue(device(selector), async_handler{}, p) {}
    template <typename Selector>
        requires std::is_invocable_r_v<int, const Selector&, const device&>
    explicit queue(const Selector& selector, const async_handler& h, const property_list& p = {})
        : queue(device(selector), h, p) {}
    explicit queue(const device& d, const property_list& p = {}) : queue(d, async_handler{}, p) {}
    explicit queue(const device& d, const async_handler& h, const property_list& p = {});
    explicit queue(const context& c, const device& d, const property_list& p = {}) : queue(c, d, async_handler{}, p) {}
    explicit queue(const context& c, const device& d, const async_handler& h, const property_list& p = {});
    template <typename Selector>
        requires std::is_invocable_r_v<int, const Selector&, const device&>
    explicit queue(const context& c, const Selector& selector, const property_list& p = {})
        : queue(c, device(selector), async_handler{}, p) {}
    template <typename Selector>
        requires std::is_invocable_r_v<int, const Selector&, const device&>
    explicit queue(const context& c, const Selector& selector, const async_handler& h, const property_list& p = {})
        : queue(c, device(selector), h, p) {}

    backend get_backend() const noexcept { return impl_->dev.get_backend(); }
    context get_context() const { return impl_->ctx; }
    device get_device() const { return impl_->dev; }
    bool is_in_order() const noexcept { return impl_->engine.is_in_order(); }
    template <typename Descriptor> typename Descriptor::return_type get_info() const {
        if constexpr (std::is_same_v<Descriptor, info::queue::context>)
            return get_context();
        else {
            static_assert(std::is_same_v<Descriptor, info::queue::device>, "Encore answers info::queue::context and device");
            return get_device();
        }
    }
    template <typename P> bool has_property() const noexcept { return impl_->properties.template has_property<P>(); }
    template <typename P> P get_property() const { return impl_->properties.template get_property<P>(); }

    template <typename F> event submit(F&& cgf) { return impl_->submit(std::forward<F>(cgf)); }
    // When submitting to this queue throws a sycl::exception, the command group function runs again for
    // `secondary` (so it may run twice) and its event is returned; what that submission throws propagates.
    // Errors of the work itself, found after submission, reach the async handler as usual.
    template <typename F> event submit(F cgf, const queue& secondary) {
        try {
            return impl_->submit(cgf);
        } catch (const exception&) {
            return secondary.impl_->submit(cgf);
        }
    }

    // sycl_khr_queue_empty_query (and DPC++'s name for it): whether every command submitted to this queue has
    // completed. Never blocks; the answer may be stale as soon as it is returned.
    bool khr_empty() const;
    bool ext_oneapi_empty() const { return khr_empty(); }

    // Blocks until everything submitted has completed. Throws errc::invalid while the queue records a graph.
    void wait() { impl_->wait(); }
    void wait_and_throw() {
        wait();
        throw_asynchronous();
    }
    void throw_asynchronous() { impl_->throw_asynchronous(); }

    // Shortcuts: each is one command group; `deps` are its dependencies.
    template <typename KernelName = detail::auto_name, typename... Rest> event single_task(Rest&&... rest) {
        return with_dependencies(
            [](handler& h, auto&&... r) { h.single_task<KernelName>(std::forward<decltype(r)>(r)...); },
            std::forward<Rest>(rest)...);
    }
    template <typename KernelName = detail::auto_name, typename... Rest> event parallel_for(range<1> r, Rest&&... rest) {
        return parallel_for_in<KernelName>(r, std::forward<Rest>(rest)...);
    }
    template <typename KernelName = detail::auto_name, typename... Rest> event parallel_for(range<2> r, Rest&&... rest) {
        return parallel_for_in<KernelName>(r, std::forward<Rest>(rest)...);
    }
    template <typename KernelName = detail::auto_name, typename... Rest> event parallel_for(range<3> r, Rest&&... rest) {
        return parallel_for_in<KernelName>(r, std::forward<Rest>(rest)...);
    }
    template <typename KernelName = detail::auto_name, int D, typename... Rest>
    event parallel_for(nd_range<D> r, Rest&&... rest) {
        return parallel_for_in<KernelName>(r, std::forward<Rest>(rest)...);
    }

    event memcpy(void* destination, const void* source, std::size_t bytes, const std::vector<event>& deps = {}) {
        return submit([&](handler& h) {
            h.depends_on(deps);
            h.memcpy(destination, source, bytes);
        });
    }
    event memcpy(void* destination, const void* source, std::size_t bytes, event dep) {
        return memcpy(destination, source, bytes, std::vector<event>{dep});
    }
    // sycl_ext_oneapi_device_global's copies (handler.hpp), after `deps`.
    template <typename T, typename P>
    event memcpy(ext::oneapi::experimental::device_global<T, P>& destination, const void* source,
                 std::size_t bytes = sizeof(T), std::size_t offset = 0, const std::vector<event>& deps = {}) {
        return submit_after(deps, [&](handler& h) { h.memcpy(destination, source, bytes, offset); });
    }
    template <typename T, typename P>
    event memcpy(ext::oneapi::experimental::device_global<T, P>& destination, const void* source, std::size_t bytes,
                 std::size_t offset, event dep) {
        return memcpy(destination, source, bytes, offset, std::vector<event>{dep});
    }
    template <typename T, typename P>
    event memcpy(void* destination, const ext::oneapi::experimental::device_global<T, P>& source,
                 std::size_t bytes = sizeof(T), std::size_t offset = 0, const std::vector<event>& deps = {}) {
        return submit_after(deps, [&](handler& h) { h.memcpy(destination, source, bytes, offset); });
    }
    template <typename T, typename P>
    event memcpy(void* destination, const ext::oneapi::experimental::device_global<T, P>& source, std::size_t bytes,
                 std::size_t offset, event dep) {
        return memcpy(destination, source, bytes, offset, std::vector<event>{dep});
    }
    template <typename T, typename P>
    event copy(const std::remove_all_extents_t<T>* source, ext::oneapi::experimental::device_global<T, P>& destination,
               std::size_t count = sizeof(T) / sizeof(std::remove_all_extents_t<T>), std::size_t start = 0,
               const std::vector<event>& deps = {}) {
        return submit_after(deps, [&](handler& h) { h.copy(source, destination, count, start); });
    }
    template <typename T, typename P>
    event copy(const std::remove_all_extents_t<T>* source, ext::oneapi::experimental::device_global<T, P>& destination,
               std::size_t count, std::size_t start, event dep) {
        return copy(source, destination, count, start, std::vector<event>{dep});
    }
    template <typename T, typename P>
    event copy(const ext::oneapi::experimental::device_global<T, P>& source, std::remove_all_extents_t<T>* destination,
               std::size_t count = sizeof(T) / sizeof(std::remove_all_extents_t<T>), std::size_t start = 0,
               const std::vector<event>& deps = {}) {
        return submit_after(deps, [&](handler& h) { h.copy(source, destination, count, start); });
    }
    template <typename T, typename P>
    event copy(const ext::oneapi::experimental::device_global<T, P>& source, std::remove_all_extents_t<T>* destination,
               std::size_t count, std::size_t start, event dep) {
        return copy(source, destination, count, start, std::vector<event>{dep});
    }

    template <typename T>
    event copy(const T* source, T* destination, std::size_t count, const std::vector<event>& deps = {}) {
        return memcpy(destination, source, count * sizeof(T), deps);
    }
    template <typename T> event copy(const T* source, T* destination, std::size_t count, event dep) {
        return copy(source, destination, count, std::vector<event>{dep});
    }
    event memset(void* destination, int value, std::size_t bytes, const std::vector<event>& deps = {}) {
        return submit([&](handler& h) {
            h.depends_on(deps);
            h.memset(destination, value, bytes);
        });
    }
    event memset(void* destination, int value, std::size_t bytes, event dep) {
        return memset(destination, value, bytes, std::vector<event>{dep});
    }
    template <typename T>
    event fill(void* destination, const T& pattern, std::size_t count, const std::vector<event>& deps = {}) {
        return submit([&](handler& h) {
            h.depends_on(deps);
            h.fill(destination, pattern, count);
        });
    }
    template <typename T> event fill(void* destination, const T& pattern, std::size_t count, event dep) {
        return fill(destination, pattern, count, std::vector<event>{dep});
    }
    event prefetch(const void* pointer, std::size_t bytes, const std::vector<event>& deps = {}) {
        return submit([&](handler& h) {
            h.depends_on(deps);
            h.prefetch(pointer, bytes);
        });
    }
    event prefetch(const void* pointer, std::size_t bytes, event dep) {
        return prefetch(pointer, bytes, std::vector<event>{dep});
    }
    event mem_advise(const void* pointer, std::size_t bytes, int advice, const std::vector<event>& deps = {}) {
        return submit([&](handler& h) {
            h.depends_on(deps);
            h.mem_advise(pointer, bytes, advice);
        });
    }
    event mem_advise(const void* pointer, std::size_t bytes, int advice, event dep) {
        return mem_advise(pointer, bytes, advice, std::vector<event>{dep});
    }
    // Shortcuts for the explicit memory operations on (placeholder) accessors: one command group each that
    // requires the accessors and runs handler::copy, update_host or fill.
    template <typename T, int D, access_mode M, target Tg, access::placeholder P, typename U>
    event copy(accessor<T, D, M, Tg, P> source, std::shared_ptr<U> destination) {
        return submit([&](handler& h) { h.copy(source, destination); });
    }
    template <typename T, typename U, int D, access_mode M, target Tg, access::placeholder P>
    event copy(std::shared_ptr<T> source, accessor<U, D, M, Tg, P> destination) {
        return submit([&](handler& h) { h.copy(source, destination); });
    }
    template <typename T, int D, access_mode M, target Tg, access::placeholder P, typename U>
    event copy(accessor<T, D, M, Tg, P> source, U* destination) {
        return submit([&](handler& h) { h.copy(source, destination); });
    }
    template <typename T, typename U, int D, access_mode M, target Tg, access::placeholder P>
    event copy(const T* source, accessor<U, D, M, Tg, P> destination) {
        return submit([&](handler& h) { h.copy(source, destination); });
    }
    template <typename T, int D, access_mode M, target Tg, access::placeholder P, typename U, int D2, access_mode M2,
              target Tg2, access::placeholder P2>
    event copy(accessor<T, D, M, Tg, P> source, accessor<U, D2, M2, Tg2, P2> destination) {
        return submit([&](handler& h) { h.copy(source, destination); });
    }
    template <typename T, int D, access_mode M, target Tg, access::placeholder P>
    event update_host(accessor<T, D, M, Tg, P> a) {
        return submit([&](handler& h) { h.update_host(a); });
    }
    template <typename T, int D, access_mode M, target Tg, access::placeholder P>
    event fill(accessor<T, D, M, Tg, P> destination, const T& value) {
        return submit([&](handler& h) { h.fill(destination, value); });
    }

    event ext_oneapi_submit_barrier() {
        return submit([](handler& h) { h.ext_oneapi_barrier(); });
    }
    event ext_oneapi_submit_barrier(const std::vector<event>& events) {
        return submit([&](handler& h) { h.ext_oneapi_barrier(events); });
    }

    // sycl_ext_oneapi_in_order_queue_events: the next command group submitted to this in-order queue also depends
    // on `e` (queue::wait waits for it when no command group came). An event returned while recording a graph
    // makes that command group's queue join the recording (transitive queue recording); errc::invalid on an
    // out-of-order queue.
    void ext_oneapi_set_external_event(const event& e) { impl_->set_external_event(e); }
    // sycl_ext_oneapi_prod: a hint to start submitted work; Encore's queues start work when it is submitted, so
    // there is nothing to do (also while the queue records a graph).
    void ext_oneapi_prod() {}

    // sycl_ext_oneapi_graph (defined in sycl/ext/oneapi/experimental/graph.hpp).
    ext::oneapi::experimental::queue_state ext_oneapi_get_state() const;
    ext::oneapi::experimental::command_graph<ext::oneapi::experimental::graph_state::modifiable>
    ext_oneapi_get_graph() const;
    event ext_oneapi_graph(ext::oneapi::experimental::command_graph<ext::oneapi::experimental::graph_state::executable>& g);
    event ext_oneapi_graph(ext::oneapi::experimental::command_graph<ext::oneapi::experimental::graph_state::executable>& g,
                           event dep);
    event ext_oneapi_graph(ext::oneapi::experimental::command_graph<ext::oneapi::experimental::graph_state::executable>& g,
                           const std::vector<event>& deps);

    friend bool operator==(const queue& a, const queue& b) noexcept { return a.impl_ == b.impl_; }

    // Encore: the shared state, for the graph extension.
    const std::shared_ptr<detail::queue_impl>& impl() const noexcept { return impl_; }

private:
    // A command group that waits for `deps`, then makes one handler call.
    template <typename Call> event submit_after(const std::vector<event>& deps, Call call) {
        return submit([&](handler& h) {
            h.depends_on(deps);
            call(h);
        });
    }
    // Calls body(h, rest...) in a command group, first taking a leading event or vector of events off `rest` as
    // dependencies.
    template <typename Body, typename First, typename... Rest> event with_dependencies(Body body, First&& first, Rest&&... rest) {
        return submit([&](handler& h) {
            if constexpr (detail::is_event_list_v<First>) {
                h.depends_on(first);
                body(h, std::forward<Rest>(rest)...);
            } else
                body(h, std::forward<First>(first), std::forward<Rest>(rest)...);
        });
    }
    template <typename KernelName, typename R, typename... Rest> event parallel_for_in(const R& r, Rest&&... rest) {
        return with_dependencies([&r](handler& h, auto&&... more) { h.parallel_for<KernelName>(r, std::forward<decltype(more)>(more)...); },
                                 std::forward<Rest>(rest)...);
    }

    std::shared_ptr<detail::queue_impl> impl_;
};

template <typename T, usm::alloc Kind, std::size_t Alignment>
usm_allocator<T, Kind, Alignment>::usm_allocator(const queue& q, const property_list&)
    : context_(q.get_context()), device_(q.get_device()) {}

} // namespace _V1
} // namespace sycl

template <> struct std::hash<sycl::queue> {
    std::size_t operator()(const sycl::queue& q) const noexcept { return std::hash<const void*>()(q.impl().get()); }
};

// sycl::handler (SYCL 2020 section 4.9.4): what a command group function receives. It collects the group's
// dependencies (depends_on, accessors, require) and its one command: a kernel (single_task, parallel_for over a
// range or an nd_range, with reductions), a host task, a USM copy, fill, memset, prefetch or mem_advise, an
// accessor copy or fill, or a barrier. A second command in one group throws errc::invalid; a group without one
// completes once its dependencies have.
//
//     q.submit([&](sycl::handler& h) {
//         h.depends_on(e);
//         sycl::accessor a{buf, h, sycl::read_write};
//         h.parallel_for<class scale>(sycl::range<1>{n}, [=](sycl::id<1> i) { a[i] *= 2; });
//     });
#pragma once

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "accessor.hpp"
#include "device.hpp"
#include "detail/engine_range.hpp"
#include "detail/kernel_wrapper.hpp"
#include "detail/lambda_kernel_id.hpp"
#include "event.hpp"
#include "ext/oneapi/device_global/device_global.hpp"
#include "ext/oneapi/experimental/raw_kernel_arg.hpp"
#include "ext/oneapi/kernel_properties/properties.hpp"
#include "encore/backends/detail/block_pool.hpp"
#include "encore/graph/command.hpp"
#include "kernel.hpp"
#include "kernel_bundle.hpp"
#include "reduction.hpp"
#include "specialization_id.hpp"

namespace sycl {
inline namespace _V1 {

class queue;
class interop_handle {
public:
    backend get_backend() const noexcept { return backend_; }
    explicit interop_handle(backend b) : backend_(b) {}

private:
    backend backend_;
};

namespace ext::oneapi::experimental {
enum class graph_state { modifiable, executable };
template <graph_state State> class command_graph;
} // namespace ext::oneapi::experimental

namespace detail {
struct queue_impl;
struct executable_impl;
struct dynamic_parameter_impl;
struct dynamic_command_group_impl;
struct async_block;
struct requirement {
    buffer_state* buffer;
    access_mode mode;
};
// A command group's events and buffers: most name none or one, so they live in the handler.
using event_vector = boost::container::small_vector<event, 2>;
using requirement_vector = boost::container::small_vector<requirement, 4>;
// parallel_for(range, const kernel&) is its own overload (Clang finds the variadic one as good a match).
template <typename... Rest>
inline constexpr bool is_kernel_object = sizeof...(Rest) == 1 && (std::is_same_v<std::remove_cvref_t<Rest>, kernel> && ...);
template <typename T> inline constexpr bool is_event_list_v =
    std::is_same_v<std::remove_cvref_t<T>, event> || std::is_same_v<std::remove_cvref_t<T>, std::vector<event>>;
} // namespace detail

class handler {
public:
    handler(const handler&) = delete;
    handler& operator=(const handler&) = delete;

    void depends_on(event e) { collected_.dependencies.push_back(std::move(e)); }
    void depends_on(const std::vector<event>& events) {
        collected_.dependencies.insert(collected_.dependencies.end(), events.begin(), events.end());
    }
    // sycl_ext_oneapi_graph: the buffer of a dynamic_parameter of an accessor (only in a graph's command groups).
    template <typename P>
        requires requires(const P& p) { p.ext_encore_impl(); }
    void require(const P& p) {
        require_dynamic(p.ext_encore_impl());
    }
    // Binds a placeholder accessor (or repeats a bound one's requirement) to this command group.
    template <typename T, int D, access_mode M, target Tg, access::placeholder P> void require(accessor<T, D, M, Tg, P> a) {
        if (!a.buffer_state())
            throw exception(errc::invalid, "handler::require: the accessor is empty (default-constructed)");
        detail::handler_access::require(*this, *a.buffer_state(), M);
    }

    // Kernels.
    // With kernel properties (sycl_ext_oneapi_kernel_properties: sycl/ext/oneapi/kernel_properties/properties.hpp).
    template <typename KernelName = detail::auto_name, typename Properties, typename K>
        requires ext::oneapi::experimental::is_property_list_v<Properties>
    void single_task(const Properties& properties, const K& k) {
        encore::nd_range r{};
        detail::apply_kernel_properties(properties, r, device_, kernel_name_of<KernelName>(k), extras_);
        if constexpr (std::is_same_v<K, kernel>)
            single_task(k);
        else
            single_task<KernelName>(k);
    }
    // Hierarchical kernels: `k(group<D>)` runs the work-group scope of each of `groups` work-groups of `local`
    // items (of {1, ..., 1, 32} when no size is given), calling group::parallel_for_work_item for the work-items
    // (sycl/item.hpp says how each backend runs them).
    template <typename KernelName = detail::auto_name, int D, typename K>
    void parallel_for_work_group(range<D> groups, const K& k) {
        range<D> local;
        for (int d = 0; d < D; ++d) local[d] = d == D - 1 ? 32 : 1;
        parallel_for_work_group<KernelName>(groups, local, k);
    }
    template <typename KernelName = detail::auto_name, int D, typename K>
    void parallel_for_work_group(range<D> groups, range<D> local, const K& k) {
        launch_with<KernelName, detail::launch::work_group, D>(
            detail::to_engine(nd_range<D>(groups * local, local), "parallel_for_work_group"), k);
    }
    template <typename KernelName = detail::auto_name, typename K> void single_task(const K& k) {
        if constexpr (requires { k.get(ext::oneapi::experimental::properties_tag{}); }) {
            encore::nd_range r{};
            detail::apply_kernel_properties(k.get(ext::oneapi::experimental::properties_tag{}), r, device_,
                                            kernel_name_of<KernelName>(k), extras_);
        }
        detail::capture_scope capturing(*this);
        set_lambda_kernel(make_lambda_kernel<KernelName, detail::launch::single_task, 1>(k), encore::nd_range{});
    }
    template <typename KernelName = detail::auto_name, typename... Rest>
        requires(!detail::is_kernel_object<Rest...>)
    void parallel_for(range<1> r, Rest&&... rest) {
        parallel_for_range<KernelName>(r, std::forward<Rest>(rest)...);
    }
    template <typename KernelName = detail::auto_name, typename... Rest>
        requires(!detail::is_kernel_object<Rest...>)
    void parallel_for(range<2> r, Rest&&... rest) {
        parallel_for_range<KernelName>(r, std::forward<Rest>(rest)...);
    }
    template <typename KernelName = detail::auto_name, typename... Rest>
        requires(!detail::is_kernel_object<Rest...>)
    void parallel_for(range<3> r, Rest&&... rest) {
        parallel_for_range<KernelName>(r, std::forward<Rest>(rest)...);
    }
    template <typename KernelName = detail::auto_name, int D, typename... Rest>
    void parallel_for(nd_range<D> r, Rest&&... rest) {
        launch_with<KernelName, detail::launch::nd_range, D>(detail::to_engine(r, "parallel_for"), std::forward<Rest>(rest)...);
    }
    // SYCL 1.2.1's range with an offset, deprecated by SYCL 2020.
    template <typename KernelName = detail::auto_name, typename K, int D>
    [[deprecated("SYCL 2020 deprecates the offset")]] void parallel_for(range<D> r, id<D> offset, const K& k) {
        parallel_for_offset<KernelName>(r, offset, k);
    }

    // Specialization constants (sycl/specialization_id.hpp): what this group's kernel reads through its
    // kernel_handler. Both throw errc::invalid when a kernel bundle is bound (use_kernel_bundle: the bundle's
    // values are the group's then); set throws errc::invalid also when the group's values exceed
    // detail::specialization_values::capacity bytes.
    template <auto& S> void set_specialization_constant(const detail::spec_value_t<S>& value) {
        check_no_bundle("set_specialization_constant");
        detail::set_spec_constant<S>(spec_values_, value, "handler::set_specialization_constant");
        spec_set_ = true;
    }
    // The value set for S, else S's default.
    template <auto& S> detail::spec_value_t<S> get_specialization_constant() {
        check_no_bundle("get_specialization_constant");
        return detail::get_spec_constant<S>(spec_values_);
    }
    // The group's kernel comes from `bundle` with its specialization constants. Throws errc::invalid when the
    // bundle's context is not the group's, its devices lack the group's device, or specialization constants were
    // set on this handler; the launch throws errc::kernel_not_supported when the bundle lacks the kernel.
    void use_kernel_bundle(const kernel_bundle<bundle_state::executable>& bundle);

    // Kernel objects, with the arguments given by set_arg(s).
    void single_task(const kernel& k) { set_kernel_object(k, encore::nd_range{}); }
    template <int D> void parallel_for(range<D> r, const kernel& k) { set_kernel_object(k, detail::to_engine(r)); }
    template <int D> void parallel_for(nd_range<D> r, const kernel& k) {
        set_kernel_object(k, detail::to_engine(r, "parallel_for"));
    }
    template <typename T> void set_arg(int index, T&& argument) { set_argument(index, std::forward<T>(argument)); }
    template <typename... Ts> void set_args(Ts&&... arguments) {
        int index = 0;
        (set_argument(index++, std::forward<Ts>(arguments)), ...);
    }

    // A host task runs on a host thread once its dependencies have completed.
    template <typename F> void host_task(F&& f) {
        using task_type = std::decay_t<F>;
        if constexpr (std::is_invocable_v<task_type&, interop_handle>)
            set_command(encore::host_task_command{[f = task_type(std::forward<F>(f)), b = device_.get_backend()]() mutable {
                            f(interop_handle(b));
                        }},
                        "host_task");
        else {
            static_assert(std::is_invocable_v<task_type&>, "host_task: the task must be callable with no arguments "
                                                           "or with a sycl::interop_handle");
            set_command(encore::host_task_command{task_type(std::forward<F>(f))}, "host_task");
        }
    }

    // USM.
    void memcpy(void* destination, const void* source, std::size_t bytes);

    // sycl_ext_oneapi_device_global: copies to and from the instance of the handler's device, `bytes` from
    // `offset` (copy: `count` elements from `start`). errc::invalid when they do not fit in T, or the host pointer
    // is null, or the device has no instance (device code for it was not built).
    template <typename T, typename P>
    void memcpy(ext::oneapi::experimental::device_global<T, P>& destination, const void* source,
                std::size_t bytes = sizeof(T), std::size_t offset = 0) {
        device_global_copy(&destination, sizeof(T), nullptr, source, bytes, offset, "memcpy");
    }
    template <typename T, typename P>
    void memcpy(void* destination, const ext::oneapi::experimental::device_global<T, P>& source,
                std::size_t bytes = sizeof(T), std::size_t offset = 0) {
        device_global_copy(&source, sizeof(T), destination, nullptr, bytes, offset, "memcpy");
    }
    template <typename T, typename P>
    void copy(const std::remove_all_extents_t<T>* source, ext::oneapi::experimental::device_global<T, P>& destination,
              std::size_t count = sizeof(T) / sizeof(std::remove_all_extents_t<T>), std::size_t start = 0) {
        constexpr std::size_t element = sizeof(std::remove_all_extents_t<T>);
        device_global_copy(&destination, sizeof(T), nullptr, source, checked_bytes(count, element, "copy"),
                           checked_bytes(start, element, "copy"), "copy");
    }
    template <typename T, typename P>
    void copy(const ext::oneapi::experimental::device_global<T, P>& source, std::remove_all_extents_t<T>* destination,
              std::size_t count = sizeof(T) / sizeof(std::remove_all_extents_t<T>), std::size_t start = 0) {
        constexpr std::size_t element = sizeof(std::remove_all_extents_t<T>);
        device_global_copy(&source, sizeof(T), destination, nullptr, checked_bytes(count, element, "copy"),
                           checked_bytes(start, element, "copy"), "copy");
    }
    template <typename T> void copy(const T* source, T* destination, std::size_t count) {
        memcpy(destination, source, count * sizeof(T));
    }
    void memset(void* destination, int value, std::size_t bytes);
    template <typename T> void fill(void* destination, const T& pattern, std::size_t count) {
        std::vector<std::byte> bytes(sizeof(T));
        std::memcpy(bytes.data(), &pattern, sizeof(T));
        fill_bytes(destination, std::move(bytes), count);
    }
    void prefetch(const void* pointer, std::size_t bytes);
    void mem_advise(const void* pointer, std::size_t bytes, int advice);

    // Accessors: copies between an accessor's region and USM or host memory, or another accessor, and fills.
    template <typename T, int D, access_mode M, target Tg, access::placeholder P, typename U>
    void copy(accessor<T, D, M, Tg, P> source, U* destination) {
        require(source);
        check_usm(destination, source.byte_size(), "copy", "destination");
        copy_bytes(destination, contiguous(source, "copy"), source.byte_size());
    }
    template <typename T, int D, access_mode M, target Tg, access::placeholder P, typename U>
    void copy(const U* source, accessor<T, D, M, Tg, P> destination) {
        require(destination);
        check_usm(source, destination.byte_size(), "copy", "source");
        copy_bytes(contiguous(destination, "copy"), source, destination.byte_size());
    }
    template <typename T, int D, access_mode M, target Tg, access::placeholder P, typename U, int D2, access_mode M2,
              target Tg2, access::placeholder P2>
    void copy(accessor<T, D, M, Tg, P> source, accessor<U, D2, M2, Tg2, P2> destination) {
        require(source);
        require(destination);
        if (destination.byte_size() < source.byte_size())
            throw exception(errc::invalid, "handler::copy: the destination accessor has " +
                                               std::to_string(destination.byte_size()) + " bytes, the source " +
                                               std::to_string(source.byte_size()));
        copy_bytes(contiguous(destination, "copy"), contiguous(source, "copy"), source.byte_size());
    }
    // With host memory held by a shared_ptr: the command group shares ownership until the copy has run (a
    // host task, which is where shared_ptr memory lives).
    template <typename T, int D, access_mode M, target Tg, access::placeholder P, typename U>
    void copy(accessor<T, D, M, Tg, P> source, std::shared_ptr<U> destination) {
        if (!destination) throw exception(errc::invalid, "handler::copy: the destination shared_ptr is null");
        require(source);
        const T* from = contiguous(source, "copy");
        set_command(encore::host_task_command{[from, destination, bytes = source.byte_size()] {
                        std::memcpy(static_cast<void*>(destination.get()), from, bytes);
                    }},
                    "copy");
    }
    template <typename U, typename T, int D, access_mode M, target Tg, access::placeholder P>
    void copy(std::shared_ptr<U> source, accessor<T, D, M, Tg, P> destination) {
        static_assert(M != access_mode::read, "handler::copy: the destination accessor is read-only");
        if (!source) throw exception(errc::invalid, "handler::copy: the source shared_ptr is null");
        require(destination);
        T* to = contiguous(destination, "copy");
        set_command(encore::host_task_command{[to, source, bytes = destination.byte_size()] {
                        std::memcpy(static_cast<void*>(to), static_cast<const void*>(source.get()), bytes);
                    }},
                    "copy");
    }
    template <typename T, int D, access_mode M, target Tg, access::placeholder P>
    void fill(accessor<T, D, M, Tg, P> destination, const T& value) {
        require(destination);
        fill(contiguous(destination, "fill"), value, destination.size());
    }
    template <typename T, int D, access_mode M, target Tg, access::placeholder P>
    void update_host(accessor<T, D, M, Tg, P> a) {
        require(a); // the storage is host-visible already: ordering is all it needs
    }

    // Waits for `events`, or with none for everything submitted to the queue before (ext_oneapi_submit_barrier).
    void ext_oneapi_barrier();
    void ext_oneapi_barrier(const std::vector<event>& events);

    // sycl_ext_oneapi_graph: runs an executable graph as this group's command.
    void ext_oneapi_graph(ext::oneapi::experimental::command_graph<ext::oneapi::experimental::graph_state::executable>& g);

    // Encore: what the group collected (for the queue and graph implementations).
    struct collected {
        std::optional<encore::command> command;
        const char* command_name = nullptr;
        detail::event_vector dependencies;
        detail::requirement_vector requirements;
        bool barrier_on_everything = false;                  // ext_oneapi_barrier() without events
        std::shared_ptr<detail::executable_impl> executable; // ext_oneapi_graph
        // set_arg with a dynamic_parameter: (argument index, parameter)
        std::vector<std::pair<int, std::shared_ptr<detail::dynamic_parameter_impl>>> dynamic_arguments;
        // require() of (and set_arg with) dynamic_parameters of accessors: their buffers, as of the add.
        std::vector<std::shared_ptr<detail::dynamic_parameter_impl>> dynamic_requirements;
        // sycl_ext_oneapi_async_memory_alloc: the command group allocates (the block, owned until a queue or a
        // graph takes it) or frees `freed`.
        std::shared_ptr<detail::async_block> allocation;
        void* freed = nullptr;
        bool frees = false;
    };
    collected& contents() noexcept { return collected_; }

    // Encore: a handler for a command group of `queue` (null when a graph's add() runs it) on `d` in `c`.
    handler(device d, context c, std::shared_ptr<detail::queue_impl> queue);
    const device& encore_device() const noexcept { return device_; }
    const context& encore_context() const noexcept { return context_; }
    // Encore: the group goes into a graph (its add(), or a queue that records) rather than running eagerly.
    bool ext_encore_in_graph() const;
    // Encore: makes this command group an allocation or a free (async_alloc.hpp); it then holds nothing else.
    void set_async(std::shared_ptr<detail::async_block> allocation, void* freed, bool frees);

    template <typename KernelName, int D, typename... Rest> void parallel_for_range(range<D> r, Rest&&... rest) {
        // parallel_for(range, Rest&&...) is a better match than the deprecated (range, id, kernel) overload, so
        // an offset arrives here.
        if constexpr (sizeof...(Rest) == 2 &&
                      std::is_same_v<std::remove_cvref_t<std::tuple_element_t<0, std::tuple<Rest...>>>, id<D>>)
            parallel_for_offset<KernelName>(r, std::forward<Rest>(rest)...);
        else
            launch_with<KernelName, detail::launch::range, D>(detail::to_engine(r), std::forward<Rest>(rest)...);
    }
    template <typename KernelName, int D, typename K> void parallel_for_offset(range<D> r, id<D> offset, const K& k) {
        auto engine = detail::to_engine(r);
        for (int d = 0; d < D; ++d) engine.offset[d] = offset[d];
        launch_with<KernelName, detail::launch::range, D>(engine, k);
    }

    template <typename KernelName, typename K> static std::string kernel_name_of(const K& k) {
        if constexpr (std::is_same_v<K, kernel>)
            return k.template get_info<info::kernel::function_name>();
        else
            return detail::kernel_name<KernelName, K>();
    }
    // Rest is ([kernel properties,] reductions..., kernel).
    template <typename KernelName, detail::launch Launch, int D, typename First, typename... Rest>
    void launch_with(const encore::nd_range& range, First&& first, Rest&&... rest) {
        if constexpr (sizeof...(Rest) > 0 && ext::oneapi::experimental::is_property_list_v<std::remove_cvref_t<First>>) {
            encore::nd_range r = range;
            const auto& k = std::get<sizeof...(Rest) - 1>(std::forward_as_tuple(rest...));
            detail::apply_kernel_properties(first, r, device_, kernel_name_of<KernelName>(k), extras_);
            launch_kernel<KernelName, Launch, D>(r, std::forward<Rest>(rest)...);
        } else {
            launch_kernel<KernelName, Launch, D>(range, std::forward<First>(first), std::forward<Rest>(rest)...);
        }
    }
    template <typename KernelName, detail::launch Launch, int D, typename... Rest>
    void launch_kernel(const encore::nd_range& range, Rest&&... rest) {
        auto all = std::forward_as_tuple(std::forward<Rest>(rest)...);
        constexpr std::size_t last = sizeof...(Rest) - 1;
        using K = std::decay_t<std::tuple_element_t<last, std::tuple<Rest...>>>;
        const K& k = std::get<last>(all);
        encore::nd_range r = range;
        if constexpr (requires { k.get(ext::oneapi::experimental::properties_tag{}); })
            detail::apply_kernel_properties(k.get(ext::oneapi::experimental::properties_tag{}), r, device_,
                                            kernel_name_of<KernelName>(k), extras_);
#if defined(__SYCL_ID_QUERIES_FIT_IN_INT__)
        detail::check_ids_fit_in_int(r, "parallel_for");
#endif
        if constexpr (std::is_same_v<K, kernel>) {
            static_assert(last == 0, "parallel_for with a kernel object takes no reductions");
            set_kernel_object(k, r);
        } else if constexpr (last == 0) {
            detail::capture_scope capturing(*this);
            set_lambda_kernel(make_lambda_kernel<KernelName, Launch, D>(k), r);
        } else {
            make_reduction_kernel<KernelName, Launch, D, K>(r, k, all, std::make_index_sequence<last>());
        }
    }
    template <typename KernelName, detail::launch Launch, int D, typename K, typename Tuple, std::size_t... I>
    void make_reduction_kernel(const encore::nd_range& r, const K& k, const Tuple& all, std::index_sequence<I...>) {
        static_assert((detail::is_reduction<std::decay_t<std::tuple_element_t<I, Tuple>>>::value && ...),
                      "parallel_for: every argument between the range and the kernel must be a sycl::reduction");
        using kernel_type = detail::reduction_kernel<Launch, D, K, std::decay_t<std::tuple_element_t<I, Tuple>>...>;
        register_lambda<detail::lambda_registration<KernelName, K, kernel_type::takes_handler>>();
        detail::capture_scope capturing(*this);
        const encore::kernel::lasting_name name{detail::kernel_name<KernelName, K>()};
        set_lambda_kernel(std::allocate_shared<kernel_type>(encore::detail::pool_allocator<kernel_type>{}, name, k,
                                                            &spec_values_, std::get<I>(all)...),
                          r);
    }
    // The engine kernel of lambda or function object `k`, with the command group's specialization constants; its
    // kernel_id registered before main. Throws errc::kernel_not_supported when a bound bundle lacks it.
    template <typename KernelName, detail::launch Launch, int D, typename K>
    std::shared_ptr<const encore::kernel> make_lambda_kernel(const K& k) {
        register_lambda<detail::lambda_registration<KernelName, K, detail::takes_kernel_handler<Launch, D, K>>>();
        // From a pool of blocks of its size (backends/detail/block_pool.hpp): a command group whose captures fit
        // the kernel object allocates nothing per submission (tests/sycl/submit_allocations_test.cpp).
        using kernel_type = detail::lambda_kernel<Launch, D, K>;
        return std::allocate_shared<kernel_type>(encore::detail::pool_allocator<kernel_type>{},
                                                 encore::kernel::lasting_name{detail::kernel_name<KernelName, K>()},
                                                 k, &spec_values_);
    }
    template <typename Registration> void register_lambda() {
        static_cast<void>(Registration::registered); // before main, so that bundles know the kernel
        if (bundle_) check_bundle(Registration::id());
    }
    void check_bundle(const kernel_id& id) const;

    template <typename T, int D, access_mode M, target Tg, access::placeholder P>
    static T* contiguous(const accessor<T, D, M, Tg, P>& a, const char* call) {
        // A region is one block of memory when every dimension but the first is whole.
        auto* first = &a[id<D>{}];
        if constexpr (D > 1) {
            auto r = a.get_range();
            id<D> last_index;
            for (int d = 0; d < D; ++d) last_index[d] = r[d] - 1;
            if (&a[last_index] - first + 1 != static_cast<std::ptrdiff_t>(a.size()))
                throw exception(errc::feature_not_supported,
                                std::string("handler::") + call +
                                    ": the accessor's region is not contiguous (only the first dimension may be "
                                    "narrower than the buffer)");
        }
        return const_cast<T*>(first);
    }

    void set_command(encore::command c, const char* name);
    void set_dynamic_argument(int index, const std::shared_ptr<detail::dynamic_parameter_impl>& p);
    void require_dynamic(const std::shared_ptr<detail::dynamic_parameter_impl>& p);
    // `arguments`: the kernel's local allocations (lambda kernels) or its set_arg values (kernel objects).
    void set_kernel(std::shared_ptr<const encore::kernel> k, encore::nd_range r,
                    std::vector<encore::kernel_argument> arguments);
    void set_kernel_object(const kernel& k, encore::nd_range r);
    // A lambda or function-object kernel: its arguments are its local_accessors; values set with set_arg replace its
    // captures (programs built by encore++; refused otherwise).
    void set_lambda_kernel(std::shared_ptr<const encore::kernel> k, encore::nd_range r);
    void copy_bytes(void* destination, const void* source, std::size_t bytes);
    // A copy between host memory (`to_host` or `from_host`, the other null) and the instance of the device_global
    // at `object` (sizeof(T) = `object_bytes`) on the handler's device (src/device_global.cpp).
    void device_global_copy(const void* object, std::size_t object_bytes, void* to_host, const void* from_host,
                            std::size_t bytes, std::size_t offset, const char* call);
    // count * element, errc::invalid when it overflows.
    static std::size_t checked_bytes(std::size_t count, std::size_t element, const char* call) {
        if (element && count > static_cast<std::size_t>(-1) / element)
            throw exception(errc::invalid, std::string("handler::") + call + ": " + std::to_string(count) +
                                               " elements overflow a size");
        return count * element;
    }
    void fill_bytes(void* destination, std::vector<std::byte> pattern, std::size_t count);
    void check_usm(const void* pointer, std::size_t bytes, const char* call, const char* what) const;

    template <typename T> void set_argument(int index, T&& argument) {
        using A = std::remove_cvref_t<T>;
        if constexpr (requires { argument.ext_encore_impl(); })
            set_dynamic_argument(index, argument.ext_encore_impl());
        else if constexpr (std::is_same_v<A, ext::oneapi::experimental::raw_kernel_arg>)
            store_argument(index, argument.ext_encore_argument());
        else if constexpr (std::is_pointer_v<A>)
            store_argument(index, encore::kernel_argument::from_pointer(argument));
        else if constexpr (requires { argument.buffer_state(); argument.get_pointer(); }) {
            require(argument);
            store_argument(index, encore::kernel_argument::from_pointer(argument.get_pointer()));
        } else if constexpr (requires { typename A::value_type; argument.byte_size(); argument.get_range(); })
            store_argument(index, encore::kernel_argument::local(argument.byte_size()));
        else if constexpr (requires { argument.ext_encore_local_accessor(); }) // work_group_memory
            store_argument(index, encore::kernel_argument::local(argument.ext_encore_local_accessor().byte_size()));
        else {
            static_assert(std::is_trivially_copyable_v<A>, "set_arg: a kernel argument must be a pointer, an accessor, "
                                                           "a local_accessor or a trivially copyable value");
            store_argument(index, encore::kernel_argument::from_scalar(argument));
        }
    }
    void store_argument(int index, encore::kernel_argument a);

    device device_;
    context context_;
    std::shared_ptr<detail::queue_impl> queue_;
    collected collected_;
    std::vector<encore::kernel_argument> locals_;                    // local_accessors of a lambda kernel
    detail::launch_extras extras_; // what the launch's properties asked beyond its range
    std::vector<std::optional<encore::kernel_argument>> arguments_; // set_arg
    detail::specialization_values spec_values_;                     // set_specialization_constant, or the bundle's
    bool spec_set_ = false;
    std::shared_ptr<const detail::kernel_bundle_impl> bundle_; // use_kernel_bundle
    void check_no_bundle(const char* call) const;
};

} // namespace _V1
} // namespace sycl

// sycl_ext_oneapi_graph (namespace sycl::ext::oneapi::experimental): record work once as a graph, replay it many
// times.
//
// - command_graph<graph_state::modifiable>: nodes are command groups, added explicitly (add, make_edge) or recorded
//   from queues (begin_recording ... end_recording); finalize() lowers it to an executable graph.
// - command_graph<graph_state::executable>: submitted with queue::ext_oneapi_graph or handler::ext_oneapi_graph;
//   updated from its source graph's nodes (node-level update: dynamic_parameter, node::update_nd_range/range) or
//   from a whole graph of the same topology.
// - Edges come from property::node::depends_on, make_edge, depends_on_all_leaves, events returned while recording
//   (graph-limited events), in-order queues (across recording sessions) and buffer accessors (with
//   property::graph::assume_buffer_outlives_graph).
// - A queue that records nothing and depends on a graph-limited event joins that graph's recording (transitive queue
//   recording) until end_recording. The rules: docs/sycl-graph.md, "Recording rules".
// Misuse the specification names throws sycl::exception(errc::invalid): see docs/sycl-graph.md for the list.
//
//     namespace sycl_ext = sycl::ext::oneapi::experimental;
//     sycl_ext::command_graph g{q.get_context(), q.get_device()};
//     g.begin_recording(q);
//     q.parallel_for(n, [=](sycl::id<1> i) { x[i] += 1; });
//     g.end_recording();
//     auto exec = g.finalize();
//     for (int i = 0; i < 100; ++i) q.ext_oneapi_graph(exec);
#pragma once

// The extension's feature-test macro: version 2 has property::graph::enable_native_recording (the cuda backend
// captures natively; other backends refuse the property with errc::feature_not_supported).
#define SYCL_EXT_ONEAPI_GRAPH 2

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "sycl/detail/engine_range.hpp"
#include "sycl/ext/encore/multi_device_graph.hpp"
#include "sycl/ext/oneapi/experimental/work_group_memory.hpp"
#include "sycl/queue.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

enum class node_type {
    empty,
    subgraph,
    kernel,
    memcpy,
    memset,
    memfill,
    prefetch,
    memadvise,
    ext_oneapi_barrier,
    host_task,
    async_malloc, // graph-owned memory allocations: not built (docs/sycl-graph.md); no node has these types
    async_free,
};

class node;

namespace property {
namespace graph {
// make_edge does not look for cycles (finalize still reports one).
struct no_cycle_check {};
// A no-op in Encore: a graph keeps the buffers it uses alive until its last run has finished.
struct assume_buffer_outlives_graph {};
// finalize(): the executable graph can be updated.
struct updatable {};
// finalize(): the events of the graph's submissions answer profiling queries (on a queue with enable_profiling).
struct enable_profiling {};
// Capture at the backend level (a CUDA stream capture, say). No Encore backend offers it yet: a graph made with it
// throws errc::feature_not_supported, as the specification says for such backends.
struct enable_native_recording {};
} // namespace graph
namespace node {
// add(): the new node depends on these nodes.
class depends_on {
public:
    template <typename... Nodes>
        requires(std::is_same_v<std::remove_cvref_t<Nodes>, experimental::node> && ...)
    depends_on(Nodes&&... nodes) : nodes_{std::forward<Nodes>(nodes)...} {}
    const std::vector<experimental::node>& get_dependencies() const noexcept { return nodes_; }

private:
    std::vector<experimental::node> nodes_;
};
// add(): the new node depends on every node that has no successor yet.
struct depends_on_all_leaves {};
} // namespace node
} // namespace property

template <graph_state State = graph_state::modifiable> class command_graph;
class dynamic_command_group;

class node {
public:
    node() = delete;
    node_type get_type() const;
    std::vector<node> get_predecessors() const;
    std::vector<node> get_successors() const;
    // The node a submission recorded into a graph became; throws errc::invalid for other events.
    static node get_node_from_event(event e);
    // Kernel nodes only: a new range for the next update() of executable graphs made from this graph. A node may
    // switch between a range and an nd_range (of the same dimensions); one that had work-groups keeps some for a
    // range (docs/sycl-graph.md). A node of a dynamic command group changes the group's active command group, so
    // every node made from the group takes the range, and the command group keeps it when made active again.
    template <int D> void update_nd_range(nd_range<D> r);
    template <int D> void update_range(range<D> r);

    friend bool operator==(const node& a, const node& b) noexcept { return a.graph_ == b.graph_ && a.index_ == b.index_; }

    // Encore: the graph and the index of this node there.
    node(std::shared_ptr<detail::graph_impl> g, std::uint32_t index) : graph_(std::move(g)), index_(index) {}
    const std::shared_ptr<detail::graph_impl>& graph() const noexcept { return graph_; }
    std::uint32_t index() const noexcept { return index_; }

private:
    void update_engine_range(const ::encore::nd_range& r, bool nd);
    std::shared_ptr<detail::graph_impl> graph_;
    std::uint32_t index_;
};

template <> class command_graph<graph_state::modifiable> {
public:
    command_graph(const context& c, const device& d, const sycl::property_list& p = {});
    explicit command_graph(const queue& q, const sycl::property_list& p = {})
        : command_graph(q.get_context(), q.get_device(), p) {}
    // The device's platform's default context.
    explicit command_graph(const device& d, const sycl::property_list& p = {})
        : command_graph(d.get_platform().ext_oneapi_get_default_context(), d, p) {}

    // A node running what `cgf` submits; its dependencies come from `p` (depends_on, depends_on_all_leaves), the
    // handler's depends_on with events of this graph, and its accessors. Encore: on the device of
    // ext::encore::property::node::device when `p` has it (multi-device graphs).
    template <typename F> node add(F&& cgf, const sycl::property_list& p = {}) {
        handler h(node_device(p), context_, nullptr);
        std::forward<F>(cgf)(h);
        return add_collected(h, p);
    }
    // An empty node: a join point.
    node add(const sycl::property_list& p = {});
    // A node running the active command group of `group` (see dynamic_command_group).
    node add(dynamic_command_group& group, const sycl::property_list& p = {});
    void make_edge(node& source, node& destination);

    command_graph<graph_state::executable> finalize(const sycl::property_list& p = {}) const;

    bool begin_recording(queue& q, const sycl::property_list& p = {});
    bool begin_recording(const std::vector<queue>& queues, const sycl::property_list& p = {});
    bool end_recording();
    bool end_recording(queue& q);
    bool end_recording(const std::vector<queue>& queues);

    // Writes the graph as Graphviz DOT; verbose adds kernel arguments, ranges and pointers. The path must end in
    // ".dot". Encore: ext_encore_render_svg() renders such a file when Graphviz is installed.
    void print_graph(const std::string& path, bool verbose = false) const;

    std::vector<node> get_nodes() const;
    std::vector<node> get_root_nodes() const;
    bool empty() const;
    std::size_t get_id() const noexcept;

    friend bool operator==(const command_graph& a, const command_graph& b) noexcept { return a.impl_ == b.impl_; }

    // Encore.
    const std::shared_ptr<detail::graph_impl>& impl() const noexcept { return impl_; }
    explicit command_graph(std::shared_ptr<detail::graph_impl> impl);

private:
    node add_collected(handler& h, const sycl::property_list& p);
    // The device a node added with `p` runs on: ext::encore::property::node::device's, else the graph's.
    device node_device(const sycl::property_list& p) const {
        return p.has_property<ext::encore::property::node::device>()
                   ? p.get_property<ext::encore::property::node::device>().get_device()
                   : device_;
    }
    std::shared_ptr<detail::graph_impl> impl_;
    // Shared by the program's copies of this graph (not by nodes or executable graphs): when the last copy goes,
    // the queues recording into the graph stop (the specification's "Exception Safety").
    std::shared_ptr<detail::graph_owner> owner_;
    device device_;
    context context_;
};

template <> class command_graph<graph_state::executable> {
public:
    command_graph() = delete;
    // Node update: pushes the current arguments (dynamic parameters) and ranges of `n`'s command.
    void update(const node& n);
    void update(const std::vector<node>& nodes);
    // Whole-graph update: every command of `source`, which must have this graph's topology.
    void update(const command_graph<graph_state::modifiable>& source);
    // The bytes of graph-owned allocations (async_malloc in the graph) its runs use: allocated when the graph
    // recorded them, kept until the modifiable graph and this one are gone.
    std::size_t get_required_mem_size() const;

    // Encore.
    explicit command_graph(std::shared_ptr<detail::executable_impl> impl) : impl_(std::move(impl)) {}
    const std::shared_ptr<detail::executable_impl>& impl() const noexcept { return impl_; }

private:
    std::shared_ptr<detail::executable_impl> impl_;
};

command_graph(const context&, const device&, const sycl::property_list& = {}) -> command_graph<graph_state::modifiable>;
command_graph(const queue&, const sycl::property_list& = {}) -> command_graph<graph_state::modifiable>;
command_graph(const device&, const sycl::property_list& = {}) -> command_graph<graph_state::modifiable>;

namespace detail_dynamic {
std::shared_ptr<sycl::detail::dynamic_parameter_impl> make(const command_graph<graph_state::modifiable>& g,
                                                           ::encore::kernel_argument initial);
void update(const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& p, ::encore::kernel_argument value);
// The bytes of local memory a dynamic_local_accessor or dynamic_work_group_memory holds now.
std::size_t local_bytes(const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& p);
// A parameter made without a graph: it joins the graph of the first node that uses it.
std::shared_ptr<sycl::detail::dynamic_parameter_impl> make_unbound(::encore::kernel_argument initial);
// Accessor parameters: the buffer behind the value.
void set_buffer(const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& p, sycl::detail::buffer_state* b,
                access_mode mode);
void update(const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& p, ::encore::kernel_argument value,
            sycl::detail::buffer_state* b, access_mode mode);
} // namespace detail_dynamic

// A kernel argument whose value can change after the graph was made: set it with handler::set_arg in the command
// groups of graph nodes, change it with update(), then call update(node) on the executable graph.
// Several command groups (all kernels, or all host tasks, with the same dependencies) of which one is active: a
// node added from it runs the active one; set_active_index() switches, and update(node) on an executable graph
// makes the switch there. The kernel and its range may differ between the groups.
class dynamic_command_group {
public:
    dynamic_command_group(const command_graph<graph_state::modifiable>& g,
                          const std::vector<std::function<void(handler&)>>& groups);
    std::size_t get_active_index() const;
    void set_active_index(std::size_t index);

    // Encore.
    const std::shared_ptr<sycl::detail::dynamic_command_group_impl>& impl() const noexcept { return impl_; }

private:
    std::shared_ptr<sycl::detail::dynamic_command_group_impl> impl_;
};

template <typename T> class dynamic_parameter {
    static constexpr bool is_accessor = requires(const T& a) {
        a.buffer_state();
        a.get_pointer();
        T::access_mode;
    };
    static_assert(is_accessor || std::is_trivially_copyable_v<T>,
                  "a dynamic_parameter holds a pointer, a trivially copyable value or a buffer accessor");

public:
    dynamic_parameter(const command_graph<graph_state::modifiable>& g, const T& initial)
        : impl_(detail_dynamic::make(g, argument(initial))) {
        if constexpr (is_accessor) detail_dynamic::set_buffer(impl_, buffer_of(initial), T::access_mode);
    }
    // Made without a graph (DPC++'s current form; the one above is deprecated there): the parameter belongs to the
    // graph of the first node that uses it, and using it in another graph's node is refused (errc::invalid).
    dynamic_parameter(const T& initial) : impl_(detail_dynamic::make_unbound(argument(initial))) {
        if constexpr (is_accessor) detail_dynamic::set_buffer(impl_, buffer_of(initial), T::access_mode);
    }
    // An accessor's buffer may change (the graph's edges stay as they were made); update(node) on an executable
    // graph then runs on the new buffer.
    void update(const T& value) {
        if constexpr (is_accessor)
            detail_dynamic::update(impl_, argument(value), buffer_of(value), T::access_mode);
        else
            detail_dynamic::update(impl_, argument(value));
    }

    // Encore: what handler::set_arg and handler::require read.
    const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& ext_encore_impl() const noexcept { return impl_; }

private:
    static ::encore::kernel_argument argument(const T& value) {
        if constexpr (std::is_same_v<T, raw_kernel_arg>)
            return value.ext_encore_argument();
        else if constexpr (is_accessor)
            return ::encore::kernel_argument::from_pointer(value.get_pointer());
        else if constexpr (std::is_pointer_v<T>)
            return ::encore::kernel_argument::from_pointer(value);
        else
            return ::encore::kernel_argument::from_scalar(value);
    }
    static sycl::detail::buffer_state* buffer_of(const T& a) {
        if (!a.buffer_state())
            throw exception(errc::invalid, "dynamic_parameter: the accessor is empty (default-constructed)");
        return a.buffer_state();
    }
    std::shared_ptr<sycl::detail::dynamic_parameter_impl> impl_;
};

// sycl_ext_oneapi_graph's dynamic local accessor: work-group local memory whose size can change after the graph
// was made. get(h) in a command group gives the kernel its local_accessor (set_arg(i, it) does the same for kernel
// objects); update(range) then update(node) on an executable graph resizes it there. Made with or without a
// graph (DPC++ dropped the graph argument); it belongs to the graph of the first node that uses it.
// Work-group local memory whose size a graph update changes. Two forms: DPC++'s current one, where the kernel
// captures the object (by copy) and calls get() inside; and the earlier get(handler&), which gives the kernel its
// local_accessor. A captured copy takes its local memory in the command group whose kernel is being made (the
// handler's capture scope, sycl/accessor.hpp), once per command group however often the kernel object is copied.
// In device code (encore++'s CUDA entries) the kernel object's bytes are copied as they are: the device reads the
// local_accessor, and the shared state (host-only) travels unused.
template <typename DataT, int Dimensions = 1> class dynamic_local_accessor {
public:
    dynamic_local_accessor() = default; // no memory: as DPC++ has it, a placeholder to assign to
    dynamic_local_accessor(const command_graph<graph_state::modifiable>& g, range<Dimensions> size,
                           const sycl::property_list& = {})
        : impl_(detail_dynamic::make(g, bytes(size))), size_(std::make_shared<range<Dimensions>>(size)) {}
    explicit dynamic_local_accessor(range<Dimensions> size, const sycl::property_list& = {})
        : impl_(detail_dynamic::make_unbound(bytes(size))), size_(std::make_shared<range<Dimensions>>(size)) {}
    dynamic_local_accessor(const dynamic_local_accessor& other)
        : impl_(other.impl_), size_(other.size_), accessor_(other.accessor_) {
        if (!impl_) return;
        if (sycl::detail::capturing_handler)
            take_local_memory(*sycl::detail::capturing_handler);
        else if (sycl::detail::resizing_parameter.parameter == impl_.get())
            accessor_ = local_accessor<DataT, Dimensions>(*size_,
                                                          sycl::detail::reserved_local{accessor_.ext_encore_index()});
    }
    dynamic_local_accessor& operator=(const dynamic_local_accessor&) = default;

    // The local_accessor of this command group's kernel (a lambda kernel captures it).
    local_accessor<DataT, Dimensions> get(handler& h) const {
        if (!impl_) throw exception(errc::invalid, "dynamic_local_accessor::get: the object holds no memory");
        local_accessor<DataT, Dimensions> a(*size_, h);
        sycl::detail::handler_access::add_dynamic_local(h, a.ext_encore_index(), impl_);
        return a;
    }
    void update(range<Dimensions> size) {
        if (!impl_) throw exception(errc::invalid, "dynamic_local_accessor::update: the object holds no memory");
        const auto value = bytes(size);
        const range<Dimensions> before = *size_;
        *size_ = size; // first: the kernels copied for the new size read it
        try {
            detail_dynamic::update(impl_, value);
        } catch (...) {
            *size_ = before;
            throw;
        }
    }

    // Encore: what handler::set_arg reads.
    const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& ext_encore_impl() const noexcept { return impl_; }

    // In the kernel that captured this object: its local_accessor. Elsewhere (outside a kernel, or in a kernel
    // that holds the object by reference) errc::invalid.
    ENCORE_HOST_DEVICE local_accessor<DataT, Dimensions> get() const {
#if !defined(__CUDA_ARCH__)
        const std::uint32_t index = accessor_.ext_encore_index();
        if (index >= sycl::detail::current_local_memory.size())
            throw exception(errc::invalid, "dynamic_local_accessor::get(): called outside the kernel that captured the "
                                           "object by copy (call get(handler&) in the command group, or capture it by "
                                           "value)");
#endif
        return accessor_;
    }

private:
    static ::encore::kernel_argument bytes(range<Dimensions> size) {
        if (size.size() == 0)
            throw exception(errc::invalid, "dynamic_local_accessor: the range must hold at least one element");
        return ::encore::kernel_argument::local(size.size() * sizeof(DataT));
    }
    void take_local_memory(handler& h) {
        const std::uint32_t index =
            sycl::detail::handler_access::dynamic_local(h, impl_, detail_dynamic::local_bytes(impl_));
        accessor_ = local_accessor<DataT, Dimensions>(*size_, sycl::detail::reserved_local{index});
    }
    std::shared_ptr<sycl::detail::dynamic_parameter_impl> impl_;
    std::shared_ptr<range<Dimensions>> size_;
    local_accessor<DataT, Dimensions> accessor_;
};

// sycl_ext_oneapi_graph's dynamic_work_group_memory: a work_group_memory<T[]> whose element count a graph update
// changes. The kernel captures the object and calls get(); the rules of dynamic_local_accessor apply.
template <typename DataT, typename PropertyListT = empty_properties_t> class dynamic_work_group_memory {
    static_assert(std::is_array_v<DataT> && std::extent_v<DataT> == 0,
                  "dynamic_work_group_memory: DataT is an array of unknown bound (T[])");
    using value_type = std::remove_extent_t<DataT>;

public:
    dynamic_work_group_memory() = default;
    dynamic_work_group_memory(const command_graph<graph_state::modifiable>& g, std::size_t count)
        : impl_(detail_dynamic::make(g, bytes(count))) {}
    explicit dynamic_work_group_memory(std::size_t count) : impl_(detail_dynamic::make_unbound(bytes(count))) {}
    dynamic_work_group_memory(const dynamic_work_group_memory& other) : impl_(other.impl_), memory_(other.memory_) {
        if (!impl_) return;
        const std::uint32_t bound = memory_.ext_encore_local_accessor().ext_encore_index();
        if (sycl::detail::capturing_handler) {
            const std::size_t held = detail_dynamic::local_bytes(impl_);
            bind(sycl::detail::handler_access::dynamic_local(*sycl::detail::capturing_handler, impl_, held), held);
        } else if (sycl::detail::resizing_parameter.parameter == impl_.get()) {
            bind(bound, sycl::detail::resizing_parameter.bytes);
        }
    }
    dynamic_work_group_memory& operator=(const dynamic_work_group_memory&) = default;

    void update(std::size_t count) {
        if (!impl_) throw exception(errc::invalid, "dynamic_work_group_memory::update: the object holds no memory");
        detail_dynamic::update(impl_, bytes(count));
    }
    const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& ext_encore_impl() const noexcept { return impl_; }
    // Encore: the object a free-function kernel's parameter is made as, over memory of its launch.
    explicit dynamic_work_group_memory(work_group_memory<DataT, PropertyListT> memory) : memory_(memory) {}

    // In the kernel that captured this object: this work-group's memory. Elsewhere errc::invalid.
    ENCORE_HOST_DEVICE work_group_memory<DataT, PropertyListT> get() const {
#if !defined(__CUDA_ARCH__)
        if (memory_.ext_encore_local_accessor().ext_encore_index() >= sycl::detail::current_local_memory.size())
            throw exception(errc::invalid, "dynamic_work_group_memory::get(): called outside the kernel that captured "
                                           "the object by copy");
#endif
        return memory_;
    }

private:
    // Local allocation `index`, of `held` bytes.
    void bind(std::uint32_t index, std::size_t held) {
        memory_ = work_group_memory<DataT, PropertyListT>(
            local_accessor<value_type, 1>(range<1>{held / sizeof(value_type)}, sycl::detail::reserved_local{index}));
    }
    static ::encore::kernel_argument bytes(std::size_t count) {
        if (count == 0)
            throw exception(errc::invalid, "dynamic_work_group_memory: it must hold at least one element");
        return ::encore::kernel_argument::local(count * sizeof(value_type));
    }
    std::shared_ptr<sycl::detail::dynamic_parameter_impl> impl_;
    work_group_memory<DataT, PropertyListT> memory_;
};

template <int D> void node::update_nd_range(nd_range<D> r) {
    update_engine_range(sycl::detail::to_engine(r, "node::update_nd_range"), true);
}
template <int D> void node::update_range(range<D> r) { update_engine_range(sycl::detail::to_engine(r), false); }

} // namespace ext::oneapi::experimental

namespace ext::encore {
// Renders a DOT file written by print_graph to SVG with Graphviz; throws errc::feature_not_supported when
// Graphviz's dot is not installed.
void render_svg(const std::string& dot_path, const std::string& svg_path);
bool graphviz_available();
} // namespace ext::encore

template <> struct is_property<ext::oneapi::experimental::property::graph::no_cycle_check> : std::true_type {};
template <> struct is_property<ext::oneapi::experimental::property::graph::assume_buffer_outlives_graph> : std::true_type {};
template <> struct is_property<ext::oneapi::experimental::property::graph::updatable> : std::true_type {};
template <> struct is_property<ext::oneapi::experimental::property::graph::enable_profiling> : std::true_type {};
template <> struct is_property<ext::oneapi::experimental::property::graph::enable_native_recording> : std::true_type {};
template <> struct is_property<ext::oneapi::experimental::property::node::depends_on> : std::true_type {};
template <> struct is_property<ext::oneapi::experimental::property::node::depends_on_all_leaves> : std::true_type {};

} // namespace _V1
} // namespace sycl

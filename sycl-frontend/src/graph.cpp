// The graph API of sycl_ext_oneapi_graph: command_graph (modifiable and executable), nodes, edges, finalize,
// recording, print_graph, and the queue's and handler's side of the extension. Updating graphs (node and
// whole-graph update, dynamic parameters and command groups) is graph_update.cpp.
#include "sycl/detail/graph_impl.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "encore/graph/dot_export.hpp"
#include "sycl/detail/engine_error.hpp"
#include "sycl/detail/queue_impl.hpp"

namespace sycl {
inline namespace _V1 {

namespace exp = ext::oneapi::experimental;

namespace detail {

graph_impl::graph_impl(const context& c, const device& d, const property_list& p)
    : ctx(c), dev(d),
      g(::encore::graph_options{.check_cycles = !p.has_property<exp::property::graph::no_cycle_check>()}) {
    if (!ctx.contains(dev)) throw exception(errc::invalid, "command_graph: the device does not belong to the context");
    native = p.has_property<exp::property::graph::enable_native_recording>();
    multi_device = p.has_property<ext::encore::property::graph::multi_device>();
    devices.push_back(dev);
    if (native && multi_device)
        throw exception(errc::feature_not_supported,
                        "command_graph: property::graph::enable_native_recording and Encore's "
                        "property::graph::multi_device cannot be combined (a native capture is one device's)");
    if (native && !dev.engine().properties().native_recording)
        throw exception(errc::feature_not_supported,
                        "command_graph: property::graph::enable_native_recording: the " +
                            std::string(dev.engine().backend_name()) +
                            " backend cannot capture commands natively (the cuda backend can); record without the "
                            "property, which lowers to the backend's own graphs at finalize");
}

std::uint32_t graph_impl::device_slot(const device& d, const char* call) {
    for (std::uint32_t i = 0; i < devices.size(); ++i)
        if (devices[i] == d) return i;
    const std::string name = "graph " + std::to_string(g.id());
    if (!multi_device)
        throw exception(errc::invalid, std::string(call) + ": " + name +
                                           " was made for another device (a node of another device needs a graph "
                                           "made with sycl::ext::encore::property::graph::multi_device)");
    if (d.engine().backend_name() != dev.engine().backend_name())
        throw exception(errc::invalid, std::string(call) + ": " + name + " holds nodes of the " +
                                           std::string(dev.engine().backend_name()) +
                                           " backend; a multi-device graph spans devices of one backend, and this "
                                           "device is of the " + std::string(d.engine().backend_name()) + " backend");
    if (!ctx.contains(d))
        throw exception(errc::invalid, std::string(call) + ": the device does not belong to the context of " + name);
    devices.push_back(d);
    return static_cast<std::uint32_t>(devices.size() - 1);
}

void graph_impl::require_not_recording(const char* call) const {
    for (const auto& r : recorders)
        if (!r.expired())
            throw exception(errc::invalid, std::string("command_graph::") + call +
                                               ": the graph is being recorded; explicit changes and recording "
                                               "cannot be mixed (end_recording first)");
}

bool graph_impl::stop_all_recordings() {
    bool stopped = false;
    for (auto& weak : std::vector(recorders))
        if (auto q = weak.lock()) {
            stop_recording(*this, *q);
            stopped = true;
        }
    recorders.clear();
    return stopped;
}

graph_owner::~graph_owner() {
    std::lock_guard lock(graph->mutex);
    try {
        graph->stop_all_recordings();
    } catch (const std::exception& e) { // ending a native recording session failed in the driver
        std::fprintf(stderr, "encore: the last command_graph of graph %llu went while recording; ending its native "
                             "recording session failed: %s\n",
                     static_cast<unsigned long long>(graph->g.id()), e.what());
    }
}

std::shared_ptr<graph_owner> graph_owner::of(const std::shared_ptr<graph_impl>& g) {
    std::lock_guard lock(g->mutex);
    auto owner = g->owner.lock();
    if (!owner) {
        owner = std::make_shared<graph_owner>(g);
        g->owner = owner;
    }
    return owner;
}

std::uint32_t graph_impl::add_locked(handler& h, std::vector<std::uint32_t> predecessors, const queue_impl* recorder) {
    auto& c = h.contents();
    const std::uint32_t slot = device_slot(h.encore_device(), recorder ? "recording" : "add");
    for (const auto& e : c.dependencies) {
        if (const auto& r = e.recorded()) {
            if (auto other = r->graph.lock(); other.get() != this) {
                const auto source = other ? "graph " + std::to_string(other->g.id()) : "a graph that no longer exists";
                throw exception(errc::invalid, "depends_on: the event belongs to another graph (it was returned while "
                                               "recording " + source + ") than graph " + std::to_string(g.id()) +
                                                   ", which the command is " + (recorder ? "recorded" : "added") +
                                                   " into; a node can only depend on nodes of its own graph");
            }
            predecessors.push_back(node_of_event(*this, *r, "depends_on"));
        } else if (e.engine().state())
            throw exception(errc::invalid, "depends_on: a graph node can only depend on events returned while "
                                           "recording into the same graph, not on eager work (wait for that event "
                                           "before, or record the work into the graph)");
    }
    auto requirements = c.requirements;
    ::encore::command command = ::encore::empty_command{};
    if (c.executable) {
        if (c.executable->source.get() == this)
            throw exception(errc::invalid, "ext_oneapi_graph: a graph cannot contain an executable graph made from itself");
        if (c.executable->devices.size() > 1)
            throw exception(errc::feature_not_supported,
                            "ext_oneapi_graph: an executable graph over several devices (Encore's multi_device "
                            "property) cannot be a sub-graph; add its nodes to the graph instead");
        if (!c.executable->allocations.empty())
            throw exception(errc::invalid, "ext_oneapi_graph: an executable graph with graph-owned allocations "
                                           "(async_malloc) cannot be a sub-graph");
        command = ::encore::subgraph_command{c.executable->current_snapshot()};
        for (const auto& r : c.executable->buffer_requirements()) requirements.push_back(r);
    } else if (c.command)
        command = std::move(*c.command);
    for (const auto& parameter : c.dynamic_requirements) {
        if (!parameter->belongs_to(*this))
            throw exception(errc::invalid, "handler::require: the dynamic_parameter belongs to another graph");
        std::lock_guard lock(parameter->mutex);
        requirements.push_back({parameter->buffer.get(), parameter->mode});
    }
    requirements = merge_requirements(as_span(requirements));
    if (auto* task = std::get_if<::encore::host_task_command>(&command))
        task->task = with_host_use(std::move(task->task), buffers_of(as_span(requirements)));
    for (const auto& [index, parameter] : c.dynamic_arguments)
        if (!parameter->belongs_to(*this))
            throw exception(errc::invalid, "set_arg: the dynamic_parameter belongs to another graph");
    if (!c.dynamic_arguments.empty() && !std::holds_alternative<::encore::kernel_command>(command))
        throw exception(errc::invalid, "set_arg: a dynamic_parameter can only be an argument of a kernel command");
    // Graph-owned allocations: the memory exists from now on, for the graph's life; the nodes only order its use.
    if (c.allocation && c.allocation->zero_init && c.allocation->bytes)
        command = ::encore::memset_command{c.allocation->pointer, 0, c.allocation->bytes};
    if (c.frees && c.freed) {
        if (!allocations.contains(c.freed))
            throw exception(errc::invalid, "async_free: in graph " + std::to_string(g.id()) +
                                               ", only memory the graph allocated (async_malloc in one of its nodes) "
                                               "can be freed");
        if (freed_allocations.contains(c.freed))
            throw exception(errc::invalid, "async_free: graph " + std::to_string(g.id()) +
                                               " frees this allocation already (node " +
                                               std::to_string(freed_allocations.at(c.freed)) + ")");
    }

    if (c.barrier_on_everything)
        for (auto leaf : g.leaves())
            if (recorded_by[leaf.index] == recorder) predecessors.push_back(leaf.index);
    for (const auto& r : requirements) {
        auto it = buffers.find(r.buffer);
        if (it == buffers.end()) continue;
        if (it->second.last_writer) predecessors.push_back(*it->second.last_writer);
        if (writes(r.mode)) predecessors.insert(predecessors.end(), it->second.readers.begin(), it->second.readers.end());
    }

    std::vector<::encore::node> dependencies;
    dependencies.reserve(predecessors.size());
    for (auto p : predecessors) dependencies.push_back(g.node_at(p));
    const auto index = translate_errors([&] {
        const auto n = g.add(std::move(command), dependencies);
        if (slot != 0) g.set_device_slot(n, slot);
        return n.index;
    });
    recorded_by.push_back(recorder);
    if (c.allocation) {
        async_nodes[index] = ext::oneapi::experimental::node_type::async_malloc;
        allocated_bytes += c.allocation->bytes;
        if (c.allocation->pointer) allocations.emplace(c.allocation->pointer, std::move(c.allocation));
    }
    if (c.frees) {
        async_nodes[index] = ext::oneapi::experimental::node_type::async_free;
        if (c.freed) freed_allocations.emplace(c.freed, index);
    }

    for (const auto& r : requirements) {
        auto [it, first_use] = buffers.try_emplace(r.buffer);
        if (first_use && recorder) r.buffer->add_recording_use(1);
        auto& use = it->second;
        if (first_use) use.keep = r.buffer->shared_from_this();
        if (writes(r.mode)) {
            use.last_writer = index;
            use.readers.clear();
            use.strongest = access_mode::read_write;
        } else
            use.readers.push_back(index);
    }
    for (const auto& [argument, parameter] : c.dynamic_arguments) {
        std::lock_guard lock(parameter->mutex);
        parameter->uses.emplace_back(index, argument);
    }
    for (const auto& parameter : c.dynamic_requirements) {
        std::lock_guard lock(parameter->mutex);
        parameter->requiring_nodes.push_back(index);
    }
    return index;
}

void executable_impl::adopt_buffers(const graph_impl& g) {
    std::lock_guard lock(kept_mutex);
    for (const auto& [buffer, use] : g.buffers) {
        auto it = std::find_if(buffers.begin(), buffers.end(), [&](const requirement& r) { return r.buffer == buffer; });
        if (it == buffers.end())
            buffers.push_back({buffer, use.strongest});
        else if (writes(use.strongest))
            it->mode = access_mode::read_write;
        if (std::find(kept_buffers.begin(), kept_buffers.end(), use.keep) == kept_buffers.end())
            kept_buffers.push_back(use.keep);
    }
}

} // namespace detail

namespace ext::oneapi::experimental {

namespace {
node_type type_of(::encore::command_kind kind) {
    switch (kind) {
    case ::encore::command_kind::kernel: return node_type::kernel;
    case ::encore::command_kind::memcpy:
    case ::encore::command_kind::copy: return node_type::memcpy;
    case ::encore::command_kind::fill: return node_type::memfill;
    case ::encore::command_kind::memset: return node_type::memset;
    case ::encore::command_kind::prefetch: return node_type::prefetch;
    case ::encore::command_kind::mem_advise: return node_type::memadvise;
    case ::encore::command_kind::host_task: return node_type::host_task;
    case ::encore::command_kind::barrier: return node_type::ext_oneapi_barrier;
    case ::encore::command_kind::empty: return node_type::empty;
    case ::encore::command_kind::subgraph:
    case ::encore::command_kind::native_graph: return node_type::subgraph; // a child graph, captured natively
    }
    return node_type::empty;
}

std::vector<node> wrap(const std::shared_ptr<sycl::detail::graph_impl>& g, const std::vector<::encore::node>& nodes) {
    std::vector<node> out;
    out.reserve(nodes.size());
    for (const auto& n : nodes) out.emplace_back(g, n.index);
    return out;
}
} // namespace

node_type node::get_type() const {
    std::lock_guard lock(graph_->mutex);
    if (auto it = graph_->async_nodes.find(index_); it != graph_->async_nodes.end()) return it->second;
    return type_of(graph_->g.kind(graph_->g.node_at(index_)));
}
std::vector<node> node::get_predecessors() const {
    std::lock_guard lock(graph_->mutex);
    return wrap(graph_, graph_->g.predecessors(graph_->g.node_at(index_)));
}
std::vector<node> node::get_successors() const {
    std::lock_guard lock(graph_->mutex);
    return wrap(graph_, graph_->g.successors(graph_->g.node_at(index_)));
}

node node::get_node_from_event(event e) {
    const auto& r = e.recorded();
    auto g = r ? r->graph.lock() : nullptr;
    if (!g)
        throw exception(errc::invalid, "node::get_node_from_event: the event was not returned by a submission "
                                       "recorded into a graph (that still exists)");
    std::lock_guard lock(g->mutex);
    const auto index = sycl::detail::node_of_event(*g, *r, "node::get_node_from_event");
    return node(std::move(g), index);
}

command_graph<graph_state::modifiable>::command_graph(const context& c, const device& d, const sycl::property_list& p)
    : impl_(std::make_shared<sycl::detail::graph_impl>(c, d, p)), owner_(sycl::detail::graph_owner::of(impl_)),
      device_(d), context_(c) {
    if (!d.has(aspect::ext_oneapi_limited_graph))
        throw exception(errc::invalid, "command_graph: the device does not support sycl_ext_oneapi_graph");
}

bool command_graph<graph_state::modifiable>::empty() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->g.empty();
}

std::size_t command_graph<graph_state::modifiable>::get_id() const noexcept { return impl_->g.id(); }

command_graph<graph_state::modifiable>::command_graph(std::shared_ptr<sycl::detail::graph_impl> impl)
    : impl_(std::move(impl)), owner_(sycl::detail::graph_owner::of(impl_)), device_(impl_->dev),
      context_(impl_->ctx) {}

node command_graph<graph_state::modifiable>::add_collected(handler& h, const sycl::property_list& p) {
    if (h.contents().command && std::holds_alternative<::encore::barrier_command>(*h.contents().command))
        throw exception(errc::invalid, "add: a barrier can only be recorded from a queue; with the explicit API, add "
                                       "an empty node with property::node::depends_on_all_leaves instead");
    std::lock_guard lock(impl_->mutex);
    sycl::detail::refuse_if_native(*impl_, "command_graph::add");
    impl_->require_not_recording("add");
    std::vector<std::uint32_t> predecessors;
    if (p.has_property<property::node::depends_on>()) {
        const auto dependencies = p.get_property<property::node::depends_on>(); // a copy: keep it alive
        for (const auto& n : dependencies.get_dependencies()) {
            if (n.graph() != impl_)
                throw exception(errc::invalid, "add: property::node::depends_on names a node of another graph");
            predecessors.push_back(n.index());
        }
    }
    if (p.has_property<property::node::depends_on_all_leaves>())
        for (auto leaf : impl_->g.leaves()) predecessors.push_back(leaf.index);
    return node(impl_, impl_->add_locked(h, std::move(predecessors), nullptr));
}

node command_graph<graph_state::modifiable>::add(const sycl::property_list& p) {
    return add([](handler&) {}, p);
}

void command_graph<graph_state::modifiable>::make_edge(node& source, node& destination) {
    if (source.graph() != impl_ || destination.graph() != impl_)
        throw exception(errc::invalid, "make_edge: both nodes must belong to this graph");
    std::lock_guard lock(impl_->mutex);
    sycl::detail::refuse_if_native(*impl_, "command_graph::make_edge");
    impl_->require_not_recording("make_edge");
    sycl::detail::translate_errors([&] {
        impl_->g.make_edge(impl_->g.node_at(source.index()), impl_->g.node_at(destination.index()));
    });
}

command_graph<graph_state::executable> command_graph<graph_state::modifiable>::finalize(const sycl::property_list& p) const {
    std::lock_guard lock(impl_->mutex);
    if (p.has_property<property::graph::updatable>())
        sycl::detail::refuse_if_native(*impl_, "finalize(property::graph::updatable)");
    auto exec = std::make_shared<sycl::detail::executable_impl>();
    exec->source = impl_;
    exec->updatable = p.has_property<property::graph::updatable>();
    exec->profiling = p.has_property<property::graph::enable_profiling>();
    exec->snapshot = std::make_shared<::encore::graph>(impl_->g);
    exec->devices = impl_->devices;
    exec->engine = sycl::detail::translate_errors([&] {
        std::vector<::encore::device> engine_devices;
        for (const auto& d : impl_->devices) engine_devices.push_back(d.engine());
        return std::make_shared<::encore::executable_graph>(impl_->g, std::move(engine_devices));
    });
    for (const auto& [buffer, use] : impl_->buffers) {
        exec->buffers.push_back({buffer, use.strongest});
        exec->kept_buffers.push_back(use.keep);
    }
    exec->async_nodes = !impl_->async_nodes.empty();
    if (exec->async_nodes) {
        // The graph's allocations are one set of memory: two live executable graphs would share it.
        if (!impl_->allocating_executable.expired())
            throw exception(errc::invalid, "finalize: graph " + std::to_string(impl_->g.id()) +
                                               " has graph-owned allocations (async_malloc) and an executable graph "
                                               "finalized from it still exists; destroy that one first");
        for (const auto& [pointer, block] : impl_->allocations) exec->allocations.push_back(block);
        exec->required_mem_size = impl_->allocated_bytes;
        impl_->allocating_executable = exec;
    }
    return command_graph<graph_state::executable>(std::move(exec));
}

bool command_graph<graph_state::modifiable>::begin_recording(queue& q, const sycl::property_list&) {
    std::lock_guard lock(impl_->mutex);
    return sycl::detail::start_recording(*impl_, *q.impl(), "begin_recording");
}

bool command_graph<graph_state::modifiable>::begin_recording(const std::vector<queue>& queues,
                                                             const sycl::property_list& p) {
    bool changed = false;
    for (auto q : queues) changed |= begin_recording(q, p);
    return changed;
}

bool command_graph<graph_state::modifiable>::end_recording() {
    std::lock_guard lock(impl_->mutex);
    sycl::detail::require_joined_forks(*impl_, nullptr, "end_recording");
    return impl_->stop_all_recordings();
}

bool command_graph<graph_state::modifiable>::end_recording(queue& q) {
    auto& qi = *q.impl();
    std::lock_guard lock(impl_->mutex);
    {
        std::lock_guard queue_lock(qi.mutex);
        if (!qi.recording) return false;
        if (qi.recording != impl_) throw exception(errc::invalid, "end_recording: the queue is recording another graph");
    }
    sycl::detail::require_joined_forks(*impl_, &qi, "end_recording");
    sycl::detail::stop_recording(*impl_, qi);
    return true;
}

bool command_graph<graph_state::modifiable>::end_recording(const std::vector<queue>& queues) {
    bool changed = false;
    for (auto q : queues) changed |= end_recording(q);
    return changed;
}

void command_graph<graph_state::modifiable>::print_graph(const std::string& path, bool verbose) const {
    if (path.size() < 4 || path.compare(path.size() - 4, 4, ".dot") != 0)
        throw exception(errc::invalid, "print_graph: '" + path + "' must end in .dot (Graphviz DOT is the format written)");
    std::lock_guard lock(impl_->mutex);
    sycl::detail::translate_errors([&] { ::encore::write_dot_file(impl_->g, path, {.verbose = verbose}); });
}

std::vector<node> command_graph<graph_state::modifiable>::get_nodes() const {
    std::lock_guard lock(impl_->mutex);
    return wrap(impl_, impl_->g.nodes());
}
std::vector<node> command_graph<graph_state::modifiable>::get_root_nodes() const {
    std::lock_guard lock(impl_->mutex);
    return wrap(impl_, impl_->g.roots());
}

std::size_t command_graph<graph_state::executable>::get_required_mem_size() const { return impl_->required_mem_size; }

} // namespace ext::oneapi::experimental

namespace ext::encore {
bool graphviz_available() { return ::encore::graphviz_available(); }
void render_svg(const std::string& dot_path, const std::string& svg_path) {
    if (!::encore::graphviz_available())
        throw exception(errc::feature_not_supported, "render_svg: Graphviz's dot program is not installed");
    sycl::detail::translate_errors([&] { ::encore::render_svg(dot_path, svg_path); });
}
} // namespace ext::encore

// The queue's side of the extension.
exp::queue_state queue::ext_oneapi_get_state() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->recording ? exp::queue_state::recording : exp::queue_state::executing;
}

exp::command_graph<exp::graph_state::modifiable> queue::ext_oneapi_get_graph() const {
    std::shared_ptr<detail::graph_impl> graph;
    {
        std::lock_guard lock(impl_->mutex);
        graph = impl_->recording;
    }
    if (!graph) throw exception(errc::invalid, "queue::ext_oneapi_get_graph: the queue is not recording a graph");
    // Made outside the queue's mutex: the command_graph takes the graph's (the lock order is graph, then queue).
    return exp::command_graph<exp::graph_state::modifiable>(std::move(graph));
}

event queue::ext_oneapi_graph(exp::command_graph<exp::graph_state::executable>& g) {
    return submit([&](handler& h) { h.ext_oneapi_graph(g); });
}
event queue::ext_oneapi_graph(exp::command_graph<exp::graph_state::executable>& g, event dep) {
    return submit([&](handler& h) {
        h.depends_on(dep);
        h.ext_oneapi_graph(g);
    });
}
event queue::ext_oneapi_graph(exp::command_graph<exp::graph_state::executable>& g, const std::vector<event>& deps) {
    return submit([&](handler& h) {
        h.depends_on(deps);
        h.ext_oneapi_graph(g);
    });
}

void handler::ext_oneapi_graph(exp::command_graph<exp::graph_state::executable>& g) {
    if (collected_.command || collected_.executable || collected_.allocation || collected_.frees)
        throw exception(errc::invalid, "handler::ext_oneapi_graph: the command group already holds a command");
    const auto& devices = g.impl()->devices;
    if (std::find(devices.begin(), devices.end(), device_) == devices.end())
        throw exception(errc::invalid, std::string("handler::ext_oneapi_graph: the graph was finalized for ") +
                                           (devices.size() > 1 ? "other devices" : "another device") +
                                           " than the queue's");
    collected_.executable = g.impl();
    collected_.command_name = "ext_oneapi_graph";
}

} // namespace _V1
} // namespace sycl

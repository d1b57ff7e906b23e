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
    if (native && !dev.engine().properties().native_recording)
        throw exception(errc::feature_not_supported,
                        "command_graph: property::graph::enable_native_recording: the " +
                            std::string(dev.engine().backend_name()) +
                            " backend cannot capture commands natively (the cuda backend can); record without the "
                            "property, which lowers to the backend's own graphs at finalize");
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
    requirements = merge_requirements(requirements);
    if (auto* task = std::get_if<::encore::host_task_command>(&command))
        task->task = with_host_use(std::move(task->task), buffers_of(requirements));
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
    const auto index = translate_errors([&] { return g.add(std::move(command), dependencies).index; });
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

bool dynamic_parameter_impl::belongs_to(graph_impl& g) {
    std::lock_guard lock(mutex);
    if (!bound) {
        graph = g.weak_from_this();
        bound = true;
    }
    return graph.lock().get() == &g;
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

namespace {
// A range update of a node launched with work-groups (an nd_range, whose kernel may ask for its nd_item and its
// local memory): the launch keeps work-groups, which the specification leaves to the implementation for a range.
// Per dimension, the largest size that divides the new global range and is not above the previous local size.
std::array<std::size_t, 3> kept_work_groups(const ::encore::nd_range& previous, const ::encore::nd_range& r) {
    std::array<std::size_t, 3> local{1, 1, 1};
    for (int d = 0; d < r.dimensions; ++d) {
        local[d] = std::min(previous.local[d], r.global[d]);
        while (r.global[d] % local[d] != 0) --local[d];
    }
    return local;
}
} // namespace

void node::update_engine_range(const ::encore::nd_range& requested, bool nd) {
    std::lock_guard lock(graph_->mutex);
    auto& g = graph_->g;
    auto n = g.node_at(index_);
    const auto* k = std::get_if<::encore::kernel_command>(&g.command_at(n));
    const char* call = nd ? "node::update_nd_range" : "node::update_range";
    if (!k) throw exception(errc::invalid, std::string(call) + ": the node is not a kernel node");
    if (k->range.dimensions != requested.dimensions)
        throw exception(errc::invalid, std::string(call) + ": the node's kernel has " +
                                           std::to_string(k->range.dimensions) + " dimensions; " +
                                           std::to_string(requested.dimensions) + " were given");
    // A node may switch between a range and an nd_range (sycl_ext_oneapi_graph, "Node update").
    auto r = requested;
    if (!nd && k->range.has_local_size()) r.local = kept_work_groups(k->range, r);
    if (nd) sycl::detail::check_work_groups(r, graph_->dev, call);
    auto updated = *k;
    updated.range = r;
    sycl::detail::translate_errors([&] { ::encore::validate(updated); });
    // A node of a dynamic command group runs the group's active command group, which every node made from the group
    // shares: they all take the range, and the command group keeps it when it is made active again.
    if (auto it = graph_->dynamic_nodes.find(index_); it != graph_->dynamic_nodes.end()) {
        auto& group = *it->second;
        sycl::detail::translate_errors([&] {
            for (auto other : group.nodes) g.replace_command(g.node_at(other), updated);
        });
        *group.groups[group.active].command = std::move(updated);
        return;
    }
    sycl::detail::translate_errors([&] { g.replace_command(n, std::move(updated)); });
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

node command_graph<graph_state::modifiable>::add(dynamic_command_group& group, const sycl::property_list& p) {
    const auto& d = group.impl();
    if (d->graph.lock() != impl_)
        throw exception(errc::invalid, "add: the dynamic_command_group was made for another graph");
    handler h(device_, context_, nullptr);
    {
        std::lock_guard lock(impl_->mutex);
        h.contents() = d->groups[d->active];
    }
    h.contents().dynamic_arguments.clear(); // registered with the group, which keeps every command group current
    auto n = add_collected(h, p);
    std::lock_guard lock(impl_->mutex);
    d->nodes.push_back(n.index());
    impl_->dynamic_nodes[n.index()] = d;
    return n;
}

namespace {
// The buffers a command group uses and how, in a comparable order.
std::vector<std::pair<sycl::detail::buffer_state*, access_mode>> buffer_uses(const handler::collected& c) {
    std::vector<std::pair<sycl::detail::buffer_state*, access_mode>> out;
    for (const auto& r : sycl::detail::merge_requirements(c.requirements)) out.emplace_back(r.buffer, r.mode);
    std::sort(out.begin(), out.end());
    return out;
}
} // namespace

dynamic_command_group::dynamic_command_group(const command_graph<graph_state::modifiable>& g,
                                             const std::vector<std::function<void(handler&)>>& groups) {
    if (groups.empty()) throw exception(errc::invalid, "dynamic_command_group: the list of command groups is empty");
    auto d = std::make_shared<sycl::detail::dynamic_command_group_impl>();
    d->graph = g.impl();
    const auto& graph = *g.impl();
    for (std::size_t i = 0; i < groups.size(); ++i) {
        handler h(graph.dev, graph.ctx, nullptr);
        groups[i](h);
        auto& c = h.contents();
        const std::string which = "dynamic_command_group: command group " + std::to_string(i);
        if (!c.command || c.executable ||
            !(std::holds_alternative<::encore::kernel_command>(*c.command) ||
              std::holds_alternative<::encore::host_task_command>(*c.command)))
            throw exception(errc::invalid, which + " must hold a kernel or a host task");
        if (i > 0 && c.command->index() != d->groups[0].command->index())
            throw exception(errc::invalid, which + " is not of the same type as command group 0");
        if (i > 0 && (c.dependencies != d->groups[0].dependencies || buffer_uses(c) != buffer_uses(d->groups[0])))
            throw exception(errc::invalid, which + " has other dependencies than command group 0 (events or "
                                                   "buffer accesses); that would change the graph's topology");
        for (const auto& [argument, parameter] : c.dynamic_arguments) {
            if (!parameter->belongs_to(*g.impl()))
                throw exception(errc::invalid, which + ": a dynamic_parameter belongs to another graph");
            if (!std::holds_alternative<::encore::kernel_command>(*c.command))
                throw exception(errc::invalid, which + ": a dynamic_parameter can only be an argument of a kernel");
        }
        d->groups.push_back(std::move(c));
    }
    for (std::size_t i = 0; i < d->groups.size(); ++i)
        for (const auto& [argument, parameter] : d->groups[i].dynamic_arguments) {
            std::lock_guard lock(parameter->mutex);
            parameter->group_uses.emplace_back(d, i, argument);
        }
    impl_ = std::move(d);
}

std::size_t dynamic_command_group::get_active_index() const {
    auto g = impl_->graph.lock();
    if (!g) return impl_->active;
    std::lock_guard lock(g->mutex);
    return impl_->active;
}

void dynamic_command_group::set_active_index(std::size_t index) {
    if (index >= impl_->groups.size())
        throw exception(errc::invalid, "dynamic_command_group::set_active_index: " + std::to_string(index) +
                                           " is not an index of its " + std::to_string(impl_->groups.size()) +
                                           " command groups");
    auto g = impl_->graph.lock();
    if (!g) {
        impl_->active = index;
        return;
    }
    std::lock_guard lock(g->mutex);
    impl_->active = index;
    for (auto n : impl_->nodes) g->g.replace_command(g->g.node_at(n), *impl_->groups[index].command);
}

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
    exec->engine = sycl::detail::translate_errors(
        [&] { return std::make_shared<::encore::executable_graph>(impl_->g, device_.engine()); });
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

namespace {
void require_updatable(const sycl::detail::executable_impl& e) {
    sycl::detail::refuse_if_native(*e.source, "command_graph<executable>::update");
    if (!e.updatable)
        throw exception(errc::invalid, "command_graph<executable>::update: the graph was not finalized with "
                                       "property::graph::updatable");
}
} // namespace

std::size_t command_graph<graph_state::executable>::get_required_mem_size() const { return impl_->required_mem_size; }

void command_graph<graph_state::executable>::update(const node& n) { update(std::vector<node>{n}); }

void command_graph<graph_state::executable>::update(const std::vector<node>& nodes) {
    require_updatable(*impl_);
    auto& source = *impl_->source;
    for (const auto& n : nodes)
        if (n.graph() != impl_->source)
            throw exception(errc::invalid, "command_graph<executable>::update: a node belongs to another graph than "
                                           "the one this executable graph was finalized from");
    std::lock_guard lock(source.mutex);
    // Every node is checked before any is updated, so that a refused call changes nothing: nodes added to the
    // source graph after finalize are not in this executable graph.
    const auto finalized_nodes = impl_->current_snapshot()->size();
    for (const auto& n : nodes)
        if (n.index() >= finalized_nodes)
            throw exception(errc::invalid, "command_graph<executable>::update: node " + std::to_string(n.index()) +
                                               " was added to the graph after this executable graph was finalized "
                                               "from it");
    for (const auto& n : nodes) {
        auto handle = source.g.node_at(n.index());
        // A dynamic command group's node may switch to another kernel; other nodes keep theirs.
        const bool dynamic = source.dynamic_nodes.contains(n.index());
        sycl::detail::translate_errors([&] {
            if (dynamic)
                impl_->engine->replace(handle, source.g.command_at(handle));
            else
                impl_->engine->update(handle, source.g.command_at(handle));
        });
    }
    // The sub-graph snapshot follows. Copy on write: sub-graph nodes made earlier keep what they embedded; when
    // none holds the snapshot (readers copy the pointer under the mutex), it is changed in place, O(nodes given).
    std::lock_guard snapshot_lock(impl_->snapshot_mutex);
    if (impl_->snapshot.use_count() > 1) impl_->snapshot = std::make_shared<::encore::graph>(*impl_->snapshot);
    auto& snapshot = *impl_->snapshot;
    for (const auto& n : nodes)
        snapshot.replace_command(snapshot.node_at(n.index()), source.g.command_at(source.g.node_at(n.index())));
    impl_->adopt_buffers(source); // a dynamic accessor parameter may have brought another buffer
}

void command_graph<graph_state::executable>::update(const command_graph<graph_state::modifiable>& source) {
    require_updatable(*impl_);
    sycl::detail::refuse_if_native(*source.impl(), "command_graph<executable>::update");
    {
        std::lock_guard lock(source.impl()->mutex);
        if (!source.impl()->async_nodes.empty() || impl_->async_nodes)
            throw exception(errc::invalid, "command_graph<executable>::update: graphs with async_malloc or async_free "
                                           "nodes (graph-owned allocations) cannot take part in whole-graph update");
    }
    std::lock_guard lock(source.impl()->mutex);
    sycl::detail::translate_errors([&] { impl_->engine->update(source.impl()->g); });
    {
        // Same topology, the source's commands: what a sub-graph node made from this graph now embeds.
        auto snapshot = std::make_shared<::encore::graph>(source.impl()->g);
        std::lock_guard snapshot_lock(impl_->snapshot_mutex);
        impl_->snapshot = std::move(snapshot);
    }
    // The commands now point into the source's buffers too: keep them for this graph's runs.
    impl_->adopt_buffers(*source.impl());
}

namespace detail_dynamic {
namespace {
// A dynamic parameter's value into kernel command `k` at `index`: the index of an argument of a kernel object (or of
// a lambda's local memory), or for a lambda kernel's other values the DPC++ index of the capture it replaces
// (set_arg on lambda kernels: sycl/detail/kernel_wrapper.hpp, lambda_arguments). Indices were checked when the
// node was made.
void set_dynamic_value(::encore::kernel_command& k, int index, const sycl::detail::dynamic_parameter_impl& p) {
    const ::encore::kernel_argument& value = p.value;
    const auto* lambda = dynamic_cast<const sycl::detail::lambda_arguments*>(k.kernel.get());
    if (value.type != ::encore::kernel_argument::kind::local_memory && lambda) {
        k.kernel = lambda->with_argument(index, value);
        return;
    }
    if (index < 0 || static_cast<std::size_t>(index) >= k.arguments.size())
        throw exception(errc::invalid, "dynamic_parameter::update: kernel '" + k.kernel->name() + "' has " +
                                           std::to_string(k.arguments.size()) + " arguments; the parameter is its " +
                                           std::to_string(index));
    k.arguments[index] = value;
    // A lambda kernel that captured the dynamic local memory object: a copy of it, whose copy of the object (its
    // copy constructor sees the parameter being resized) holds the new range.
    if (lambda) {
        sycl::detail::resize_scope resizing(p, value.local_bytes);
        k.kernel = lambda->recaptured();
    }
}
} // namespace

std::shared_ptr<sycl::detail::dynamic_parameter_impl> make(const command_graph<graph_state::modifiable>& g,
                                                           ::encore::kernel_argument initial) {
    auto p = std::make_shared<sycl::detail::dynamic_parameter_impl>();
    p->graph = g.impl();
    p->value = std::move(initial);
    return p;
}

std::shared_ptr<sycl::detail::dynamic_parameter_impl> make_unbound(::encore::kernel_argument initial) {
    auto p = std::make_shared<sycl::detail::dynamic_parameter_impl>();
    p->bound = false;
    p->value = std::move(initial);
    return p;
}

std::size_t local_bytes(const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& p) {
    std::lock_guard lock(p->mutex);
    return p->value.local_bytes;
}

void update(const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& p, ::encore::kernel_argument value) {
    {
        std::lock_guard lock(p->mutex);
        if (!p->bound) { // no node uses it yet
            p->value = std::move(value);
            return;
        }
    }
    auto g = p->graph.lock();
    if (!g) throw exception(errc::invalid, "dynamic_parameter::update: the graph no longer exists");
    std::lock_guard graph_lock(g->mutex);
    std::lock_guard lock(p->mutex);
    p->value = std::move(value);
    for (auto [index, argument] : p->uses) {
        auto handle = g->g.node_at(index);
        auto k = std::get<::encore::kernel_command>(g->g.command_at(handle));
        set_dynamic_value(k, argument, *p);
        g->g.replace_command(handle, std::move(k));
    }
    for (const auto& [weak_group, which, argument] : p->group_uses) {
        auto group = weak_group.lock();
        if (!group) continue;
        auto& k = std::get<::encore::kernel_command>(*group->groups[which].command);
        set_dynamic_value(k, argument, *p);
        if (which == group->active)
            for (auto n : group->nodes) g->g.replace_command(g->g.node_at(n), k);
    }
}
void set_buffer(const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& p, sycl::detail::buffer_state* b,
                access_mode mode) {
    std::lock_guard lock(p->mutex);
    p->buffer = b->shared_from_this();
    p->mode = mode;
}

void update(const std::shared_ptr<sycl::detail::dynamic_parameter_impl>& p, ::encore::kernel_argument value,
            sycl::detail::buffer_state* b, access_mode mode) {
    update(p, std::move(value));
    auto g = p->graph.lock(); // update() checked it exists, unless no node uses the parameter yet
    if (!g) {
        std::lock_guard lock(p->mutex);
        p->buffer = b->shared_from_this();
        p->mode = mode;
        return;
    }
    std::lock_guard graph_lock(g->mutex);
    std::lock_guard lock(p->mutex);
    p->buffer = b->shared_from_this();
    p->mode = mode;
    // The graph keeps the new buffer too, and its nodes that require the parameter are its users (for the edges of
    // later nodes and for the executable graphs' ordering, which update(node) refreshes).
    auto [it, first_use] = g->buffers.try_emplace(b);
    auto& use = it->second;
    if (first_use) use.keep = p->buffer;
    for (auto n : p->requiring_nodes) {
        if (sycl::detail::writes(mode)) {
            use.last_writer = n;
            use.strongest = access_mode::read_write;
        } else if (std::find(use.readers.begin(), use.readers.end(), n) == use.readers.end())
            use.readers.push_back(n);
    }
}
} // namespace detail_dynamic

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
    if (!(g.impl()->source->dev == device_))
        throw exception(errc::invalid, "handler::ext_oneapi_graph: the graph was finalized for another device than "
                                       "the queue's");
    collected_.executable = g.impl();
    collected_.command_name = "ext_oneapi_graph";
}

void handler::set_dynamic_argument(int index, const std::shared_ptr<detail::dynamic_parameter_impl>& p) {
    bool accessor = false;
    {
        std::lock_guard lock(p->mutex);
        store_argument(index, p->value);
        accessor = p->buffer != nullptr;
    }
    collected_.dynamic_arguments.emplace_back(index, p);
    if (accessor) require_dynamic(p); // as set_arg with an accessor requires it
}

void handler::require_dynamic(const std::shared_ptr<detail::dynamic_parameter_impl>& p) {
    {
        std::lock_guard lock(p->mutex);
        if (!p->buffer)
            throw exception(errc::invalid, "handler::require: the dynamic_parameter does not hold an accessor");
    }
    for (const auto& r : collected_.dynamic_requirements)
        if (r == p) return;
    collected_.dynamic_requirements.push_back(p);
}

} // namespace _V1
} // namespace sycl

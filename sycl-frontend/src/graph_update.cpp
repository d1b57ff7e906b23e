// Updating graphs (sycl_ext_oneapi_graph, "Executable graph update"): node update of an executable graph, whole-graph
// update from a modifiable graph of the same topology, range updates of kernel nodes, dynamic parameters and dynamic
// command groups. The graph API itself (nodes, edges, finalize, recording) is graph.cpp.
#include "sycl/detail/graph_impl.hpp"

#include <algorithm>
#include <array>

#include "sycl/detail/engine_error.hpp"
#include "sycl/detail/queue_impl.hpp"

namespace sycl {
inline namespace _V1 {

namespace detail {

bool dynamic_parameter_impl::belongs_to(graph_impl& g) {
    std::lock_guard lock(mutex);
    if (!bound) {
        graph = g.weak_from_this();
        bound = true;
    }
    return graph.lock().get() == &g;
}

} // namespace detail

namespace ext::oneapi::experimental {

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

node command_graph<graph_state::modifiable>::add(dynamic_command_group& group, const sycl::property_list& p) {
    const auto& d = group.impl();
    if (d->graph.lock() != impl_)
        throw exception(errc::invalid, "add: the dynamic_command_group was made for another graph");
    handler h(node_device(p), context_, nullptr);
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
    for (const auto& r : sycl::detail::merge_requirements(sycl::detail::as_span(c.requirements)))
        out.emplace_back(r.buffer, r.mode);
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

namespace {
void require_updatable(const sycl::detail::executable_impl& e) {
    sycl::detail::refuse_if_native(*e.source, "command_graph<executable>::update");
    if (!e.updatable)
        throw exception(errc::invalid, "command_graph<executable>::update: the graph was not finalized with "
                                       "property::graph::updatable");
}
} // namespace

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
    // Multi-device graphs: the engine checks that every node keeps its device slot; the slots must also name the
    // same devices.
    const auto& from = source.impl()->devices;
    for (std::uint32_t slot = 0; slot < source.impl()->g.device_slots(); ++slot)
        if (slot >= impl_->devices.size() || !(from[slot] == impl_->devices[slot]))
            throw exception(errc::invalid, "command_graph<executable>::update: the source graph's nodes run on other "
                                           "devices than the executable graph's");
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

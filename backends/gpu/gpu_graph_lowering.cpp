#include "gpu_graph_lowering.hpp"

#include <algorithm>

#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/backends/gpu/gpu_queue.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

gpu_executable::gpu_executable(gpu_backend& backend, std::uint32_t device, const graph& g, const partition& p)
    : backend_(backend), device_(device), api_(backend.api()), context_(backend.context(device)), graph_(g),
      partition_(p), template_(api_), exec_(api_) {
    const auto count = static_cast<std::uint32_t>(p.nodes.size());
    local_of_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i)
        local_of_.emplace_back(p.nodes[i], i);
    std::sort(local_of_.begin(), local_of_.end());
    context_scope scope(api_, context_);
    build_template();
    instantiate();
}

gpu_executable::~gpu_executable() = default;

std::uint32_t gpu_executable::local(std::uint32_t node) const {
    auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{node, std::uint32_t{0}});
    if (it == local_of_.end() || it->first != node)
        throw error(errc::invalid_argument, std::string(backend_.name()) + " update: node " + std::to_string(node) +
                                                " is not in this partition");
    return it->second;
}

// Nodes are added in partition order, which is a topological order, so each node's predecessors exist.
void gpu_executable::build_template() {
    graph_handle built(api_, api_.create_graph());
    const auto count = partition_.nodes.size();
    std::vector<driver_command::form> forms(count);
    std::vector<driver_graph_node> nodes(count);
    std::vector<std::shared_ptr<void>> scratch(count);
    std::vector<bool> several_nodes(count);
    std::vector<std::pair<std::uint32_t, driver_command>> host_copies;
    const graph::storage& s = graph_.boost_graph();
    std::vector<driver_graph_node> dependencies;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t v = partition_.nodes[i];
        dependencies.clear();
        for (auto [e, end] = boost::in_edges(v, s); e != end; ++e) {
            const auto u = static_cast<std::uint32_t>(boost::source(*e, s));
            auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{u, std::uint32_t{0}});
            if (it != local_of_.end() && it->first == u) dependencies.push_back(nodes[it->second]);
        }
        try {
            auto lowered = driver_command::from(backend_, device_, s[v].command, true);
            nodes[i] = lowered.add_to(api_, built.get(), dependencies, context_);
            forms[i] = lowered.how();
            scratch[i] = lowered.scratch();
            several_nodes[i] = lowered.several_nodes();
            if (forms[i] == driver_command::form::host_copy) host_copies.emplace_back(i, std::move(lowered));
        } catch (const error& e) {
            throw error(e.code(), std::string(backend_.name()) + " lowering of " + graph_.describe(v) + ": " + e.what());
        }
    }
    template_ = std::move(built);
    forms_ = std::move(forms);
    nodes_ = std::move(nodes);
    scratch_ = std::move(scratch);
    several_nodes_ = std::move(several_nodes);
    host_copies_ = std::move(host_copies);
}

void gpu_executable::instantiate() {
    exec_.reset(api_.instantiate(template_.get()));
}

void gpu_executable::bring_up_to_date() {
    if (pending_ == pending::none) return;
    context_scope scope(api_, context_);
    if (pending_ == pending::rebuild) {
        backend_.trace("a node changed form (memset node <-> fill kernel) or got another captured graph; the "
                       "graph is rebuilt and instantiated again");
        build_template();
        instantiate();
    } else {
        std::string why_not;
        if (!api_.update_exec(exec_.get(), template_.get(), why_not)) {
            backend_.trace("the driver refused to update the executable graph (" + why_not +
                           "); instantiating the graph again");
            instantiate();
        }
    }
    pending_ = pending::none;
}

event_ptr gpu_executable::launch(backend_queue& queue, std::span<const event_ptr> wait_list) {
    const std::string name(backend_.name());
    gpu_queue& q = as_gpu_queue(queue, backend_, "an executable graph finalized for a GPU device");
    if (q.device() != device_)
        throw error(errc::invalid_argument, "launch: the executable graph was lowered for " + name + " device " +
                                                std::to_string(device_) + ", the queue is on device " +
                                                std::to_string(q.device()));
    bring_up_to_date();
    return q.run_after([&api = api_, exec = exec_.get()](gpu::driver_stream s) { api.launch_graph(exec, s); }, wait_list,
                       placement::graph_launch);
}

void gpu_executable::update(std::uint32_t node, const command& c) {
    const std::uint32_t i = local(node);
    context_scope scope(api_, context_);
    auto updated = driver_command::from(backend_, device_, c, true); // throws before anything changed
    if (updated.how() != forms_[i] || updated.how() == driver_command::form::child_graph || updated.several_nodes() ||
        several_nodes_[i]) {
        pending_ = pending::rebuild; // from graph_, which holds `c` by the next launch (backend.hpp)
        return;
    }
    const bool kernel = updated.how() == driver_command::form::kernel;
    const bool applied = updated.set_in(api_, nodes_[i], kernel ? exec_.get() : nullptr, context_);
    if (kernel) scratch_[i] = updated.scratch(); // the template's node uses it now, applied or not
    if (updated.how() == driver_command::form::host_copy) { // the host node now points into `updated`
        auto it = std::lower_bound(host_copies_.begin(), host_copies_.end(), i,
                                   [](const auto& kept, std::uint32_t index) { return kept.first < index; });
        it->second = std::move(updated);
    }
    if ((!kernel || !applied) && pending_ == pending::none) pending_ = pending::exec_update;
}

} // namespace encore::gpu

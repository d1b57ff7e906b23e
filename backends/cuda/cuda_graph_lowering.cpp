#include "cuda_graph_lowering.hpp"

#include <algorithm>

#include "encore/backends/cuda/cuda_backend.hpp"
#include "encore/backends/cuda/cuda_queue.hpp"
#include "encore/graph/error.hpp"

namespace encore::cuda {

using detail::check;

cuda_executable::cuda_executable(cuda_backend& backend, std::uint32_t device, const graph& g, const partition& p)
    : backend_(backend), device_(device), context_(backend.context(device)), graph_(g), partition_(p) {
    const auto count = static_cast<std::uint32_t>(p.nodes.size());
    local_of_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i)
        local_of_.emplace_back(p.nodes[i], i);
    std::sort(local_of_.begin(), local_of_.end());
    detail::context_scope scope(context_);
    build_template();
    instantiate();
}

cuda_executable::~cuda_executable() = default;

std::uint32_t cuda_executable::local(std::uint32_t node) const {
    auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{node, std::uint32_t{0}});
    if (it == local_of_.end() || it->first != node)
        throw error(errc::invalid_argument, "cuda update: node " + std::to_string(node) + " is not in this partition");
    return it->second;
}

// Nodes are added in partition order, which is a topological order, so each node's predecessors exist.
void cuda_executable::build_template() {
    detail::graph_handle built;
    check(cuGraphCreate(built.out(), 0), "cuGraphCreate");
    const auto count = partition_.nodes.size();
    std::vector<driver_command::form> forms(count);
    std::vector<CUgraphNode> nodes(count);
    std::vector<std::pair<std::uint32_t, driver_command>> host_copies;
    const graph::storage& s = graph_.boost_graph();
    std::vector<CUgraphNode> dependencies;
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
            nodes[i] = lowered.add_to(built.get(), dependencies, context_);
            forms[i] = lowered.how();
            if (forms[i] == driver_command::form::host_copy) host_copies.emplace_back(i, std::move(lowered));
        } catch (const error& e) {
            throw error(e.code(), "cuda lowering of " + graph_.describe(v) + ": " + e.what());
        }
    }
    template_ = std::move(built);
    forms_ = std::move(forms);
    nodes_ = std::move(nodes);
    host_copies_ = std::move(host_copies);
}

void cuda_executable::instantiate() {
    check(cuGraphInstantiate(exec_.out(), template_.get(), 0), "cuGraphInstantiate");
}

void cuda_executable::bring_up_to_date() {
    if (pending_ == pending::none) return;
    detail::context_scope scope(context_);
    if (pending_ == pending::rebuild) {
        backend_.trace("a node changed form (memset node <-> fill kernel) or got another captured graph; the "
                       "CUDA graph is rebuilt and instantiated again");
        build_template();
        instantiate();
    } else {
        CUgraphExecUpdateResultInfo info{};
        const CUresult r = cuGraphExecUpdate(exec_.get(), template_.get(), &info);
        if (r != CUDA_SUCCESS) {
            backend_.trace("cuGraphExecUpdate refused the update (" + detail::describe(r) + ", update result " +
                           std::to_string(static_cast<int>(info.result)) + "); instantiating the graph again");
            instantiate();
        }
    }
    pending_ = pending::none;
}

event_ptr cuda_executable::launch(backend_queue& queue, std::span<const event_ptr> wait_list) {
    cuda_queue& q = as_cuda_queue(queue, "an executable graph finalized for a cuda device");
    if (&q.owner() != &backend_ || q.device() != device_)
        throw error(errc::invalid_argument, "launch: the executable graph was lowered for cuda device " +
                                                std::to_string(device_) + ", the queue is on device " +
                                                std::to_string(q.device()));
    bring_up_to_date();
    return q.run_after([exec = exec_.get()](CUstream s) { check(cuGraphLaunch(exec, s), "cuGraphLaunch"); },
                       wait_list, placement::graph_launch);
}

void cuda_executable::update(std::uint32_t node, const command& c) {
    const std::uint32_t i = local(node);
    detail::context_scope scope(context_);
    auto updated = driver_command::from(backend_, device_, c, true); // throws before anything changed
    if (updated.how() != forms_[i] || updated.how() == driver_command::form::child_graph) {
        pending_ = pending::rebuild; // from graph_, which holds `c` by the next launch (backend.hpp)
        return;
    }
    const bool kernel = updated.how() == driver_command::form::kernel;
    const bool applied = updated.set_in(nodes_[i], kernel ? exec_.get() : nullptr, context_);
    if (updated.how() == driver_command::form::host_copy) { // the host node now points into `updated`
        auto it = std::lower_bound(host_copies_.begin(), host_copies_.end(), i,
                                   [](const auto& kept, std::uint32_t index) { return kept.first < index; });
        it->second = std::move(updated);
    }
    if ((!kernel || !applied) && pending_ == pending::none) pending_ = pending::exec_update;
}

} // namespace encore::cuda

#include "cuda_graph_lowering.hpp"

#include <algorithm>

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_queue.hpp"
#include "graph/error.hpp"

namespace encore::cuda {

using detail::check;

cuda_executable::cuda_executable(cuda_backend& backend, std::uint32_t device, const graph& g, const partition& p)
    : backend_(backend), device_(device), context_(backend.context(device)) {
    const auto count = static_cast<std::uint32_t>(p.nodes.size());
    local_of_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i)
        local_of_.emplace_back(p.nodes[i], i);
    std::sort(local_of_.begin(), local_of_.end());

    detail::context_scope scope(context_);
    const graph::storage& s = g.boost_graph();
    predecessors_.resize(count);
    lowered_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t v = p.nodes[i];
        for (auto [e, end] = boost::in_edges(v, s); e != end; ++e) {
            const auto u = static_cast<std::uint32_t>(boost::source(*e, s));
            auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{u, std::uint32_t{0}});
            if (it != local_of_.end() && it->first == u) predecessors_[i].push_back(it->second);
        }
        try {
            lowered_.push_back(driver_command::from(backend_, device_, s[v].command, true));
        } catch (const error& e) {
            throw error(e.code(), "cuda lowering of " + g.describe(v) + ": " + e.what());
        }
    }
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
    check(cuGraphCreate(graph_.out(), 0), "cuGraphCreate");
    nodes_.assign(lowered_.size(), nullptr);
    std::vector<CUgraphNode> dependencies;
    for (std::size_t i = 0; i < lowered_.size(); ++i) {
        dependencies.clear();
        for (auto u : predecessors_[i])
            dependencies.push_back(nodes_[u]);
        nodes_[i] = lowered_[i].add_to(graph_.get(), dependencies, context_);
    }
}

void cuda_executable::instantiate() {
    check(cuGraphInstantiate(exec_.out(), graph_.get(), 0), "cuGraphInstantiate");
}

void cuda_executable::bring_up_to_date() {
    if (pending_ == pending::none) return;
    detail::context_scope scope(context_);
    if (pending_ == pending::rebuild) {
        backend_.trace("a node changed form (memset node <-> fill kernel); the CUDA graph is rebuilt and "
                       "instantiated again");
        build_template();
        instantiate();
    } else {
        CUgraphExecUpdateResultInfo info{};
        const CUresult r = cuGraphExecUpdate(exec_.get(), graph_.get(), &info);
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
    if (updated.how() != lowered_[i].how()) {
        lowered_[i] = std::move(updated);
        pending_ = pending::rebuild;
        return;
    }
    const bool kernel = updated.how() == driver_command::form::kernel;
    const bool applied = updated.set_in(nodes_[i], kernel ? exec_.get() : nullptr, context_);
    lowered_[i] = std::move(updated); // the driver copied what it needs
    if ((!kernel || !applied) && pending_ == pending::none) pending_ = pending::exec_update;
}

} // namespace encore::cuda

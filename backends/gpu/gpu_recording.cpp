#include "gpu_recording.hpp"

#include <algorithm>

#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/backends/gpu/gpu_commands.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

driver_graph_node gpu_native_graph::add_to(driver& d, driver_graph parent,
                                           std::span<const driver_graph_node> dependencies) const {
    std::lock_guard lock(mutex_);
    return d.add_child_graph_node(parent, dependencies, graph_.get());
}

gpu_recording::gpu_recording(gpu_backend& backend, std::uint32_t device)
    : backend_(backend), device_(device), api_(backend.api()), context_(backend.context(device)), stream_(api_) {
    context_scope scope(api_, context_);
    stream_.reset(api_.create_stream());
    api_.begin_capture(stream_.get());
    capturing_ = true;
}

gpu_recording::~gpu_recording() {
    if (!capturing_) return;
    try {
        context_scope scope(api_, context_);
        graph_handle dropped(api_, api_.end_capture(stream_.get(), true)); // null after an invalidated capture
    } catch (...) { // a driver that cannot make the context current: nothing more to release
    }
}

void gpu_recording::require_usable() const {
    const std::string name(backend_.name());
    if (!capturing_) throw error(errc::invalid_argument, name + " native recording: the capture has ended");
    if (!broken_.empty())
        throw error(errc::backend_failure,
                    name + " native recording: the capture was invalidated by an earlier failure (" + broken_ + ")");
}

std::uint32_t gpu_recording::capture(const command& c, std::span<const std::uint32_t> after) {
    require_usable();
    context_scope scope(api_, context_);
    // In a graph's form: prefetches become no work, advice is applied now (as when a graph is lowered).
    auto lowered = driver_command::from(backend_, device_, c, true);
    if (lowered.how() == driver_command::form::host_copy)
        throw error(errc::feature_not_supported,
                    std::string(backend_.name()) + " native recording: copies between buffers run a host function over runtime-owned "
                    "storage and cannot be captured");
    std::vector<driver_graph_node> dependencies;
    for (auto a : after)
        dependencies.insert(dependencies.end(), tails_.at(a).begin(), tails_.at(a).end());
    std::sort(dependencies.begin(), dependencies.end());
    dependencies.erase(std::unique(dependencies.begin(), dependencies.end()), dependencies.end());
    const auto number = static_cast<std::uint32_t>(tails_.size());
    if (lowered.how() == driver_command::form::nothing || lowered.how() == driver_command::form::advise) {
        tails_.push_back(std::move(dependencies));
        return number;
    }
    try {
        api_.set_capture_dependencies(stream_.get(), dependencies);
        if (auto scratch = lowered.own_scratch(api_, context_)) scratch_.push_back(std::move(scratch));
        lowered.enqueue(api_, stream_.get(), device_);
        tails_.push_back(api_.capture_dependencies(stream_.get()));
    } catch (const error& e) {
        broken_ = e.what();
        throw;
    }
    return number;
}

std::shared_ptr<const native_graph> gpu_recording::end() {
    require_usable();
    context_scope scope(api_, context_);
    capturing_ = false;
    graph_handle captured(api_, api_.end_capture(stream_.get(), false));
    return std::make_shared<gpu_native_graph>(backend_.name(), std::move(captured), tails_.size(), device_,
                                              std::move(scratch_));
}

} // namespace encore::gpu

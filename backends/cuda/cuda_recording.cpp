#include "cuda_recording.hpp"

#include <algorithm>

#include "encore/backends/cuda/cuda_backend.hpp"
#include "encore/backends/cuda/cuda_commands.hpp"
#include "encore/graph/error.hpp"

namespace encore::cuda {

using detail::check;

CUgraphNode cuda_native_graph::add_to(CUgraph parent, std::span<const CUgraphNode> dependencies) const {
    std::lock_guard lock(mutex_);
    CUgraphNode node = nullptr;
    check(cuGraphAddChildGraphNode(&node, parent, dependencies.empty() ? nullptr : dependencies.data(),
                                   dependencies.size(), graph_.get()),
          "cuGraphAddChildGraphNode");
    return node;
}

cuda_recording::cuda_recording(cuda_backend& backend, std::uint32_t device)
    : backend_(backend), device_(device), context_(backend.context(device)) {
    detail::context_scope scope(context_);
    check(cuStreamCreate(stream_.out(), CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    check(cuStreamBeginCapture(stream_.get(), CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture");
    capturing_ = true;
}

cuda_recording::~cuda_recording() {
    if (!capturing_) return;
    detail::context_scope scope(context_);
    detail::graph_handle dropped;
    static_cast<void>(cuStreamEndCapture(stream_.get(), dropped.out())); // null after an invalidated capture
}

void cuda_recording::require_usable() const {
    if (!capturing_) throw error(errc::invalid_argument, "cuda native recording: the capture has ended");
    if (!broken_.empty())
        throw error(errc::backend_failure,
                    "cuda native recording: the capture was invalidated by an earlier failure (" + broken_ +
                        ")");
}

std::uint32_t cuda_recording::capture(const command& c, std::span<const std::uint32_t> after) {
    require_usable();
    detail::context_scope scope(context_);
    // In a graph's form: prefetches become no work, advice is applied now (as when a graph is lowered).
    auto lowered = driver_command::from(backend_, device_, c, true);
    if (lowered.how() == driver_command::form::host_copy)
        throw error(errc::feature_not_supported,
                    "cuda native recording: copies between buffers run a host function over runtime-owned "
                    "storage and cannot be captured");
    std::vector<CUgraphNode> dependencies;
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
        check(cuStreamUpdateCaptureDependencies(stream_.get(), dependencies.data(), nullptr,
                                                dependencies.size(), CU_STREAM_SET_CAPTURE_DEPENDENCIES),
              "cuStreamUpdateCaptureDependencies");
        lowered.enqueue(stream_.get(), backend_.device_handle(device_));
        CUstreamCaptureStatus status{};
        const CUgraphNode* added = nullptr;
        std::size_t added_count = 0;
        check(cuStreamGetCaptureInfo(stream_.get(), &status, nullptr, nullptr, &added, nullptr, &added_count),
              "cuStreamGetCaptureInfo");
        if (status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
            throw error(errc::backend_failure, "cuda native recording: the stream stopped capturing");
        tails_.emplace_back(added, added + added_count);
    } catch (const error& e) {
        broken_ = e.what();
        throw;
    }
    return number;
}

std::shared_ptr<const native_graph> cuda_recording::end() {
    require_usable();
    detail::context_scope scope(context_);
    detail::graph_handle captured;
    capturing_ = false;
    check(cuStreamEndCapture(stream_.get(), captured.out()), "cuStreamEndCapture");
    return std::make_shared<cuda_native_graph>(std::move(captured), tails_.size(), device_);
}

} // namespace encore::cuda

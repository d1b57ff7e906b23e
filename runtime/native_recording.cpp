#include "native_recording.hpp"

#include <string>

#include "encore/graph/error.hpp"

namespace encore {

void* backend::global_address(std::uint32_t, const void*, const char* symbol) {
    throw error(errc::feature_not_supported, std::string(name()) + " backend: device images hold no variables here ('" +
                                                 (symbol ? symbol : "") + "')");
}

std::unique_ptr<backend_recording> backend::begin_recording(std::uint32_t) {
    throw error(errc::feature_not_supported,
                "native recording: the " + std::string(name()) + " backend cannot capture commands natively");
}

native_recording::native_recording(const device& d) : device_(d) {
    if (!d.properties().native_recording)
        throw error(errc::feature_not_supported, "native recording: the " + std::string(d.backend_name()) +
                                                     " backend cannot capture commands natively (" +
                                                     d.properties().name + ")");
    backend_ = d.owner().begin_recording(d.index());
}

native_recording::~native_recording() = default;

std::uint32_t native_recording::capture(command c, std::span<const std::uint32_t> after) {
    if (!backend_) throw error(errc::invalid_argument, "native recording: capture after end()");
    validate(c);
    switch (kind_of(c)) {
    case command_kind::host_task:
    case command_kind::subgraph:
    case command_kind::native_graph:
    case command_kind::copy:
        throw error(errc::feature_not_supported,
                    "native recording: a " + std::string(to_string(kind_of(c))) +
                        " command cannot be captured by the " + std::string(device_.backend_name()) +
                        " backend (it needs the runtime at every replay; record without native recording)");
    default:
        break;
    }
    for (auto a : after)
        if (a >= count_)
            throw error(errc::invalid_argument, "native recording: command " + std::to_string(a) +
                                                    " was not captured by this recording (" +
                                                    std::to_string(count_) + " so far)");
    const auto number = backend_->capture(c, after);
    ++count_;
    return number;
}

native_graph_command native_recording::end() {
    if (!backend_) throw error(errc::invalid_argument, "native recording: end() called twice");
    auto captured = backend_->end();
    backend_.reset();
    return native_graph_command{std::move(captured)};
}

} // namespace encore

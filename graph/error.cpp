#include "error.hpp"

namespace encore {

std::string_view to_string(errc code) noexcept {
    switch (code) {
    case errc::invalid_argument: return "invalid_argument";
    case errc::unknown_node: return "unknown_node";
    case errc::foreign_node: return "foreign_node";
    case errc::self_edge: return "self_edge";
    case errc::duplicate_edge: return "duplicate_edge";
    case errc::cycle: return "cycle";
    case errc::topology_mismatch: return "topology_mismatch";
    case errc::feature_not_supported: return "feature_not_supported";
    case errc::backend_failure: return "backend_failure";
    case errc::user_exception: return "user_exception";
    case errc::kernel_not_supported: return "kernel_not_supported";
    case errc::build_failure: return "build_failure";
    }
    return "unknown";
}

error::error(errc code, const std::string& message)
    : std::runtime_error("encore: " + std::string(to_string(code)) + ": " + message), code_(code) {}

} // namespace encore

#include "encore/backends/backend.hpp"

#include <string>

#include "encore/graph/error.hpp"

namespace encore {

std::string_view to_string(source_language language) noexcept {
    switch (language) {
    case source_language::opencl_c:
        return "OpenCL C";
    case source_language::spirv:
        return "SPIR-V";
    case source_language::cuda:
        return "CUDA C++";
    }
    return "?";
}

bool backend::builds(source_language) const noexcept {
    return false;
}

std::shared_ptr<const source_program> backend::build_program(std::uint32_t device, source_language language,
                                                             std::span<const std::byte>,
                                                             std::span<const std::string>) {
    throw error(errc::feature_not_supported, "build_program: the " + std::string(name()) +
                                                 " backend builds no " + std::string(to_string(language)) +
                                                 " (" + properties(device).name + ")");
}

} // namespace encore

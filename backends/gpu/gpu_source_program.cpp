// backend::build_program on the GPU layer: the driver's run-time compiler (CUDA C++ through NVRTC) builds a
// module image, and the program's kernels are the module's (gpu_module.hpp), launched like any module kernel.
#include <string>

#include "encore/backends/detail/built_program.hpp"
#include "encore/backends/gpu/driver.hpp"
#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/backends/gpu/gpu_module.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

program_binary driver::compile_source(std::uint32_t, std::string_view, std::span<const std::string>) {
    throw error(errc::feature_not_supported,
                "build_program: " + std::string(name()) + " has no run-time compiler here");
}

std::shared_ptr<const source_program> gpu_backend::build_program(std::uint32_t device,
                                                                 source_language language,
                                                                 std::span<const std::byte> source,
                                                                 std::span<const std::string> options) {
    if (!builds(language)) return backend::build_program(device, language, source, options);
    if (device >= device_count())
        throw error(errc::invalid_argument, "build_program: no device " + std::to_string(device) + " here");
    if (source.empty()) throw error(errc::invalid_argument, "build_program: the source is empty");
    const std::string_view text(reinterpret_cast<const char*>(source.data()), source.size());
    return std::make_shared<::encore::detail::built_program<module, &gpu::get_kernel>>(
        module::load(api_->compile_source(device, text, options)));
}

} // namespace encore::gpu

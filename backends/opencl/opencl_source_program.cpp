// backend::build_program on OpenCL: OpenCL C or SPIR-V built by encore::opencl::build_program (the one build
// step, through the kernel/program cache), the program's kernels taken by name.
#include <string>
#include <vector>

#include "encore/backends/detail/built_program.hpp"
#include "encore/backends/opencl/opencl_backend.hpp"
#include "encore/backends/opencl/opencl_program.hpp"
#include "encore/graph/error.hpp"

namespace encore::opencl {

std::shared_ptr<const source_program> opencl_backend::build_program(std::uint32_t device,
                                                                    source_language language,
                                                                    std::span<const std::byte> source,
                                                                    std::span<const std::string> options) {
    if (!builds(language)) return backend::build_program(device, language, source, options);
    if (device >= device_count())
        throw error(errc::invalid_argument, "build_program: no device " + std::to_string(device) + " here");
    program_source text;
    if (language == source_language::spirv) {
        std::vector<unsigned char> il(source.size());
        for (std::size_t i = 0; i < il.size(); ++i)
            il[i] = static_cast<unsigned char>(source[i]);
        text = program_source::spirv(std::move(il));
    } else {
        text = program_source::opencl_c(
            std::string(reinterpret_cast<const char*>(source.data()), source.size()));
    }
    return std::make_shared<::encore::detail::built_program<program, &opencl::get_kernel>>(
        program::load(opencl::build_program(encore::device(*this, device), text, options)));
}

} // namespace encore::opencl

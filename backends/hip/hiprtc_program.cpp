#include "hiprtc_program.hpp"

#include <hip/hiprtc.h>

#include <memory>

#include "encore/backends/gpu/runtime_compiler.hpp"
#include "encore/backends/hip/hip_library.hpp"
#include "encore/cache/program_cache.hpp"
#include "encore/graph/error.hpp"

namespace encore::hip {

namespace {

// The hiprtc entry points, from the dlopen'ed HIP runtime (the table gpu::run_compiler takes).
struct hiprtc_api {
    using program = hiprtcProgram;
    static constexpr hiprtcResult success = HIPRTC_SUCCESS;
    static constexpr hiprtcResult compilation_error = HIPRTC_ERROR_COMPILATION;
    static constexpr const char* prefix = "hiprtc";
    std::string missing; // why it could not be loaded
    decltype(&hiprtcGetErrorString) get_error_string = nullptr;
    decltype(&hiprtcVersion) version = nullptr;
    decltype(&hiprtcCreateProgram) create_program = nullptr;
    decltype(&hiprtcDestroyProgram) destroy_program = nullptr;
    decltype(&hiprtcCompileProgram) compile_program = nullptr;
    decltype(&hiprtcGetProgramLogSize) get_log_size = nullptr;
    decltype(&hiprtcGetProgramLog) get_log = nullptr;
    decltype(&hiprtcGetCodeSize) get_code_size = nullptr;
    decltype(&hiprtcGetCode) get_code = nullptr;
};

const hiprtc_api& hiprtc() {
    static const hiprtc_api api = [] {
        hiprtc_api a;
        void* library = open_hip_library(a.missing);
        if (!library) return a;
        bind_symbol(library, a.get_error_string, "hiprtcGetErrorString", a.missing);
        bind_symbol(library, a.version, "hiprtcVersion", a.missing);
        bind_symbol(library, a.create_program, "hiprtcCreateProgram", a.missing);
        bind_symbol(library, a.destroy_program, "hiprtcDestroyProgram", a.missing);
        bind_symbol(library, a.compile_program, "hiprtcCompileProgram", a.missing);
        bind_symbol(library, a.get_log_size, "hiprtcGetProgramLogSize", a.missing);
        bind_symbol(library, a.get_log, "hiprtcGetProgramLog", a.missing);
        bind_symbol(library, a.get_code_size, "hiprtcGetCodeSize", a.missing);
        bind_symbol(library, a.get_code, "hiprtcGetCode", a.missing);
        return a;
    }();
    return api;
}

} // namespace

program_binary build_program(std::string_view source, std::span<const std::string> options,
                             std::string_view name) {
    cache::program_key key{
        .backend = "hip", .source_kind = "hip-c++", .name = std::string(name), .source = std::string(source)};
    key.options.assign(options.begin(), options.end());
    key.device = gpu::target_option(options, {"--offload-arch", "--gpu-architecture"});
    if (key.device.empty()) key.device = "current device";
    const hiprtc_api& api = hiprtc();
    return gpu::build_cached(
        api, std::move(key),
        [&](hiprtcProgram p, std::string& payload) {
            std::size_t size = 0;
            gpu::check_compiler(api, api.get_code_size(p, &size), "GetCodeSize");
            // Seen with Debian's HIP 5.2 on a machine without an AMD GPU: a successful compilation, and no
            // code.
            if (size == 0)
                throw error(errc::build_failure,
                            "hip build_program: hiprtc compiled " + std::string(name) +
                                " to an empty code object (no code object support for that "
                                "target here?)");
            payload.resize(size);
            gpu::check_compiler(api, api.get_code(p, payload.data()), "GetCode");
        },
        [](const std::string&) { return program_binary::format::code_object; });
}

} // namespace encore::hip

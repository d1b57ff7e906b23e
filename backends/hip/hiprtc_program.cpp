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

program_binary build_program(std::string_view source, std::span<const std::string> options, std::string_view name) {
    const hiprtc_api& api = hiprtc();
    if (!api.missing.empty()) throw error(errc::backend_failure, "hip build_program: " + api.missing);

    cache::program_key key{.backend = "hip", .source_kind = "hip-c++", .name = std::string(name),
                           .source = std::string(source)};
    key.device = "current device";
    for (std::size_t i = 0; i < options.size(); ++i) {
        const std::string& o = options[i];
        key.options.push_back(o);
        for (const char* flag : {"--offload-arch", "--gpu-architecture"}) {
            if (o.rfind(flag, 0) != 0) continue;
            if (const auto equals = o.find('='); equals != std::string::npos) key.device = o.substr(equals + 1);
            else if (i + 1 < options.size()) key.device = options[i + 1];
        }
    }
    int major = 0, minor = 0;
    gpu::check_compiler(api, api.version(&major, &minor), "Version");
    key.toolchain = "hiprtc " + std::to_string(major) + "." + std::to_string(minor);

    std::vector<const char*> arguments;
    for (const auto& o : key.options)
        arguments.push_back(o.c_str());
    auto compile = [&] {
        auto built = gpu::run_compiler(api, key.source, key.name, arguments, [&](hiprtcProgram p, std::string& payload) {
            std::size_t size = 0;
            gpu::check_compiler(api, api.get_code_size(p, &size), "GetCodeSize");
            payload.resize(size);
            if (size) gpu::check_compiler(api, api.get_code(p, payload.data()), "GetCode");
        });
        // Seen with Debian's HIP 5.2 on a machine without an AMD GPU: a successful compilation, and no code.
        if (built.payload.empty())
            throw error(errc::build_failure, "hip build_program: hiprtc compiled " + key.name + " for " + key.device +
                                                 " to an empty code object (no code object support for that target "
                                                 "here?)" + (built.log.empty() ? "" : ":\n" + built.log));
        return built;
    };
    auto binary = cache::program_cache::process().get_or_build<program_binary>(
        key, compile, [](const cache::built_program& built) {
            auto b = std::make_shared<program_binary>();
            b->kind = program_binary::format::code_object;
            b->bytes.assign(built.payload.begin(), built.payload.end());
            b->log = built.log;
            return std::shared_ptr<const program_binary>(std::move(b));
        });
    return *binary;
}

} // namespace encore::hip

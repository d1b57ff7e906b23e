// encore::gpu::build_cached and run_compiler — GPU run-time compilers (NVRTC, hiprtc: the same calls under
// two prefixes) behind the kernel/program cache, written once for backends/cuda/nvrtc_program.cpp and
// backends/hip/hiprtc_program.cpp. Not for you: include it only where such a compiler's table is loaded.
//
// `Api` is the compiler's table of entry points with these members: create_program, destroy_program,
// compile_program, get_log_size, get_log, get_error_string, version (the API's own function pointer types);
// `missing` (why the compiler could not be loaded, empty when it was); the type `program` (nvrtcProgram,
// hiprtcProgram), the result codes `success` and `compilation_error`, and `prefix` ("nvrtc", "hiprtc"), with
// which errors name the failed call and the cache key names the toolchain. `get_code` fills the payload from
// the compiled program (PTX or cubin for NVRTC, the code object for hiprtc).
//
//     auto binary = build_cached(api, key, get_code, [](const std::string&) { return format::code_object; });
#pragma once

#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "encore/backends/gpu/gpu_module.hpp"
#include "encore/cache/program_cache.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

// Throws errc::backend_failure naming `call` when `result` is not the API's success.
template <typename Api, typename Result>
void check_compiler(const Api& api, Result result, const char* call) {
    if (result != Api::success)
        throw error(errc::backend_failure,
                    std::string(Api::prefix) + call + ": " + api.get_error_string(result));
}

// Compiles `text` as `program_name` with `arguments`. Throws errc::build_failure with the compiler's log when
// the source does not compile; errc::backend_failure when the compiler fails otherwise.
template <typename Api, typename GetCode>
cache::built_program run_compiler(const Api& api, const std::string& text, const std::string& program_name,
                                  const std::vector<const char*>& arguments, GetCode get_code) {
    using program = typename Api::program;
    program p = nullptr;
    check_compiler(api, api.create_program(&p, text.c_str(), program_name.c_str(), 0, nullptr, nullptr),
                   "CreateProgram");
    auto destroy = [&api](program* owned) { api.destroy_program(owned); };
    std::unique_ptr<program, decltype(destroy)> owner(&p, destroy);

    // hiprtc takes the options as `const char**`, NVRTC as `const char* const*`; neither writes them.
    const auto compiled = api.compile_program(p, static_cast<int>(arguments.size()),
                                              const_cast<const char**>(arguments.data()));
    cache::built_program result;
    std::size_t log_size = 0;
    check_compiler(api, api.get_log_size(p, &log_size), "GetProgramLogSize");
    if (log_size > 1) {
        result.log.resize(log_size);
        check_compiler(api, api.get_log(p, result.log.data()), "GetProgramLog");
        result.log.resize(log_size - 1); // the NUL
    }
    if (compiled == Api::compilation_error)
        throw error(errc::build_failure,
                    "build_program: " + program_name + " does not compile:\n" + result.log);
    check_compiler(api, compiled, "CompileProgram");
    get_code(p, result.payload);
    return result;
}

// The value of the first option naming a target with one of `flags`: "-arch=sm_90" or "-arch", "sm_90" give
// "sm_90". Empty when none does.
inline std::string target_option(std::span<const std::string> options,
                                 std::initializer_list<std::string_view> flags) {
    for (std::size_t i = 0; i < options.size(); ++i)
        for (std::string_view flag : flags) {
            const std::string& o = options[i];
            if (o.rfind(flag, 0) != 0) continue;
            if (const auto equals = o.find('='); equals != std::string::npos) return o.substr(equals + 1);
            if (i + 1 < options.size()) return options[i + 1];
        }
    return {};
}

// Builds `key` (source, name, options, device; the toolchain is added here: the compiler's version, since it
// alone turns source into the binary) through the process's program cache: a stored binary when there is one,
// else one compilation. `get_code` as for run_compiler; `kind_of(payload)` tells the binary's format.
template <typename Api, typename GetCode, typename KindOf>
program_binary build_cached(const Api& api, cache::program_key key, GetCode get_code, KindOf kind_of) {
    if (!api.missing.empty()) throw error(errc::backend_failure, "build_program: " + api.missing);
    int major = 0, minor = 0;
    check_compiler(api, api.version(&major, &minor), "Version");
    key.toolchain = std::string(Api::prefix) + " " + std::to_string(major) + "." + std::to_string(minor);
    std::vector<const char*> arguments;
    for (const auto& o : key.options)
        arguments.push_back(o.c_str());
    auto binary = cache::program_cache::process().get_or_build<program_binary>(
        key, [&] { return run_compiler(api, key.source, key.name, arguments, get_code); },
        [&](const cache::built_program& built) {
            auto b = std::make_shared<program_binary>();
            b->kind = kind_of(built.payload);
            b->bytes.assign(built.payload.begin(), built.payload.end());
            b->log = built.log;
            return std::shared_ptr<const program_binary>(std::move(b));
        });
    return *binary;
}

} // namespace encore::gpu

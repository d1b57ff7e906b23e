// encore::gpu::run_compiler — one compilation by a GPU run-time compiler (NVRTC, hiprtc: the same six calls
// under two prefixes), written once for backends/cuda/nvrtc_program.cpp and backends/hip/hiprtc_program.cpp.
// Not for you: include it only where such a compiler's table is loaded.
//
// `Api` is the compiler's table of entry points with these members: create_program, destroy_program,
// compile_program, get_log_size, get_log, get_error_string (the API's own function pointer types); the type
// `program` (nvrtcProgram, hiprtcProgram), the result codes `success` and `compilation_error`, and `prefix`
// ("nvrtc", "hiprtc"), with which errors name the failed call. `get_code` fills the payload from the compiled program
// (PTX or cubin for NVRTC, the code object for hiprtc).
//
//     auto built = run_compiler(api, source, "saxpy.cu", arguments, [&](auto program, std::string& payload) {...});
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "encore/cache/program_cache.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

// Throws errc::backend_failure naming `call` when `result` is not the API's success.
template <typename Api, typename Result> void check_compiler(const Api& api, Result result, const char* call) {
    if (result != Api::success)
        throw error(errc::backend_failure, std::string(Api::prefix) + call + ": " + api.get_error_string(result));
}

// Compiles `text` as `program_name` with `arguments`. Throws errc::build_failure with the compiler's log when the
// source does not compile; errc::backend_failure when the compiler fails otherwise.
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
    const auto compiled =
        api.compile_program(p, static_cast<int>(arguments.size()), const_cast<const char**>(arguments.data()));
    cache::built_program result;
    std::size_t log_size = 0;
    check_compiler(api, api.get_log_size(p, &log_size), "GetProgramLogSize");
    if (log_size > 1) {
        result.log.resize(log_size);
        check_compiler(api, api.get_log(p, result.log.data()), "GetProgramLog");
        result.log.resize(log_size - 1); // the NUL
    }
    if (compiled == Api::compilation_error)
        throw error(errc::build_failure, "build_program: " + program_name + " does not compile:\n" + result.log);
    check_compiler(api, compiled, "CompileProgram");
    get_code(p, result.payload);
    return result;
}

} // namespace encore::gpu

#include "nvrtc_program.hpp"

#include <dlfcn.h>
#include <nvrtc.h>

#include <algorithm>
#include <memory>
#include <mutex>

#include "encore/backends/gpu/runtime_compiler.hpp"
#include "encore/cache/program_cache.hpp"
#include "encore/graph/error.hpp"

namespace encore::cuda {

namespace {

// The NVRTC entry points Encore uses, from a dlopen'ed library.
struct nvrtc_api {
    using program = nvrtcProgram;
    static constexpr nvrtcResult success = NVRTC_SUCCESS;
    static constexpr nvrtcResult compilation_error = NVRTC_ERROR_COMPILATION;
    static constexpr const char* prefix = "nvrtc";
    void* library = nullptr;
    std::string missing; // why it could not be loaded
    decltype(&nvrtcGetErrorString) get_error_string = nullptr;
    decltype(&nvrtcVersion) version = nullptr;
    decltype(&nvrtcCreateProgram) create_program = nullptr;
    decltype(&nvrtcDestroyProgram) destroy_program = nullptr;
    decltype(&nvrtcCompileProgram) compile_program = nullptr;
    decltype(&nvrtcGetProgramLogSize) get_log_size = nullptr;
    decltype(&nvrtcGetProgramLog) get_log = nullptr;
    decltype(&nvrtcGetPTXSize) get_ptx_size = nullptr;
    decltype(&nvrtcGetPTX) get_ptx = nullptr;
    decltype(&nvrtcGetCUBINSize) get_cubin_size = nullptr;
    decltype(&nvrtcGetCUBIN) get_cubin = nullptr;
};

template <typename F> void bind(nvrtc_api& api, F& f, const char* symbol) {
    f = reinterpret_cast<F>(::dlsym(api.library, symbol));
    if (!f && api.missing.empty()) api.missing = std::string("NVRTC has no symbol ") + symbol;
}

const nvrtc_api& nvrtc() {
    static const nvrtc_api api = [] {
        nvrtc_api a;
        for (const char* name :
             {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13",
              "/usr/local/cuda/lib64/libnvrtc.so"}) {
            a.library = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
            if (a.library) break;
        }
        if (!a.library) {
            const char* why = ::dlerror();
            a.missing = std::string("NVRTC could not be loaded: ") + (why ? why : "libnvrtc.so.13 not found");
            return a;
        }
        bind(a, a.get_error_string, "nvrtcGetErrorString");
        bind(a, a.version, "nvrtcVersion");
        bind(a, a.create_program, "nvrtcCreateProgram");
        bind(a, a.destroy_program, "nvrtcDestroyProgram");
        bind(a, a.compile_program, "nvrtcCompileProgram");
        bind(a, a.get_log_size, "nvrtcGetProgramLogSize");
        bind(a, a.get_log, "nvrtcGetProgramLog");
        bind(a, a.get_ptx_size, "nvrtcGetPTXSize");
        bind(a, a.get_ptx, "nvrtcGetPTX");
        bind(a, a.get_cubin_size, "nvrtcGetCUBINSize");
        bind(a, a.get_cubin, "nvrtcGetCUBIN");
        return a;
    }();
    return api;
}

} // namespace

program_binary build_program(std::string_view source, std::span<const std::string> options,
                             std::string_view name) {
    cache::program_key key{.backend = "cuda",
                           .source_kind = "cuda-c++",
                           .name = std::string(name),
                           .source = std::string(source)};
    key.options.assign(options.begin(), options.end());
    // The target architecture is the key's device: NVRTC's output depends on it, not on the GPU present.
    key.device = gpu::target_option(options, {"-arch", "--gpu-architecture"});
    if (key.device.empty()) {
        key.options.push_back("-arch=compute_75");
        key.device = "compute_75";
    }
    const bool cubin = key.device.find("sm_") != std::string::npos;
    const nvrtc_api& api = nvrtc();
    return gpu::build_cached(
        api, std::move(key),
        [&](nvrtcProgram p, std::string& payload) {
            std::size_t size = 0;
            if (cubin) {
                gpu::check_compiler(api, api.get_cubin_size(p, &size), "GetCUBINSize");
                payload.resize(size);
                gpu::check_compiler(api, api.get_cubin(p, payload.data()), "GetCUBIN");
            } else {
                gpu::check_compiler(api, api.get_ptx_size(p, &size), "GetPTXSize");
                payload.resize(size);
                gpu::check_compiler(api, api.get_ptx(p, payload.data()), "GetPTX");
            }
        },
        [](const std::string& payload) { // NVRTC's cubins are ELF files; PTX is text
            return payload.starts_with("\x7f"
                                       "ELF")
                       ? program_binary::format::cubin
                       : program_binary::format::ptx;
        });
}

} // namespace encore::cuda

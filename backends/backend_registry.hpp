// encore::backend_registry — which backends this process uses, in which order, and why.
//
// The native backend is built into libencore. Every other backend is a plugin, `libencore-backend-<name>.so`,
// looked for first in the directory libencore itself was loaded from (found with dladdr) and then in each
// directory of ENCORE_BACKEND_PATH (colon-separated), and loaded with dlopen when found. A plugin that is
// absent, fails to load, speaks another interface version or finds no driver is one line in the trace, never
// an error: one build of a program runs on machines with and without CUDA, HIP, Level Zero or OpenCL.
//
// Environment (read once, by global()):
//   ENCORE_BACKENDS       comma-separated backend names, in order of preference; only these are loaded.
//                         Default: cuda,hip,level_zero,opencl,native (GPUs first, the CPU always last).
//   ENCORE_BACKEND_PATH   more directories to look for plugins in.
//   ENCORE_TRACE          any value but empty or 0: print the trace (what was loaded from where, what was not
//                         and why) to stderr, one "encore: " line each.
// encore::device::all() lists the devices of the loaded backends in that order; the first is the default
// device.
//
//     encore::backend_registry registry({.backends = "counting,native", .search_path =
//     "/opt/encore/plugins"}); for (const auto& line : registry.trace()) std::puts(line.c_str());
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"
#include "backends/device.hpp"

namespace encore {

struct registry_options {
    std::string backends = "cuda,hip,level_zero,opencl,native"; // ENCORE_BACKENDS syntax
    std::string search_path;                                    // ENCORE_BACKEND_PATH syntax
    bool trace = false;                                         // echo the trace to stderr

    static registry_options from_environment();
};

class backend_registry {
public:
    explicit backend_registry(registry_options options = {});
    ~backend_registry();
    backend_registry(const backend_registry&) = delete;
    backend_registry& operator=(const backend_registry&) = delete;

    // The process's registry, configured from the environment on first use.
    static backend_registry& global();

    // The loaded backends, in order of preference.
    const std::vector<backend*>& backends() const noexcept { return order_; }
    backend* find(std::string_view name) const noexcept;
    std::vector<device> devices() const;
    // What was loaded from where, and what was not and why, in the order it happened.
    const std::vector<std::string>& trace() const noexcept { return trace_; }
    // The directories searched for plugins: libencore's own, then ENCORE_BACKEND_PATH's.
    const std::vector<std::string>& search_directories() const noexcept { return directories_; }

private:
    struct plugin; // a dlopen handle and the backend it made, destroyed in that order
    void note(std::string line);
    void load(const std::string& name);

    registry_options options_;
    std::vector<std::string> directories_;
    std::vector<std::unique_ptr<plugin>> plugins_;
    std::vector<backend*> order_;
    std::vector<std::string> trace_;
};

} // namespace encore

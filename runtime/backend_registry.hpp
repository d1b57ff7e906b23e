// encore::backend_registry — which backends this process uses, in which order, and why.
//
// The native backend is built into libencore. Every other backend is a plugin, `libencore-backend-<name>.so`,
// looked for first in the directory libencore itself was loaded from (found with dladdr), then in its
// subdirectory encore/ (where an installed Encore keeps its plugins: <libdir>/encore), then in each directory of
// ENCORE_BACKEND_PATH (colon-separated), and last, when libencore's directory is the root of the build tree it was
// built in (a program of that tree: bench, samples, tests), in that build's backends/<name>/ folders; loaded with
// dlopen when found. A plugin that is
// absent, fails to load, speaks another interface version or finds no driver is one line in the trace, never
// an error: one build of a program runs on machines with and without CUDA, HIP, Level Zero or OpenCL.
//
// Environment (read once, by global()):
//   ENCORE_BACKENDS       comma-separated backend names, in order of preference; only these are loaded.
//                         Default: cuda,hip,level_zero,opencl,native (GPUs first, the CPU always last).
//   ENCORE_BACKEND_PATH   more directories to look for plugins in.
//   ONEAPI_DEVICE_SELECTOR  which devices are visible, in DPC++'s syntax with Encore's backend names
//                         (runtime/device_filter.hpp); a malformed value throws encore::error naming it.
//   ENCORE_TRACE          any value but empty or 0: print the trace (what was loaded from where, what was not
//                         and why) to stderr, one "encore: " line each.
// encore::device::all() lists the visible devices of the loaded backends in that order. The default device is
// the first of them that can run the program's kernels (default_device(); the rule is in docs/runtime.md).
//
//     encore::backend_registry registry({.backends = "counting,native", .search_path =
//     "/opt/encore/plugins"}); for (const auto& line : registry.trace()) std::puts(line.c_str());
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/runtime/device.hpp"
#include "encore/runtime/device_filter.hpp"

namespace encore {

// Every backend Encore ships, in the default order of preference (ENCORE_BACKENDS' default).
inline constexpr std::string_view known_backends = "cuda,hip,level_zero,opencl,native";

struct registry_options {
    std::string backends = std::string(known_backends);         // ENCORE_BACKENDS syntax
    std::string search_path;                                    // ENCORE_BACKEND_PATH syntax
    std::optional<std::string> device_selector;                 // ONEAPI_DEVICE_SELECTOR syntax; unset: all
    bool trace = false;                                         // echo the trace to stderr

    static registry_options from_environment();
};

// What became of one backend that ENCORE_BACKENDS names: its trace line as data (encore-ls prints it).
struct backend_report {
    enum class outcome : std::uint8_t {
        loaded,        // in backends(), with a device or more (the selector may hide some)
        not_selected,  // not loaded: ONEAPI_DEVICE_SELECTOR selects none of its devices
        absent,        // its plugin file is in none of the searched directories
        load_failed,   // dlopen failed (a library it needs is missing), no entry point, or it threw
        other_version, // the plugin made no backend and said nothing: built for another interface version
        unavailable,   // the plugin said why it made no backend (no driver, no platform, ...)
        no_device,     // loaded, but the backend has no device
        bad_name,      // not a backend name
    };
    std::string name;
    outcome result = outcome::absent;
    std::string path;   // the plugin file when one was found; empty for native and when none was
    std::string reason; // the trace's words
};
// "loaded", "not selected", "absent", "failed to load", "other interface version", "unavailable",
// "no device", "bad name".
std::string_view to_string(backend_report::outcome outcome) noexcept;

class backend_registry {
public:
    // Throws encore::error(invalid_argument) when options.device_selector is malformed.
    explicit backend_registry(registry_options options = {});
    ~backend_registry();
    backend_registry(const backend_registry&) = delete;
    backend_registry& operator=(const backend_registry&) = delete;

    // The process's registry, configured from the environment on first use.
    static backend_registry& global();

    // The loaded backends, in order of preference.
    const std::vector<backend*>& backends() const noexcept { return order_; }
    backend* find(std::string_view name) const noexcept;
    // The visible devices (ONEAPI_DEVICE_SELECTOR), backends in order of preference.
    std::vector<device> devices() const { return devices_; }
    // The devices of loaded backends that ONEAPI_DEVICE_SELECTOR hides (the devices of a backend it rules out
    // entirely are unknown: that backend is not loaded, see backend_reports()).
    std::vector<device> hidden_devices() const { return hidden_; }
    // One report per backend ENCORE_BACKENDS names (a name listed twice: once), in that order.
    const std::vector<backend_report>& backend_reports() const noexcept { return reports_; }
    // The first visible device that runs the program's kernels: one whose backend runs host code
    // (device_properties::host_kernels) or one the program carries device code for (program_device_code.hpp);
    // if no visible device can, the first visible one. The reason for the choice is added to the trace once.
    // Throws encore::error(backend_failure) when no device is visible.
    device default_device();
    // default_device()'s reason, as its trace line says it without "default device: " ("native:0 (...),
    // because it runs the program's host-compiled kernels; skipped ..."). Throws as default_device() does.
    std::string default_device_explanation();
    // What was loaded from where, and what was not and why, in the order it happened.
    // A copy: default_device() may add to the trace from any thread.
    std::vector<std::string> trace() const;
    // The directories searched for plugins: libencore's own, ENCORE_BACKEND_PATH's, then its build tree's.
    const std::vector<std::string>& search_directories() const noexcept { return directories_; }

private:
    struct plugin; // a dlopen handle and the backend it made, destroyed in that order
    void note(std::string line);
    device choose_default();                // default_device()'s rule, traced
    void explain_default(std::string line); // traced only when it differs from the last explanation
    void load(const std::string& name);
    void report(const std::string& name, backend_report::outcome result, std::string path,
                std::string reason);

    registry_options options_;
    std::vector<std::string> directories_;
    std::vector<std::unique_ptr<plugin>> plugins_;
    std::vector<backend*> order_;
    std::vector<device> devices_;
    std::vector<device> hidden_;
    std::vector<backend_report> reports_;
    device_filter filter_;
    mutable std::mutex trace_mutex_;
    std::string last_choice_; // the default-device explanation last traced
    // default_device()'s last answer, valid while program_device_code_count() is what it was (under trace_mutex_)
    std::optional<device> default_;
    std::size_t default_for_count_ = 0;
    std::vector<std::string> trace_;
};

} // namespace encore

// encore-ls — which backends and devices Encore finds on this machine, and why (docs/runtime.md,
// "encore-ls").
//
//     encore-ls              every backend (loaded or not, and why), every visible device with what a user
//                            chooses by, the devices ONEAPI_DEVICE_SELECTOR hides, and the default device
//     encore-ls --verbose    every device property, the plugin directories searched and the registry's trace
//     encore-ls --json       all of it as one JSON object (its fields are listed in docs/runtime.md)
//
// It reads the environment as every Encore program does (ENCORE_BACKENDS, ENCORE_BACKEND_PATH,
// ONEAPI_DEVICE_SELECTOR, backend settings), through a backend_registry of its own, so what it prints is what
// a program started in the same environment gets. Exit status: 0 at least one device is visible; 1 none is
// (no backend loaded, or the selector hides every device); 2 a bad command line or a malformed
// ONEAPI_DEVICE_SELECTOR.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "encore/backends/source_program.hpp"
#include "encore/graph/detail/human_bytes.hpp"
#include "encore/graph/error.hpp"
#include "encore/runtime/backend_registry.hpp"

#ifndef ENCORE_VERSION
#define ENCORE_VERSION "unknown"
#endif

namespace {

// Fields in the order people read them (docs/runtime.md lists them so).
using json = nlohmann::ordered_json;
using encore::detail::human_bytes;

constexpr int exit_no_device = 1;
constexpr int exit_usage = 2;

struct options {
    bool verbose = false;
    bool json = false;
};

void print_usage(std::FILE* to) {
    std::fprintf(
        to, "usage: encore-ls [--verbose | -v] [--json] [--help | -h]\n"
            "  lists Encore's backends (loaded or not, and why) and the devices a program started in this\n"
            "  environment can use (after ONEAPI_DEVICE_SELECTOR), with the default device and why\n"
            "  --verbose  every device property, the plugin directories searched and the registry's trace\n"
            "  --json     one JSON object (fields: docs/runtime.md, \"encore-ls\")\n"
            "exit status: 0 a device is usable, 1 none is, 2 bad command line or ONEAPI_DEVICE_SELECTOR\n");
}

// Parses argv; nullopt after printing why (exit 2) or the help (exit 0, `help` set).
std::optional<options> parse(int argc, char** argv, bool& help) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--verbose" || a == "-v")
            o.verbose = true;
        else if (a == "--json")
            o.json = true;
        else if (a == "--help" || a == "-h") {
            help = true;
            print_usage(stdout);
            return std::nullopt;
        } else {
            std::fprintf(stderr, "encore-ls: %s '%s'\n",
                         a.rfind("-", 0) == 0 ? "unknown option" : "unexpected argument", argv[i]);
            print_usage(stderr);
            return std::nullopt;
        }
    }
    return o;
}

std::string_view type_name(encore::device_type t) {
    switch (t) {
    case encore::device_type::cpu:
        return "cpu";
    case encore::device_type::gpu:
        return "gpu";
    case encore::device_type::accelerator:
        return "accelerator";
    }
    return "unknown";
}

json optional_env(const char* name) {
    const char* value = std::getenv(name);
    return value ? json(value) : json(nullptr);
}

json describe(const encore::device& d, bool is_default) {
    const auto& p = d.properties();
    json usm = json::array({"device"});
    if (p.host_memory) usm.push_back("host");
    if (p.shared_memory) usm.push_back("shared");
    // backend::builds answers for the backend; SPIR-V builds need a device that takes IL too.
    json builds = json::array();
    for (auto language :
         {encore::source_language::opencl_c, encore::source_language::spirv, encore::source_language::cuda})
        if (d.owner().builds(language) && (language != encore::source_language::spirv || p.spirv))
            builds.push_back(encore::to_string(language));
    return {
        {"id", std::string(d.backend_name()) + ":" + std::to_string(d.index())},
        {"backend", d.backend_name()},
        {"index", d.index()},
        {"type", type_name(p.type)},
        {"name", p.name},
        {"vendor", p.vendor},
        {"driver_version", p.driver_version},
        {"architecture", p.architecture},
        {"compute_units", p.compute_units},
        {"global_memory_bytes", p.global_memory_bytes},
        {"local_memory_bytes", p.local_memory_bytes},
        {"max_work_group_size", p.max_work_group_size},
        {"allocation_alignment", p.allocation_alignment},
        {"usm", usm},
        {"mapped_device_memory", p.mapped_device_memory},
        {"sub_group_sizes", p.sub_group_sizes},
        {"graph_lowering", p.graph_lowering},
        {"native_graphs", p.native_graphs},
        {"native_recording", p.native_recording},
        {"spirv", p.spirv},
        {"spir", p.spir},
        {"builds", builds},
        {"profiling", p.profiling},
        {"host_kernels", p.host_kernels},
        {"default", is_default},
    };
}

// Everything encore-ls knows, once; the text form is printed from it too, so the two never disagree.
json describe(encore::backend_registry& registry) {
    json out;
    out["encore_version"] = ENCORE_VERSION;
    out["environment"] = {{"ENCORE_BACKENDS", optional_env("ENCORE_BACKENDS")},
                          {"ENCORE_BACKEND_PATH", optional_env("ENCORE_BACKEND_PATH")},
                          {"ONEAPI_DEVICE_SELECTOR", optional_env("ONEAPI_DEVICE_SELECTOR")}};
    out["search_directories"] = registry.search_directories();

    out["backends"] = json::array();
    std::vector<std::string> listed;
    for (const auto& r : registry.backend_reports()) {
        listed.push_back(r.name);
        const auto* b = r.result == encore::backend_report::outcome::loaded ? registry.find(r.name) : nullptr;
        out["backends"].push_back({{"name", r.name},
                                   {"status", encore::to_string(r.result)},
                                   {"path", r.path.empty() ? json(nullptr) : json(r.path)},
                                   {"reason", r.reason},
                                   {"devices", b ? b->device_count() : 0u}});
    }
    // The backends Encore ships that ENCORE_BACKENDS leaves out were never tried.
    std::string_view known = encore::known_backends;
    while (!known.empty()) {
        const auto comma = known.find(',');
        const std::string name(known.substr(0, comma));
        known.remove_prefix(comma == std::string_view::npos ? known.size() : comma + 1);
        if (std::find(listed.begin(), listed.end(), name) != listed.end()) continue;
        out["backends"].push_back({{"name", name},
                                   {"status", "not listed"},
                                   {"path", nullptr},
                                   {"reason", "not tried: ENCORE_BACKENDS does not name it"},
                                   {"devices", 0u}});
    }

    const auto devices = registry.devices();
    std::optional<encore::device> chosen;
    out["default_device"] = nullptr;
    if (!devices.empty()) {
        const std::string why = registry.default_device_explanation();
        chosen = registry.default_device();
        out["default_device"] = {
            {"id", std::string(chosen->backend_name()) + ":" + std::to_string(chosen->index())},
            {"reason", why}};
    }
    out["devices"] = json::array();
    for (const auto& d : devices)
        out["devices"].push_back(describe(d, chosen && d == *chosen));
    out["hidden_devices"] = json::array();
    for (const auto& d : registry.hidden_devices())
        out["hidden_devices"].push_back(describe(d, false));
    out["usable"] = !devices.empty();
    out["trace"] = registry.trace();
    return out;
}

std::string yes_no(const json& value) {
    return value.get<bool>() ? "yes" : "no";
}

std::string list_of(const json& values, const char* if_empty) {
    std::string text;
    for (const auto& v : values)
        text += (text.empty() ? "" : ", ") + (v.is_string() ? v.get<std::string>() : v.dump());
    return text.empty() ? if_empty : text;
}

void print_device(const json& d, bool verbose) {
    std::printf("  %s  %s  %s%s\n", d["id"].get<std::string>().c_str(), d["type"].get<std::string>().c_str(),
                d["name"].get<std::string>().c_str(), d["default"].get<bool>() ? "  [default]" : "");
    auto row = [](const char* label, const std::string& value) {
        std::printf("      %-16s %s\n", label, value.c_str());
    };
    row("driver", d["driver_version"].get<std::string>());
    row("memory", human_bytes(d["global_memory_bytes"].get<std::uint64_t>()) + " global, " +
                      human_bytes(d["local_memory_bytes"].get<std::uint64_t>()) + " local per work-group");
    row("USM", list_of(d["usm"], "none") +
                   (d["mapped_device_memory"].get<bool>() ? " (device memory mapped for host access)" : ""));
    row("sub-groups", list_of(d["sub_group_sizes"], "not reported"));
    row("graphs", d["graph_lowering"].get<std::string>().empty() ? "not reported"
                                                                 : d["graph_lowering"].get<std::string>());
    row("SPIR-V", yes_no(d["spirv"]));
    row("SPIR 1.2", yes_no(d["spir"]));
    if (!verbose) return;
    row("vendor", d["vendor"].get<std::string>());
    row("architecture",
        d["architecture"].get<std::string>().empty() ? "-" : d["architecture"].get<std::string>());
    row("compute units", std::to_string(d["compute_units"].get<std::uint32_t>()));
    row("work-group", "at most " + std::to_string(d["max_work_group_size"].get<std::uint64_t>()) + " items");
    row("alignment", std::to_string(d["allocation_alignment"].get<std::uint64_t>()) + " bytes");
    row("native graphs", yes_no(d["native_graphs"]));
    row("native recording", yes_no(d["native_recording"]));
    row("host kernels", yes_no(d["host_kernels"]));
    row("profiling", yes_no(d["profiling"]));
    row("builds", list_of(d["builds"], "nothing from source"));
}

// The registry's reasons begin with what the status column already says.
std::string_view without_status(std::string_view reason) {
    for (std::string_view prefix : {"not loaded: ", "unavailable: "})
        if (reason.rfind(prefix, 0) == 0) return reason.substr(prefix.size());
    return reason;
}

void print_text(const json& all, bool verbose) {
    const auto& env = all["environment"];
    // Unset or empty, ENCORE_BACKENDS means the default order (registry_options::from_environment).
    const bool by_default =
        env["ENCORE_BACKENDS"].is_null() || env["ENCORE_BACKENDS"].get<std::string>().empty();
    const std::string order = by_default ? std::string(encore::known_backends) + " (default)"
                                         : env["ENCORE_BACKENDS"].get<std::string>();
    std::printf("Backends, in order of preference: %s\n", order.c_str());
    // Columns as wide as their longest entry ("other interface version" is long and rare).
    int name_width = 0, status_width = 0;
    for (const auto& b : all["backends"]) {
        name_width = std::max(name_width, static_cast<int>(b["name"].get<std::string>().size()));
        status_width = std::max(status_width, static_cast<int>(b["status"].get<std::string>().size()));
    }
    for (const auto& b : all["backends"])
        std::printf("  %-*s  %-*s  %s\n", name_width, b["name"].get<std::string>().c_str(), status_width,
                    b["status"].get<std::string>().c_str(),
                    std::string(without_status(b["reason"].get<std::string>())).c_str());
    if (verbose) {
        std::printf("Plugins searched in:\n");
        for (const auto& d : all["search_directories"])
            std::printf("  %s\n", d.get<std::string>().c_str());
    }

    const auto& selector = env["ONEAPI_DEVICE_SELECTOR"];
    const std::string filtered =
        selector.is_null() ? "" : " (ONEAPI_DEVICE_SELECTOR=" + selector.get<std::string>() + ")";
    std::printf("\nDevices%s:\n", filtered.c_str());
    for (const auto& d : all["devices"])
        print_device(d, verbose);
    if (all["devices"].empty()) std::printf("  none\n");
    if (!all["hidden_devices"].empty()) {
        std::printf("\nHidden by ONEAPI_DEVICE_SELECTOR:\n");
        for (const auto& d : all["hidden_devices"])
            std::printf("  %s  %s  %s\n", d["id"].get<std::string>().c_str(),
                        d["type"].get<std::string>().c_str(), d["name"].get<std::string>().c_str());
    }

    if (all["default_device"].is_null()) {
        std::printf(
            "\nNo usable device: no backend was loaded, or ONEAPI_DEVICE_SELECTOR hides every device of the "
            "loaded ones.\n");
    } else {
        std::printf("\nDefault device: %s\n", all["default_device"]["reason"].get<std::string>().c_str());
        std::printf(
            "  (the rule for a program whose kernels were compiled for the host only, as encore-ls's: a\n"
            "  program that carries device code for a backend listed earlier gets its device; "
            "docs/runtime.md)\n");
    }
    if (verbose) {
        std::printf("\nTrace:\n");
        for (const auto& line : all["trace"])
            std::printf("  %s\n", line.get<std::string>().c_str());
    }
}

} // namespace

int main(int argc, char** argv) {
    bool help = false;
    const auto o = parse(argc, argv, help);
    if (!o) return help ? 0 : exit_usage;
    try {
        encore::backend_registry registry(encore::registry_options::from_environment());
        const json all = describe(registry);
        if (o->json)
            std::cout << all.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
        else
            print_text(all, o->verbose);
        std::cout.flush();
        return all["usable"].get<bool>() ? 0 : exit_no_device;
    } catch (const encore::error& e) {
        // A malformed ONEAPI_DEVICE_SELECTOR (the message names it); programs would fail the same way.
        std::fprintf(stderr, "encore-ls: %s\n", e.what());
        return e.code() == encore::errc::invalid_argument ? exit_usage : exit_no_device;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "encore-ls: %s\n", e.what());
        return exit_no_device;
    }
}

// encore-ls, the command: what it prints about backends and devices, in text and JSON, and its exit status,
// run as a child process in the environments it reports on. The tool's path comes from ENCORE_LS_TOOL; the
// plugin folders from ENCORE_BACKEND_PATH, which tests/runtime/meson.build sets per test: the test plugins
// (counting, nodriver), the OpenCL plugin (PoCL) or the Level Zero plugin with the CPU test driver.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace {

using nlohmann::json;

// Runs `encore-ls arguments` with `environment` (NAME=VALUE words for env(1); ONEAPI_DEVICE_SELECTOR is unset
// first unless given); stderr joins stdout when `with_stderr`.
command_result run_tool(const std::string& environment, const std::string& arguments, bool with_stderr = true) {
    const char* tool = std::getenv("ENCORE_LS_TOOL");
    REQUIRE_MESSAGE(tool, "ENCORE_LS_TOOL is not set");
    const std::string command = "env -u ONEAPI_DEVICE_SELECTOR -u ENCORE_TRACE " + environment + " " + tool +
                                " " + arguments + (with_stderr ? " 2>&1" : " 2>/dev/null");
    return run_command(command);
}

json run_json(const std::string& environment, int expected_status = 0) {
    const auto r = run_tool(environment, "--json", false);
    CHECK(r.status == expected_status);
    INFO("output: " << r.out);
    json j;
    REQUIRE_NOTHROW(j = json::parse(r.out));
    for (const char* field : {"encore_version", "environment", "search_directories", "backends", "devices",
                              "hidden_devices", "default_device", "usable", "trace"})
        CHECK_MESSAGE(j.contains(field), "no field " << field);
    return j;
}

const json& backend_named(const json& all, const std::string& name) {
    for (const auto& b : all["backends"])
        if (b["name"] == name) return b;
    FAIL("no backend " << name << " in " << all["backends"].dump());
    static const json none;
    return none;
}

bool contains(const std::string& text, const std::string& piece) {
    return text.find(piece) != std::string::npos;
}

// `text` with each run of spaces made one: the backend table's columns are as wide as their longest entry.
std::string squeezed(const std::string& text) {
    std::string out;
    for (char c : text)
        if (c != ' ' || out.empty() || out.back() != ' ') out += c;
    return out;
}

void check_device_fields(const json& d) {
    for (const char* field : {"id",
                              "backend",
                              "index",
                              "type",
                              "name",
                              "vendor",
                              "driver_version",
                              "architecture",
                              "compute_units",
                              "global_memory_bytes",
                              "local_memory_bytes",
                              "max_work_group_size",
                              "allocation_alignment",
                              "usm",
                              "mapped_device_memory",
                              "sub_group_sizes",
                              "graph_lowering",
                              "native_graphs",
                              "native_recording",
                              "spirv",
                              "spir",
                              "builds",
                              "profiling",
                              "host_kernels",
                              "default"})
        CHECK_MESSAGE(d.contains(field), "device " << d.value("id", "?") << " has no field " << field);
}

} // namespace

TEST_CASE("encore-ls: the native device, its properties and why it is the default") {
    const json all = run_json("ENCORE_BACKENDS=native");
    CHECK(all["usable"] == true);
    CHECK(all["environment"]["ENCORE_BACKENDS"] == "native");
    CHECK(all["environment"]["ONEAPI_DEVICE_SELECTOR"].is_null());
    REQUIRE(all["devices"].size() == 1);
    const json& d = all["devices"][0];
    check_device_fields(d);
    CHECK(d["id"] == "native:0");
    CHECK(d["type"] == "cpu");
    CHECK(d["host_kernels"] == true);
    CHECK(d["default"] == true);
    CHECK(d["graph_lowering"] == "native task list");
    CHECK(d["sub_group_sizes"] == json::array({32}));
    CHECK(d["spirv"] == false);
    CHECK(d["spir"] == false);
    CHECK(d["usm"] == json::array({"device", "host", "shared"}));
    CHECK(d["global_memory_bytes"].get<std::uint64_t>() > 0);
    CHECK(d["local_memory_bytes"].get<std::uint64_t>() > 0);
    CHECK(all["default_device"]["id"] == "native:0");
    CHECK(contains(all["default_device"]["reason"].get<std::string>(),
                   "runs the program's host-compiled kernels"));
    CHECK(all["hidden_devices"].empty());
    // Every backend Encore ships is listed; those ENCORE_BACKENDS leaves out were not tried.
    CHECK(backend_named(all, "native")["status"] == "loaded");
    CHECK(backend_named(all, "native")["devices"] == 1);
    for (const char* other : {"cuda", "hip", "level_zero", "opencl"})
        CHECK(backend_named(all, other)["status"] == "not listed");

    const auto text = run_tool("ENCORE_BACKENDS=native", "");
    CHECK(text.status == 0);
    INFO(text.out);
    CHECK(contains(text.out, "Backends, in order of preference: native"));
    CHECK(contains(text.out, "native:0  cpu  " + d["name"].get<std::string>() + "  [default]"));
    CHECK(contains(text.out, "graphs           native task list"));
    CHECK(contains(text.out, "sub-groups       32"));
    CHECK(contains(text.out, "SPIR-V           no"));
    CHECK(contains(text.out, "USM              device, host, shared"));
    CHECK(contains(text.out, "Default device: native:0 ("));
    CHECK_FALSE(contains(text.out, "compute units")); // --verbose only
    CHECK_FALSE(contains(text.out, "Trace:"));
}

TEST_CASE("encore-ls: --verbose prints every property, the searched folders and the trace") {
    const auto r = run_tool("ENCORE_BACKENDS=native", "--verbose");
    CHECK(r.status == 0);
    INFO(r.out);
    for (const char* piece :
         {"vendor", "architecture", "compute units", "work-group       at most 4096 items", "native graphs",
          "host kernels     yes", "builds           nothing from source",
          "Plugins searched in:", "Trace:", "backend 'native': built in, 1 device"})
        CHECK_MESSAGE(contains(r.out, piece), "missing: " << piece);
    CHECK(run_tool("ENCORE_BACKENDS=native", "-v").out == r.out);
}

TEST_CASE("encore-ls: backends that are absent or have no driver say why") {
    const json all = run_json("ENCORE_BACKENDS=nodriver,counting,no_such_backend,native");
    const json& nodriver = backend_named(all, "nodriver");
    CHECK(nodriver["status"] == "unavailable");
    CHECK(contains(nodriver["reason"].get<std::string>(), "no driver: "));
    CHECK(contains(nodriver["path"].get<std::string>(), "libencore-backend-nodriver.so"));
    const json& absent = backend_named(all, "no_such_backend");
    CHECK(absent["status"] == "absent");
    CHECK(absent["path"].is_null());
    CHECK(contains(absent["reason"].get<std::string>(), "libencore-backend-no_such_backend.so is in none"));
    CHECK(backend_named(all, "counting")["status"] == "loaded");
    // The order of ENCORE_BACKENDS is kept, the backends it does not name come after.
    REQUIRE(all["backends"].size() >= 4);
    CHECK(all["backends"][0]["name"] == "nodriver");
    CHECK(all["backends"][3]["name"] == "native");
    REQUIRE(all["devices"].size() == 2);
    CHECK(all["devices"][0]["id"] == "counting:0");
    CHECK(all["devices"][1]["id"] == "native:0");

    const auto bad_name = run_json("ENCORE_BACKENDS=native,bad/name,old_interface");
    CHECK(backend_named(bad_name, "bad/name")["status"] == "bad name");
    CHECK(backend_named(bad_name, "old_interface")["status"] == "other interface version");
    CHECK(contains(backend_named(bad_name, "old_interface")["reason"].get<std::string>(),
                   "the plugin made no backend (interface version "));

    const auto text = run_tool("ENCORE_BACKENDS=nodriver,native", "");
    INFO(text.out);
    CHECK(contains(squeezed(text.out), "\n nodriver unavailable no driver: "));
    CHECK(contains(squeezed(text.out), "\n cuda not listed not tried: ENCORE_BACKENDS does not name it\n"));
}

TEST_CASE("encore-ls: the default device skips a GPU the program has no code for, and says so") {
    const json all = run_json("ENCORE_BACKENDS=counting_gpu,native");
    REQUIRE(all["devices"].size() == 2);
    CHECK(all["devices"][0]["type"] == "gpu");
    CHECK(all["devices"][0]["default"] == false);
    CHECK(all["devices"][1]["default"] == true);
    CHECK(all["default_device"]["id"] == "native:0");
    CHECK(contains(
        all["default_device"]["reason"].get<std::string>(),
        "skipped counting_gpu:0 (counting GPU): the program carries no device code for counting_gpu"));
}

TEST_CASE("encore-ls: ONEAPI_DEVICE_SELECTOR hides devices, and encore-ls shows which") {
    const json all = run_json("ENCORE_BACKENDS=counting,native 'ONEAPI_DEVICE_SELECTOR=!counting:0'");
    CHECK(all["environment"]["ONEAPI_DEVICE_SELECTOR"] == "!counting:0");
    REQUIRE(all["devices"].size() == 1);
    CHECK(all["devices"][0]["id"] == "native:0");
    REQUIRE(all["hidden_devices"].size() == 1);
    CHECK(all["hidden_devices"][0]["id"] == "counting:0");
    check_device_fields(all["hidden_devices"][0]);
    CHECK(backend_named(all, "counting")["status"] == "loaded");

    // A selector that rules a backend out entirely: it is not loaded at all.
    const json only_native = run_json("ENCORE_BACKENDS=counting,native ONEAPI_DEVICE_SELECTOR=native:cpu");
    CHECK(backend_named(only_native, "counting")["status"] == "not selected");
    CHECK(only_native["devices"].size() == 1);

    const auto text = run_tool("ENCORE_BACKENDS=counting,native 'ONEAPI_DEVICE_SELECTOR=!counting:0'", "");
    CHECK(text.status == 0);
    INFO(text.out);
    CHECK(contains(text.out, "Devices (ONEAPI_DEVICE_SELECTOR=!counting:0):"));
    CHECK(contains(text.out, "Hidden by ONEAPI_DEVICE_SELECTOR:\n  counting:0  cpu  counting "));
}

TEST_CASE("encore-ls: no usable device is exit status 1") {
    // The selector hides the only device.
    const json hidden = run_json("ENCORE_BACKENDS=native 'ONEAPI_DEVICE_SELECTOR=!native:0'", 1);
    CHECK(hidden["usable"] == false);
    CHECK(hidden["devices"].empty());
    CHECK(hidden["default_device"].is_null());
    REQUIRE(hidden["hidden_devices"].size() == 1);
    CHECK(hidden["hidden_devices"][0]["id"] == "native:0");

    // No backend loads at all.
    const json none = run_json("ENCORE_BACKENDS=nodriver", 1);
    CHECK(none["devices"].empty());
    CHECK(backend_named(none, "nodriver")["status"] == "unavailable");

    const auto text = run_tool("ENCORE_BACKENDS=native ONEAPI_DEVICE_SELECTOR=opencl:0", "");
    CHECK(text.status == 1);
    INFO(text.out);
    CHECK(
        contains(squeezed(text.out), "\n native not selected ONEAPI_DEVICE_SELECTOR=opencl:0 selects none"));
    CHECK(contains(text.out, "Devices (ONEAPI_DEVICE_SELECTOR=opencl:0):\n  none"));
    CHECK(contains(text.out, "No usable device"));
}

TEST_CASE("encore-ls: bad command lines and a malformed selector are exit status 2") {
    auto r = run_tool("ENCORE_BACKENDS=native", "--bogus");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "encore-ls: unknown option '--bogus'"));
    CHECK(contains(r.out, "usage: encore-ls"));
    CHECK_FALSE(contains(r.out, "Backends"));

    r = run_tool("ENCORE_BACKENDS=native", "--json devices");
    CHECK(r.status == 2);
    CHECK(contains(r.out, "encore-ls: unexpected argument 'devices'"));

    r = run_tool("ENCORE_BACKENDS=native", "--help");
    CHECK(r.status == 0);
    CHECK(contains(r.out, "usage: encore-ls [--verbose | -v] [--json] [--help | -h]"));
    CHECK(contains(r.out, "exit status"));

    r = run_tool("ENCORE_BACKENDS=native ONEAPI_DEVICE_SELECTOR=native:gpx", "--json");
    CHECK(r.status == 2);
    CHECK(r.out.rfind("encore-ls: ", 0) == 0);
    CHECK(contains(r.out, "ONEAPI_DEVICE_SELECTOR='native:gpx' is malformed: 'gpx' is not a device"));
    CHECK_FALSE(contains(r.out, "{")); // no JSON on a refusal
}

// Run by the test encore_ls_opencl (PoCL here and in CI), ENCORE_BACKEND_PATH naming the OpenCL plugin's
// folder.
TEST_CASE("encore-ls on opencl: the device, how its graphs lower and whether it takes SPIR-V") {
    const json all = run_json("ENCORE_BACKENDS=opencl,native");
    const json& opencl = backend_named(all, "opencl");
    REQUIRE_MESSAGE(opencl["status"] != "absent", "the OpenCL plugin was not found: " << opencl["reason"]);
    if (opencl["status"] == "unavailable") {
        MESSAGE("skipped: no OpenCL platform here: " << opencl["reason"].get<std::string>());
        return;
    }
    REQUIRE(opencl["status"] == "loaded");
    REQUIRE(all["devices"].size() >= 2);
    const json& d = all["devices"][0];
    check_device_fields(d);
    CHECK(d["backend"] == "opencl");
    CHECK(d["host_kernels"] == false);
    CHECK(d["default"] == false); // encore-ls's kernels are host code: native is its default
    CHECK(all["default_device"]["id"] == "native:0");
    const auto lowering = d["graph_lowering"].get<std::string>();
    CHECK((lowering.rfind("cl_khr_command_buffer ", 0) == 0 || lowering == "launch plan"));
    CHECK(d["native_graphs"] == (lowering != "launch plan"));
    // OpenCL C everywhere, SPIR-V only where the device takes IL (PoCL 3.1 here takes none).
    CHECK(d["builds"] ==
          (d["spirv"] == true ? json::array({"OpenCL C", "SPIR-V"}) : json::array({"OpenCL C"})));
    CHECK(contains(d["driver_version"].get<std::string>(), "OpenCL"));
    CHECK(d["spir"] == true); // PoCL 3.1 has cl_khr_spir: encore++'s spir64 code runs there
    CHECK(d["global_memory_bytes"].get<std::uint64_t>() > 0);

    // ENCORE_OPENCL_COMMAND_BUFFERS=0: the same device lowers graphs to launch plans, and says so.
    const json plans = run_json("ENCORE_BACKENDS=opencl,native ENCORE_OPENCL_COMMAND_BUFFERS=0");
    CHECK(plans["devices"][0]["graph_lowering"] == "launch plan");
    CHECK(plans["devices"][0]["native_graphs"] == false);

    // The selector can hide it.
    const json hidden = run_json("ENCORE_BACKENDS=opencl,native 'ONEAPI_DEVICE_SELECTOR=!opencl:0'");
    REQUIRE(hidden["hidden_devices"].size() >= 1);
    CHECK(hidden["hidden_devices"][0]["id"] == "opencl:0");
    CHECK(hidden["devices"].back()["id"] == "native:0");

    const auto text = run_tool("ENCORE_BACKENDS=opencl,native", "");
    INFO(text.out);
    CHECK(contains(text.out,
                   "  opencl:0  " + d["type"].get<std::string>() + "  " + d["name"].get<std::string>()));
    CHECK(contains(text.out, "graphs           " + lowering));
    CHECK(contains(text.out, std::string("SPIR-V           ") + (d["spirv"] == true ? "yes" : "no")));
    CHECK(contains(text.out, "SPIR 1.2         yes"));
}

// Run by the test encore_ls_level_zero: the Level Zero plugin behind the real loader over the CPU test
// driver.
TEST_CASE("encore-ls on level_zero: the test driver's device") {
    const json all = run_json("ENCORE_BACKENDS=level_zero,native");
    const json& ze = backend_named(all, "level_zero");
    INFO("level_zero: " << ze.dump());
    REQUIRE(ze["status"] == "loaded");
    REQUIRE(all["devices"].size() == 2);
    const json& d = all["devices"][0];
    check_device_fields(d);
    CHECK(d["id"] == "level_zero:0");
    CHECK(d["name"] == "Encore Level Zero test driver (host threads)");
    CHECK(d["graph_lowering"] == "Level Zero command-list chain");
    CHECK(d["spirv"] == false);                      // the test driver has no SPIR-V compiler
    CHECK(d["sub_group_sizes"] == json::array({1})); // what it reports
    CHECK(d["local_memory_bytes"] == 64 * 1024);
    CHECK(contains(d["driver_version"].get<std::string>(), "Level Zero "));

    // No driver: the loader finds none (ZE_ENABLE_ALT_DRIVERS names a file that does not exist).
    const json no_driver =
        run_json("ENCORE_BACKENDS=level_zero,native ZE_ENABLE_ALT_DRIVERS=/nonexistent/libze.so");
    const json& missing = backend_named(no_driver, "level_zero");
    CHECK(missing["status"] == "unavailable");
    CHECK_FALSE(missing["reason"].get<std::string>().empty());
    CHECK(no_driver["devices"].size() == 1);
}

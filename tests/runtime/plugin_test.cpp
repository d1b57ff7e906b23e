// Backend plugins: the registry loads libencore-backend-<name>.so from libencore's directory and
// ENCORE_BACKEND_PATH in ENCORE_BACKENDS order; a missing plugin or driver is a trace line, never a failure;
// work on a plugin's device really goes through the plugin.
#include <doctest/doctest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime_support.hpp"

using namespace encore;
using namespace encore::testing;

namespace {

struct counting_calls {
    unsigned submits, lowerings, launches, updates, allocations;
};

std::string plugin_directory() {
    const char* path = std::getenv("ENCORE_BACKEND_PATH");
    REQUIRE_MESSAGE(path != nullptr, "run through meson test: it sets ENCORE_BACKEND_PATH");
    return path;
}

bool trace_mentions(const backend_registry& r, const std::string& text) {
    for (const auto& line : r.trace())
        if (line.find(text) != std::string::npos) return true;
    return false;
}

counting_calls calls_so_far() {
    void* plugin =
        ::dlopen((plugin_directory() + "/libencore-backend-counting.so").c_str(), RTLD_NOW | RTLD_NOLOAD);
    REQUIRE(plugin != nullptr);
    auto read = reinterpret_cast<counting_calls (*)()>(::dlsym(plugin, "encore_counting_calls_so_far"));
    const bool exported = read != nullptr;
    REQUIRE(exported);
    auto calls = read();
    ::dlclose(plugin);
    return calls;
}

} // namespace

TEST_CASE("the native backend is built in and listed in ENCORE_BACKENDS order") {
    backend_registry only_native({.backends = "native"});
    REQUIRE(only_native.backends().size() == 1);
    CHECK(only_native.backends()[0]->name() == "native");
    CHECK(trace_mentions(only_native, "backend 'native': built in, 1 device"));
    auto devices = only_native.devices();
    REQUIRE(devices.size() == 1);
    CHECK(devices[0].properties().type == device_type::cpu);
    CHECK(devices[0].properties().compute_units >= 1);
    CHECK(devices[0].properties().native_graphs);
}

TEST_CASE("the global registry follows the test environment: native first, then the counting plugin") {
    auto& global = backend_registry::global();
    REQUIRE(global.backends().size() == 2);
    CHECK(global.backends()[0]->name() == "native");
    CHECK(global.backends()[1]->name() == "counting");
    CHECK(device::default_device().backend_name() == "native");
    CHECK(device::all().size() == 2);
}

TEST_CASE("a plugin found on ENCORE_BACKEND_PATH is loaded in the order asked for") {
    backend_registry r({.backends = "counting,native", .search_path = "/nonexistent:" + plugin_directory()});
    REQUIRE(r.backends().size() == 2);
    CHECK(r.backends()[0]->name() == "counting");
    CHECK(r.find("native") == r.backends()[1]);
    CHECK(trace_mentions(r, "backend 'counting': loaded " + plugin_directory() +
                                "/libencore-backend-counting.so"));
    const auto& searched = r.search_directories();
    REQUIRE(searched.size() >= 4);
    CHECK(searched[2] == "/nonexistent");
    CHECK(searched[3] == plugin_directory());
}

TEST_CASE("a missing plugin, a missing driver and a bad name are trace lines, not failures") {
    // 'absent' has no plugin anywhere (the build's own plugins, cuda and level_zero among them, are found in the
    // build tree: see below).
    backend_registry r({.backends = "absent,nodriver,../evil,native,native", .search_path = plugin_directory()});
    REQUIRE(r.backends().size() == 1);
    CHECK(r.backends()[0]->name() == "native");
    CHECK(trace_mentions(
        r, "backend 'absent': not loaded: libencore-backend-absent.so is in none of the searched directories"));
    CHECK(trace_mentions(r, "backend 'nodriver': unavailable: no driver: "));
    CHECK(trace_mentions(r, "backend '../evil': not a backend name"));
    CHECK(trace_mentions(r, "backend 'native': listed twice"));
    // The same, as data: one report per name, in order (a name listed twice: once).
    const auto& reports = r.backend_reports();
    REQUIRE(reports.size() == 4);
    CHECK(reports[0].name == "absent");
    CHECK(reports[0].result == backend_report::outcome::absent);
    CHECK(reports[0].path.empty());
    CHECK(reports[1].name == "nodriver");
    CHECK(reports[1].result == backend_report::outcome::unavailable);
    CHECK(reports[1].path == plugin_directory() + "/libencore-backend-nodriver.so");
    CHECK(reports[1].reason.rfind("unavailable: no driver: ", 0) == 0);
    CHECK(reports[2].result == backend_report::outcome::bad_name);
    CHECK(reports[3].name == "native");
    CHECK(reports[3].result == backend_report::outcome::loaded);
    CHECK(reports[3].reason == "built in, 1 device: " + r.backends()[0]->properties(0).name);
    CHECK(to_string(reports[1].result) == "unavailable");

    backend_registry none({.backends = "absent"});
    CHECK(none.backends().empty());
    CHECK(none.devices().empty());
    CHECK(trace_mentions(none, "no backend loaded"));
}

TEST_CASE("the environment configures the registry") {
    const std::string saved_backends = std::getenv("ENCORE_BACKENDS"), saved_path = plugin_directory();
    ::setenv("ENCORE_BACKENDS", "opencl,native", 1);
    ::setenv("ENCORE_BACKEND_PATH", "/a:/b", 1);
    ::setenv("ENCORE_TRACE", "0", 1);
    auto options = registry_options::from_environment();
    CHECK(options.backends == "opencl,native");
    CHECK(options.search_path == "/a:/b");
    CHECK_FALSE(options.trace);
    ::setenv("ENCORE_TRACE", "1", 1);
    CHECK(registry_options::from_environment().trace);
    ::unsetenv("ENCORE_TRACE");
    ::unsetenv("ENCORE_BACKENDS");
    CHECK(registry_options::from_environment().backends == "cuda,hip,level_zero,opencl,native");
    ::setenv("ENCORE_BACKENDS", saved_backends.c_str(), 1);
    ::setenv("ENCORE_BACKEND_PATH", saved_path.c_str(), 1);
}

TEST_CASE("work on the plugin's device goes through the plugin") {
    const device counting = device::all().at(1);
    REQUIRE(counting.backend_name() == "counting");
    auto before = calls_so_far();
    queue q(counting);
    usm_array<int> x(4, counting);
    q.submit(add_command(counting, x.data(), 2, 4)).wait();
    graph g;
    auto k = g.add(add_command(counting, x.data(), 1, 4));
    executable_graph exec(g, counting);
    q.launch(exec).wait();
    exec.update_arguments(k, {kernel_argument::from_pointer(x.data()), kernel_argument::from_scalar(10)});
    q.launch(exec).wait();
    CHECK(x[3] == 13);
    auto after = calls_so_far();
    CHECK(after.allocations == before.allocations + 1);
    CHECK(after.submits == before.submits + 1);
    CHECK(after.lowerings == before.lowerings + 1);
    CHECK(after.launches == before.launches + 2);
    CHECK(after.updates == before.updates + 1);
}

TEST_CASE("a whole-graph update the backend refuses for one node changes no node") {
    const device counting = device::all().at(1);
    REQUIRE(counting.backend_name() == "counting");
    queue q(counting, {.in_order = true});
    usm_array<int> x(8, counting), y(8, counting);
    auto build = [&](int value, std::size_t y_items) {
        graph g;
        auto a = g.add(add_command(counting, x.data(), value, 4));
        g.add(add_command(counting, y.data(), value, y_items), {a});
        return g;
    };
    executable_graph exec(build(1, 4), counting);
    // The first node's update is taken, the second's refused: the first one is put back.
    CHECK_THROWS_WITH_AS(exec.update(build(10, 7)), doctest::Contains("a range of 7 items is refused"), error);
    q.launch(exec).wait();
    CHECK(x[0] == 1);
    CHECK(y[0] == 1);
    CHECK(y[5] == 0);
    exec.update(build(10, 8)); // still updatable, as a whole
    q.launch(exec).wait();
    CHECK(x[0] == 11);
    CHECK(y[0] == 11);
    CHECK(y[5] == 10);
}

TEST_CASE("an installed prefix's plugin folder is searched: encore/ beside libencore, before ENCORE_BACKEND_PATH") {
    backend_registry r({.backends = "native", .search_path = plugin_directory()});
    const auto& searched = r.search_directories();
    REQUIRE(searched.size() >= 3);
    CHECK(searched[1] == searched[0] + "/encore"); // <libdir>/encore when installed
    CHECK(searched[2] == plugin_directory());      // before the build tree's folders: a named path wins
}

// This test is a program of the build tree: its libencore is the build root's, so the build's plugin folders are
// searched without ENCORE_BACKEND_PATH (tests/consumer/run.sh checks that an installed libencore does not).
TEST_CASE("a program of the build tree finds the build's plugins without ENCORE_BACKEND_PATH") {
    backend_registry r({.backends = "opencl,native", .search_path = ""});
    const auto& searched = r.search_directories();
    auto folder_of = [&](const std::string& backend) {
        const std::string tail = "/backends/" + backend;
        auto it = std::find_if(searched.begin(), searched.end(), [&](const std::string& d) {
            return d.size() > tail.size() && d.compare(d.size() - tail.size(), tail.size(), tail) == 0;
        });
        return it == searched.end() ? std::string() : *it;
    };
    for (const char* backend : {"cuda", "hip", "level_zero", "opencl"})
        CHECK_MESSAGE(!folder_of(backend).empty(), "no build-tree folder searched for ", backend);
    // The build's folders come after ENCORE_BACKEND_PATH's: a path the user names wins.
    backend_registry named({.backends = "native", .search_path = "/somewhere"});
    const auto& order = named.search_directories();
    const auto at = std::find(order.begin(), order.end(), "/somewhere");
    REQUIRE(at != order.end());
    for (auto it = order.begin(); it != at; ++it) CHECK_MESSAGE(it->find("/backends/") == std::string::npos, *it);
    const std::string opencl_plugin = folder_of("opencl") + "/libencore-backend-opencl.so";
    if (::access(opencl_plugin.c_str(), F_OK) != 0) {
        MESSAGE("this build has no OpenCL plugin (" << opencl_plugin << "): only the search folders were checked");
        return;
    }
    // Found: loaded, or (with no OpenCL platform here) refused for a reason that is not "not found".
    const auto trace = r.trace();
    for (const auto& line : trace)
        CHECK_MESSAGE(line.find("in none of the searched directories") == std::string::npos, line);
    CHECK(std::any_of(trace.begin(), trace.end(),
                      [&](const std::string& line) { return line.find(opencl_plugin) != std::string::npos; }));
}

TEST_CASE("a plugin file that cannot be loaded is a trace line naming the file and the loader's reason") {
    char folder[] = "/tmp/encore-plugin-XXXXXX";
    REQUIRE(::mkdtemp(folder) != nullptr);
    const std::string path = std::string(folder) + "/libencore-backend-broken.so";
    {
        std::FILE* f = std::fopen(path.c_str(), "w");
        REQUIRE(f != nullptr);
        std::fputs("not a shared library\n", f);
        std::fclose(f);
    }
    backend_registry r({.backends = "broken,native", .search_path = folder});
    CHECK(r.backends().size() == 1);
    CHECK(trace_mentions(r, "backend 'broken': not loaded: " + path + ": "));
    REQUIRE(r.backend_reports().size() == 2);
    CHECK(r.backend_reports()[0].result == backend_report::outcome::load_failed);
    CHECK(r.backend_reports()[0].path == path);
    CHECK(to_string(r.backend_reports()[0].result) == "failed to load");
    std::remove(path.c_str());
    ::rmdir(folder);
}

TEST_CASE(
    "a plugin built for another interface version makes no backend, and the report says which case it is") {
    backend_registry r({.backends = "old_interface,native", .search_path = plugin_directory()});
    REQUIRE(r.backends().size() == 1);
    REQUIRE(r.backend_reports().size() == 2);
    const auto& old = r.backend_reports()[0];
    CHECK(old.name == "old_interface");
    CHECK(old.result == backend_report::outcome::other_version);
    CHECK(to_string(old.result) == "other interface version");
    CHECK(old.reason.find("interface version " + std::to_string(backend_interface_version)) !=
          std::string::npos);
    CHECK(trace_mentions(r, "backend 'old_interface': unavailable: the plugin made no backend"));
}

TEST_CASE("the registry keeps the devices ONEAPI_DEVICE_SELECTOR hides, and the default device's reason") {
    backend_registry r(
        {.backends = "counting,native", .search_path = plugin_directory(), .device_selector = "!counting:0"});
    REQUIRE(r.devices().size() == 1);
    CHECK(r.devices()[0].backend_name() == "native");
    REQUIRE(r.hidden_devices().size() == 1);
    CHECK(r.hidden_devices()[0].backend_name() == "counting");
    CHECK(r.hidden_devices()[0].index() == 0);
    CHECK(r.default_device_explanation().rfind("native:0 (", 0) == 0);
    CHECK(r.default_device_explanation().find("because it runs the program's host-compiled kernels") !=
          std::string::npos);

    // A backend the selector rules out is not loaded, and its report says why.
    backend_registry only_native(
        {.backends = "counting,native", .search_path = plugin_directory(), .device_selector = "native:*"});
    REQUIRE(only_native.backend_reports().size() == 2);
    CHECK(only_native.backend_reports()[0].result == backend_report::outcome::not_selected);
    CHECK(only_native.hidden_devices().empty());

    backend_registry nothing({.backends = "native", .device_selector = "!native:0"});
    CHECK(nothing.devices().empty());
    CHECK(nothing.hidden_devices().size() == 1);
    CHECK_THROWS_AS(nothing.default_device_explanation(), encore::error);
}

TEST_CASE("native: the device says how graphs lower, its sub-group width and that it takes no SPIR-V") {
    backend_registry r({.backends = "native"});
    const auto& p = r.devices().at(0).properties();
    CHECK(p.graph_lowering == "native task list");
    CHECK(p.sub_group_sizes == std::vector<std::uint32_t>{static_cast<std::uint32_t>(sub_group_width)});
    CHECK_FALSE(p.spirv);
}

// Which devices a process sees and which one it gets by default: ONEAPI_DEVICE_SELECTOR filters the devices of
// the loaded backends, and the default device is the first visible one that can run the program's kernels, so
// that kernels compiled only for the host never land on a GPU (the counting_gpu test plugin stands in for one).
#include <doctest/doctest.h>

#include <cstdlib>
#include <stdexcept>

#include "encore/runtime/runtime.hpp"
#include "support/error_code.hpp"

using namespace encore;
using namespace encore::testing;

namespace {

std::string plugin_directory() {
    const char* path = std::getenv("ENCORE_BACKEND_PATH");
    REQUIRE_MESSAGE(path != nullptr, "run through meson test: it sets ENCORE_BACKEND_PATH");
    return path;
}

registry_options with_selector(std::string backends, std::optional<std::string> selector) {
    registry_options o;
    o.backends = std::move(backends);
    o.search_path = plugin_directory();
    o.device_selector = std::move(selector);
    return o;
}

std::vector<std::string> names(const std::vector<device>& devices) {
    std::vector<std::string> out;
    for (const auto& d : devices)
        out.push_back(std::string(d.backend_name()) + ":" + std::to_string(d.index()));
    return out;
}

bool trace_mentions(const backend_registry& r, const std::string& text) {
    for (const auto& line : r.trace())
        if (line.find(text) != std::string::npos) return true;
    return false;
}

std::string message_of_malformed(const std::string& selector) {
    try {
        device_filter::parse(selector);
    } catch (const error& e) {
        CHECK(e.code() == errc::invalid_argument);
        return e.what();
    }
    FAIL("ONEAPI_DEVICE_SELECTOR='" << selector << "' was accepted");
    return {};
}

const std::vector<std::string> all_four = {"counting_gpu:0", "counting:0", "native:0"};

} // namespace

TEST_CASE("ONEAPI_DEVICE_SELECTOR: valid selectors choose by backend, index and type") {
    auto visible = [](std::optional<std::string> selector) {
        backend_registry r(with_selector("counting_gpu,counting,native", std::move(selector)));
        return names(r.devices());
    };
    CHECK(visible(std::nullopt) == all_four);
    CHECK(visible("*:*") == all_four);
    CHECK(visible("native:cpu") == std::vector<std::string>{"native:0"});
    CHECK(visible("native_cpu:0") == std::vector<std::string>{"native:0"}); // DPC++'s name for it
    CHECK(visible("counting_gpu:0") == std::vector<std::string>{"counting_gpu:0"});
    CHECK(visible("counting_gpu:1").empty()); // no second device: nothing, and no error
    CHECK(visible("*:gpu") == std::vector<std::string>{"counting_gpu:0"});
    CHECK(visible("*:cpu") == std::vector<std::string>{"counting:0", "native:0"});
    CHECK(visible("*:fpga").empty());
    CHECK(visible("native:*;counting_gpu:*") == std::vector<std::string>{"counting_gpu:0", "native:0"});
    CHECK(visible("!counting_gpu:*") == std::vector<std::string>{"counting:0", "native:0"});
    CHECK(visible("*:*;!*:gpu") == std::vector<std::string>{"counting:0", "native:0"});
    CHECK(visible("*:cpu,gpu;!counting:0") == std::vector<std::string>{"counting_gpu:0", "native:0"});
    CHECK(visible(" NATIVE : CPU ") == std::vector<std::string>{"native:0"});
}

TEST_CASE("ONEAPI_DEVICE_SELECTOR: a backend it cannot select is not loaded, and the trace says so") {
    backend_registry r(with_selector("counting_gpu,native", "native:*"));
    REQUIRE(r.backends().size() == 1);
    CHECK(r.backends()[0]->name() == "native");
    CHECK(trace_mentions(r, "backend 'counting_gpu': not loaded: ONEAPI_DEVICE_SELECTOR=native:* selects none"));

    backend_registry hidden(with_selector("counting_gpu,native", "*:cpu"));
    CHECK(names(hidden.devices()) == std::vector<std::string>{"native:0"});
    CHECK(trace_mentions(hidden, "device 0 (counting GPU) hidden by ONEAPI_DEVICE_SELECTOR=*:cpu"));

    backend_registry none(with_selector("native", "!native:*"));
    CHECK(none.devices().empty());
    CHECK(code_of([&] { none.default_device(); }) == errc::backend_failure);
}

TEST_CASE("ONEAPI_DEVICE_SELECTOR: a malformed value is an error naming the variable and the fault") {
    CHECK(message_of_malformed("").find("ONEAPI_DEVICE_SELECTOR='' is malformed: it is empty") != std::string::npos);
    CHECK(message_of_malformed("cuda").find("term 'cuda' has no ':'") != std::string::npos);
    CHECK(message_of_malformed("cuda:").find("term 'cuda:' names no device") != std::string::npos);
    CHECK(message_of_malformed("cuda:0;;native:*").find("empty term") != std::string::npos);
    CHECK(message_of_malformed("cuda:gpx").find("'gpx' is not a device") != std::string::npos);
    CHECK(message_of_malformed("cuda:-1").find("'-1' is not a device") != std::string::npos);
    CHECK(message_of_malformed("cuda:0,").find("'' is not a device") != std::string::npos);
    CHECK(message_of_malformed("cu da:0").find("'cu da' is not a backend name") != std::string::npos);
    CHECK(message_of_malformed("level_zero:0.1").find("sub-device") != std::string::npos);
    CHECK(message_of_malformed("!:*").find("'' is not a backend name") != std::string::npos);
    // Through the registry (and so through the environment): the same error, before anything is loaded.
    CHECK(code_of([&] { backend_registry r(with_selector("native", "native")); }) == errc::invalid_argument);
}

TEST_CASE("the environment's ONEAPI_DEVICE_SELECTOR reaches the registry; unset and empty differ") {
    ::unsetenv("ONEAPI_DEVICE_SELECTOR");
    CHECK_FALSE(registry_options::from_environment().device_selector.has_value());
    ::setenv("ONEAPI_DEVICE_SELECTOR", "cuda:0", 1);
    CHECK(registry_options::from_environment().device_selector == std::optional<std::string>("cuda:0"));
    ::setenv("ONEAPI_DEVICE_SELECTOR", "", 1);
    auto empty = registry_options::from_environment();
    CHECK(empty.device_selector == std::optional<std::string>(""));
    CHECK(code_of([&] { backend_registry r(empty); }) == errc::invalid_argument);
    ::unsetenv("ONEAPI_DEVICE_SELECTOR");
}

// The cases below depend on what this process has noted as device code: the last one notes some, and doctest
// runs a file's test cases in the order they are written.
TEST_CASE("host-compiled kernels: the default device is native even when a GPU comes first") {
    REQUIRE_FALSE(program_has_device_code("counting_gpu"));
    backend_registry r(with_selector("counting_gpu,native", std::nullopt));
    REQUIRE(names(r.devices()) == std::vector<std::string>{"counting_gpu:0", "native:0"});
    const auto d = r.default_device();
    CHECK(d.backend_name() == "native");
    CHECK(trace_mentions(r, "default device: native:0"));
    CHECK(trace_mentions(r, "because it runs the program's host-compiled kernels"));
    CHECK(trace_mentions(r, "skipped counting_gpu:0 (counting GPU): the program carries no device code for "
                            "counting_gpu"));
    CHECK_FALSE(r.devices()[0].runs_program_kernels());
    CHECK(r.devices()[1].runs_program_kernels());

    // Asked again, the same choice is not traced twice.
    const auto lines = r.trace().size();
    CHECK(r.default_device() == d);
    CHECK(r.trace().size() == lines);

    // Only the GPU visible: it is the default all the same (the user asked for it), and the trace says why.
    backend_registry gpu_only(with_selector("counting_gpu,native", "counting_gpu:*"));
    CHECK(gpu_only.default_device().backend_name() == "counting_gpu");
    CHECK(trace_mentions(gpu_only, "the first visible device: none of the visible devices can run"));
}

TEST_CASE("a program that carries device code for the GPU gets the GPU") {
    note_program_device_code("counting_gpu", "this test");
    note_program_device_code("counting_gpu", "noted twice, kept once");
    CHECK(program_has_device_code("counting_gpu"));
    CHECK(program_device_code() == std::vector<std::string>{"counting_gpu (this test)"});
    backend_registry r(with_selector("counting_gpu,native", std::nullopt));
    CHECK(r.default_device().backend_name() == "counting_gpu");
    CHECK(trace_mentions(r, "because the program carries device code for counting_gpu"));
    // ONEAPI_DEVICE_SELECTOR still decides what is visible.
    backend_registry cpu(with_selector("counting_gpu,native", "!*:gpu"));
    CHECK(cpu.default_device().backend_name() == "native");
}

// encore-outliner's diagnostics: each rule of device code fires on a minimal program (tests/compiler/inputs/
// diag_*.cpp) at the offending expression, in the usual `file:line:col: error:` form, with exit status 1 and
// no output written; a program that breaks no rule gets no diagnostic at all.
//
// The inputs mark each expected error on its line: `// expect-error[token]: message fragment` — the column is
// the first occurrence of `token` on that line. Environment (set by tests/compiler/meson.build):
// ENCORE_OUTLINER (the tool), ENCORE_OUTLINER_INPUTS (the inputs folder), ENCORE_OUTLINER_FLAGS (compiler
// flags, separated by spaces), ENCORE_OUTLINER_OUT (a scratch folder).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "support/run_command.hpp"

namespace {

std::string env(const char* name) {
    const char* value = std::getenv(name);
    REQUIRE_MESSAGE(value != nullptr, name << " is not set (run the test through meson)");
    return value;
}

command_result run_outliner(const std::string& input) {
    const std::string out = env("ENCORE_OUTLINER_OUT");
    std::filesystem::create_directories(out);
    const std::string stem = std::filesystem::path(input).stem().string();
    const std::string header = out + "/" + stem + ".int.hpp", device = out + "/" + stem + ".device.cu";
    std::filesystem::remove(header);
    std::filesystem::remove(device);
    const std::string command = env("ENCORE_OUTLINER") + " " + input + " --header " + header + " --device " +
                                device + " -- " + env("ENCORE_OUTLINER_FLAGS") + " 2>&1";
    const command_result result = run_command(command);
    if (result.status != 0) {
        CHECK_MESSAGE(!std::filesystem::exists(header), "outputs must not be written after an error");
        CHECK_MESSAGE(!std::filesystem::exists(device), "outputs must not be written after an error");
    }
    return result;
}

struct expected_error {
    std::string prefix;   // "file:line:col: error: "
    std::string fragment; // part of the message
};

// The `// expect-<kind>[token]: fragment` markers of `input` (kind: error or note).
std::vector<expected_error> expectations(const std::string& input, const std::string& kind = "error") {
    std::ifstream file(input);
    const std::regex marker("// expect-" + kind + R"(\[([^\]]+)\]: (.*)$)");
    std::vector<expected_error> found;
    std::string line;
    for (int number = 1; std::getline(file, line); ++number) {
        std::smatch m;
        if (!std::regex_search(line, m, marker)) continue;
        const std::size_t column = line.find(m[1].str()) + 1;
        found.push_back(
            {input + ":" + std::to_string(number) + ":" + std::to_string(column) + ": " + kind + ": ", m[2].str()});
    }
    return found;
}

std::vector<std::string> lines_with(const std::string& text, const std::string& what) {
    std::vector<std::string> found;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (line.find(what) != std::string::npos) found.push_back(line);
        start = end + 1;
    }
    return found;
}

} // namespace

TEST_CASE("every device-code rule is diagnosed at the offending expression") {
    const std::string inputs = env("ENCORE_OUTLINER_INPUTS");
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(inputs)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("diag_", 0) == 0 && entry.path().extension() == ".cpp")
            files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    CHECK(files.size() >= 14);
    for (const std::string& input : files) {
        SUBCASE(std::filesystem::path(input).filename().string().c_str()) {
            const std::vector<expected_error> expected = expectations(input);
            REQUIRE_MESSAGE(!expected.empty(), input << " has no expect-error marker");
            const command_result r = run_outliner(input);
            INFO("output:\n" << r.out);
            CHECK(r.status == 1);
            // All of them, nothing else.
            CHECK(lines_with(r.out, ": error: ").size() == expected.size());
            // The calls that lead to an error, where the input marks them (not every note is marked).
            std::vector<expected_error> all = expected;
            for (const expected_error& note : expectations(input, "note"))
                all.push_back(note);
            for (const expected_error& e : all) {
                bool seen = false;
                for (const std::string& line : lines_with(r.out, e.prefix))
                    seen =
                        seen || (line.rfind(e.prefix, 0) == 0 && line.find(e.fragment) != std::string::npos);
                CHECK_MESSAGE(seen, "expected: " << e.prefix << "..." << e.fragment);
            }
        }
    }
}

TEST_CASE("a program that follows the rules gets no diagnostic and its outputs") {
    const std::string input = env("ENCORE_OUTLINER_INPUTS") + "/clean.cpp";
    const command_result r = run_outliner(input);
    INFO("output:\n" << r.out);
    CHECK(r.status == 0);
    CHECK(r.out.empty());
    const std::string out = env("ENCORE_OUTLINER_OUT");
    CHECK(std::filesystem::exists(out + "/clean.int.hpp"));
    CHECK(std::filesystem::exists(out + "/clean.device.cu"));
}

TEST_CASE("usage errors exit with status 2") {
    const std::string command = env("ENCORE_OUTLINER") + " --header only.hpp > /dev/null 2>&1";
    const int status = std::system(command.c_str());
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
}

// encore++'s native-only builds: the kernels described, no device code, no device rule (a kernel that throws, an
// error for a GPU target, is fine on the CPU).
TEST_CASE("--host-only writes the integration header alone, with no device entry and no device rule") {
    const std::string out = env("ENCORE_OUTLINER_OUT");
    std::filesystem::create_directories(out);
    const std::string header = out + "/host_only_throw.int.hpp";
    std::filesystem::remove(header);
    const std::string command = env("ENCORE_OUTLINER") + " " + env("ENCORE_OUTLINER_INPUTS") + "/diag_throw.cpp" +
                                " --header " + header + " --host-only -- " + env("ENCORE_OUTLINER_FLAGS") +
                                " > /dev/null 2>&1";
    const int status = std::system(command.c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    std::ifstream in(header);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.find(".entry = nullptr") != std::string::npos);
    CHECK(text.find("the program was built for the native target only") != std::string::npos);
    CHECK(text.find("__encore_kernel_") == std::string::npos); // no device entry named

    const std::string both = env("ENCORE_OUTLINER") + " " + env("ENCORE_OUTLINER_INPUTS") + "/diag_throw.cpp" +
                             " --header " + header + " --host-only --device x.cu > /dev/null 2>&1";
    const int usage = std::system(both.c_str());
    CHECK(WIFEXITED(usage));
    CHECK(WEXITSTATUS(usage) == 2);
}

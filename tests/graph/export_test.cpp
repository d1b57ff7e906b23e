// DOT and JSON exports: golden files for plain and verbose output, escaping, file errors, SVG rendering.
//
// ENCORE_UPDATE_GOLDEN=1 rewrites the golden files from the current output (review the diff before committing).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "encore/graph/error.hpp"
#include "encore/graph/json_export.hpp"
#include "support/test_graphs.hpp"

using namespace encore;

namespace {
std::string golden_path(const std::string& name) {
    const char* dir = std::getenv("ENCORE_GOLDEN_DIR");
    REQUIRE_MESSAGE(dir != nullptr, "ENCORE_GOLDEN_DIR is not set: run the tests through meson test");
    return std::string(dir) + "/" + name;
}

void check_golden(const std::string& name, const std::string& actual) {
    auto path = golden_path(name);
    if (std::getenv("ENCORE_UPDATE_GOLDEN")) {
        std::ofstream(path) << actual;
        MESSAGE("rewrote " << path);
    }
    std::ifstream file(path);
    REQUIRE_MESSAGE(file.good(), "missing golden file " << path);
    std::stringstream expected;
    expected << file.rdbuf();
    CHECK(actual == expected.str());
}

// One node of every kind, with fixed fake pointers so the verbose output is stable.
graph every_kind() {
    graph g;
    auto k = testing::make_kernel("saxpy", 1024);
    k.range.local = {64, 1, 1};
    k.arguments = {kernel_argument::from_pointer(testing::fake_pointer(0xa000)), kernel_argument::from_scalar(2.0f),
                   kernel_argument::local(256)};
    auto kernel = g.add(std::move(k));
    auto copy = g.add(memcpy_command{testing::fake_pointer(0xb000), testing::fake_pointer(0xa000), 4096}, {kernel});
    auto fill = g.add(fill_command{testing::fake_pointer(0xc000), {std::byte{0xab}, std::byte{0xcd}}, 16});
    auto set = g.add(memset_command{testing::fake_pointer(0xd000), 7, 32}, {fill});
    auto host = g.add(testing::make_host_task(), {copy, set});
    auto pre = g.add(prefetch_command{testing::fake_pointer(0xb000), 4096}, {host});
    auto advise = g.add(mem_advise_command{testing::fake_pointer(0xb000), 4096, 3}, {host});
    auto barrier = g.add(barrier_command{}, {pre, advise});
    auto child = std::make_shared<graph>();
    child->add(empty_command{});
    g.add(subgraph_command{child}, {barrier});
    g.add(empty_command{});
    return g;
}
} // namespace

TEST_CASE("DOT export matches its golden files") {
    std::ostringstream plain, verbose;
    write_dot(every_kind(), plain);
    write_dot(every_kind(), verbose, {.verbose = true});
    check_golden("every_kind.dot", plain.str());
    check_golden("every_kind.verbose.dot", verbose.str());
}

TEST_CASE("JSON export matches its golden files and parses back") {
    auto plain = to_json(every_kind());
    auto verbose = to_json(every_kind(), {.verbose = true});
    check_golden("every_kind.json", plain.dump(2) + "\n");
    check_golden("every_kind.verbose.json", verbose.dump(2) + "\n");
    auto parsed = nlohmann::json::parse(verbose.dump());
    CHECK(parsed["nodes"].size() == 10);
    CHECK(parsed["edges"].size() == 9);
    CHECK(parsed["nodes"][0]["kernel"] == "saxpy");
    CHECK(parsed["nodes"][0]["fields"]["arg0"] == "pointer 0xa000");
}

TEST_CASE("exports are deterministic") {
    std::ostringstream a, b;
    write_dot(every_kind(), a, {.verbose = true});
    write_dot(every_kind(), b, {.verbose = true});
    CHECK(a.str() == b.str());
    CHECK(to_json(every_kind()) == to_json(every_kind()));
}

TEST_CASE("kernel names are escaped in DOT labels") {
    graph g;
    g.add(testing::make_kernel("say \"hi\" \\ bye"));
    std::ostringstream out;
    write_dot(g, out);
    CHECK(out.str().find(R"(0: kernel 'say \"hi\" \\ bye')") != std::string::npos);
}

TEST_CASE("writing to an unwritable path throws naming it") {
    try {
        write_dot_file(every_kind(), "/nonexistent-dir/graph.dot");
        FAIL("no error");
    } catch (const error& e) {
        CHECK(e.code() == errc::invalid_argument);
        CHECK(std::string(e.what()).find("/nonexistent-dir/graph.dot") != std::string::npos);
    }
}

TEST_CASE("SVG rendering through Graphviz") {
    auto dir = std::filesystem::temp_directory_path() / ("encore-export-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto dot = (dir / "g.dot").string(), svg = (dir / "g.svg").string();
    write_dot_file(every_kind(), dot, {.verbose = true});
    if (!graphviz_available()) {
        // The setup script installs graphviz, so a test run through it never takes this path.
        CHECK_THROWS_AS(render_svg(dot, svg), error);
        WARN_MESSAGE(false, "Graphviz's dot is not installed: SVG rendering checked only for its error");
    } else {
        render_svg(dot, svg);
        std::ifstream file(svg);
        std::stringstream content;
        content << file.rdbuf();
        CHECK(content.str().find("<svg") != std::string::npos);
        CHECK(content.str().find("saxpy") != std::string::npos);
        std::ofstream(dot) << "digraph { this is not dot";
        CHECK_THROWS_AS(render_svg(dot, svg), error);
    }
    std::filesystem::remove_all(dir);
}

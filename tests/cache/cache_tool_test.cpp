// encore-cache, the command: its output and exit codes on a real cache directory. The tool's path comes from
// ENCORE_CACHE_TOOL (tests/cache/meson.build sets it).
#include <doctest/doctest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "cache_test_support.hpp"
#include "encore/cache/cache_settings.hpp"
#include "encore/cache/entry_format.hpp"
#include "encore/cache/persistent_cache.hpp"
#include "support/run_command.hpp"

using namespace encore::cache;
using namespace cache_test;

namespace {

command_result run_tool(const std::string& arguments) {
    const char* tool = std::getenv("ENCORE_CACHE_TOOL");
    REQUIRE_MESSAGE(tool, "ENCORE_CACHE_TOOL is not set");
    return run_command(std::string(tool) + " " + arguments + " 2>&1");
}

} // namespace

TEST_CASE("encore-cache: stats, list, list --json, verify, evict, clear") {
    temporary_directory tmp;
    const fs::path dir = tmp.path() / "cache";
    const std::string at = "--dir " + dir.string() + " ";

    auto r = run_tool(at + "stats");
    CHECK(r.status == 0);
    CHECK(r.out.find("no cache at") != std::string::npos);
    CHECK_FALSE(fs::exists(dir)); // looking does not create it

    persistent_options o;
    o.directory = dir;
    persistent_cache cache(o);
    REQUIRE(cache.store(serialize(key_of("one")), "", std::string(2000, '1')));
    program_key other = key_of("two");
    other.backend = "cuda";
    other.device = "sm_90";
    other.name = "saxpy.cu";
    REQUIRE(cache.store(serialize(other), "", std::string(3000, '2')));

    r = run_tool(at + "stats");
    CHECK(r.status == 0);
    CHECK(r.out.find("entries    2") != std::string::npos);
    CHECK(r.out.find("cuda") != std::string::npos);

    r = run_tool(at + "list");
    CHECK(r.status == 0);
    CHECK(r.out.find("saxpy.cu") != std::string::npos);
    CHECK(r.out.find("sm_90") != std::string::npos);
    CHECK(r.out.find("2 entries") != std::string::npos);

    r = run_tool(at + "list --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["entries"].size() == 2);
    bool found = false;
    for (const auto& e : j["entries"])
        if (e["name"] == "saxpy.cu") {
            found = true;
            CHECK(e["backend"] == "cuda");
            CHECK(e["source_bytes"] == 3);
            CHECK(e["bytes"].get<std::uint64_t>() > 3000);
            CHECK(e["last_use"].get<std::string>().size() == 20);
        }
    CHECK(found);

    // A damaged entry: verify removes it and says so with exit status 1.
    const auto entries = files_in(dir / "v1", ".entry");
    REQUIRE(entries.size() == 2);
    std::string bytes = read_file(entries[0]);
    bytes[bytes.size() / 2] ^= 0x10;
    write_file(entries[0], bytes);
    r = run_tool(at + "verify");
    CHECK(r.status == 1);
    CHECK(r.out.find("checksum mismatch") != std::string::npos);
    CHECK(r.out.find("1 entries good, 1 damaged and removed") != std::string::npos);
    CHECK(run_tool(at + "verify").status == 0);

    r = run_tool(at + "evict --max-size 100");
    CHECK(r.status == 0);
    CHECK(r.out.find("evicted 1 entries") != std::string::npos);
    REQUIRE(cache.store(serialize(key_of("three")), "", "3"));
    r = run_tool(at + "evict --older-than 1");
    CHECK(r.out.find("evicted 0 entries") != std::string::npos);
    r = run_tool(at + "clear");
    CHECK(r.status == 0);
    CHECK(r.out.find("removed 1 files") != std::string::npos);
    CHECK(files_in(dir / "v1", ".entry").empty());
}

TEST_CASE("encore-cache: bad command lines and unusable directories") {
    temporary_directory tmp;
    const std::string at = "--dir " + (tmp.path() / "cache").string() + " ";
    CHECK(run_tool("").status == 2);
    CHECK(run_tool(at + "frobnicate").status == 2);
    CHECK(run_tool(at + "list --xml").status == 2);
    auto r = run_tool(at + "evict --max-size lots");
    CHECK(r.status == 2);
    CHECK(r.out.find("'lots' is not a size") != std::string::npos);
    CHECK(run_tool(at + "evict --older-than -3").status == 2);
    CHECK(run_tool(at + "evict").status == 2);
    CHECK(run_tool(at + "stats extra").status == 2);
    CHECK(run_tool("--help").status == 0);

    const fs::path open_dir = tmp.path() / "open";
    fs::create_directory(open_dir);
    ::chmod(open_dir.c_str(), 0777);
    r = run_tool("--dir " + open_dir.string() + " stats");
    CHECK(r.status == 3);
    CHECK(r.out.find("writable by group or others") != std::string::npos);
}

TEST_CASE("cache settings: sizes and environment") {
    CHECK(parse_size("1024") == 1024u);
    CHECK(parse_size("64K") == 65536u);
    CHECK(parse_size("512m") == 512ull << 20);
    CHECK(parse_size("1G") == 1ull << 30);
    CHECK_FALSE(parse_size(""));
    CHECK_FALSE(parse_size("G"));
    CHECK_FALSE(parse_size("-1"));
    CHECK_FALSE(parse_size("1.5G"));
    CHECK_FALSE(parse_size("99999999999999999999"));
    CHECK_FALSE(parse_size("17179869184G"));

    ::setenv("ENCORE_CACHE_PERSISTENT", "0", 1);
    ::setenv("ENCORE_CACHE_DIR", "/somewhere/else", 1);
    ::setenv("ENCORE_CACHE_MAX_SIZE", "2G", 1);
    ::setenv("ENCORE_CACHE_IN_MEM_MAX", "many", 1);
    ::setenv("ENCORE_CACHE_TRACE", "1", 1);
    std::vector<std::string> warnings;
    const settings s = settings::from_environment([&](std::string_view w) { warnings.emplace_back(w); });
    CHECK_FALSE(s.persistent);
    CHECK(s.directory == "/somewhere/else");
    CHECK(s.max_disk_bytes == 2ull << 30);
    CHECK(s.max_memory_bytes == settings::default_max_memory_bytes);
    CHECK(s.trace);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("ENCORE_CACHE_IN_MEM_MAX=many") != std::string::npos);
    for (const char* v : {"ENCORE_CACHE_PERSISTENT", "ENCORE_CACHE_DIR", "ENCORE_CACHE_MAX_SIZE",
                          "ENCORE_CACHE_IN_MEM_MAX", "ENCORE_CACHE_TRACE"})
        ::unsetenv(v);

    const char* home = std::getenv("HOME");
    const std::string saved_home = home ? home : "";
    ::setenv("XDG_CACHE_HOME", "/xdg", 1);
    CHECK(default_directory() == "/xdg/encore");
    ::setenv("XDG_CACHE_HOME", "relative", 1); // not absolute: ignored, as the XDG specification says
    ::setenv("HOME", "/home/someone", 1);
    CHECK(default_directory() == "/home/someone/.cache/encore");
    ::unsetenv("XDG_CACHE_HOME");
    if (home) ::setenv("HOME", saved_home.c_str(), 1);
    else ::unsetenv("HOME");
}

// encore-cache — inspect and tidy Encore's persistent kernel/program cache (docs/cache.md).
//
//     encore-cache [--dir DIR] stats
//     encore-cache [--dir DIR] list [--json]
//     encore-cache [--dir DIR] clear
//     encore-cache [--dir DIR] evict --max-size SIZE      (SIZE: bytes, or with a K, M or G suffix)
//     encore-cache [--dir DIR] evict --older-than DAYS
//     encore-cache [--dir DIR] verify
//
// DIR defaults to what programs use: ENCORE_CACHE_DIR, else $XDG_CACHE_HOME/encore, else ~/.cache/encore.
// Exit status: 0 done; 1 verify found damaged entries (they are removed now); 2 bad command line; 3 the
// directory cannot be used (the reason is printed; programs would run with the persistent cache off).
#include <sys/stat.h>

#include <cstdio>
#include <ctime>
#include <iostream>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "encore/cache/cache_settings.hpp"
#include "encore/cache/persistent_cache.hpp"
#include "encore/graph/detail/human_bytes.hpp"

namespace {

using namespace encore::cache;
using encore::detail::human_bytes;

constexpr int exit_damaged = 1;
constexpr int exit_usage = 2;
constexpr int exit_unusable = 3;

int usage(const std::string& problem) {
    std::fprintf(stderr,
                 "encore-cache: %s\n"
                 "usage: encore-cache [--dir DIR] stats | list [--json] | clear | evict --max-size SIZE |\n"
                 "       evict --older-than DAYS | verify\n",
                 problem.c_str());
    return exit_usage;
}

std::string iso_time(std::int64_t seconds) {
    const std::time_t t = static_cast<std::time_t>(seconds);
    std::tm utc{};
    ::gmtime_r(&t, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

nlohmann::json entry_json(const entry_info& e) {
    nlohmann::json j = {{"file", e.file}, {"bytes", e.bytes}, {"last_use", iso_time(e.last_use)}};
    if (e.key) {
        j["backend"] = e.key->backend;
        j["device"] = e.key->device;
        j["toolchain"] = e.key->toolchain;
        j["source_kind"] = e.key->source_kind;
        j["name"] = e.key->name;
        j["options"] = e.key->options;
        j["source_bytes"] = e.key->source.size();
        j["hits"] = nullptr; // not recorded on disk (docs/cache.md)
    } else {
        j["problem"] = e.problem;
    }
    return j;
}

int stats(const persistent_cache& cache) {
    const auto entries = cache.list();
    std::uint64_t total = 0;
    std::size_t damaged = 0;
    std::map<std::string, std::pair<std::size_t, std::uint64_t>> by_backend;
    std::int64_t oldest = 0, newest = 0;
    for (const auto& e : entries) {
        total += e.bytes;
        if (!e.key) {
            ++damaged;
            continue;
        }
        auto& b = by_backend[e.key->backend];
        ++b.first;
        b.second += e.bytes;
        if (oldest == 0 || e.last_use < oldest) oldest = e.last_use;
        if (e.last_use > newest) newest = e.last_use;
    }
    std::printf("directory  %s\n", cache.directory().c_str());
    std::printf("entries    %zu (%s of a %s limit)\n", entries.size(), human_bytes(total).c_str(),
                human_bytes(cache.max_bytes()).c_str());
    for (const auto& [backend, b] : by_backend)
        std::printf("  %-9s %zu entries, %s\n", backend.c_str(), b.first, human_bytes(b.second).c_str());
    if (damaged) std::printf("damaged    %zu (run `encore-cache verify` to remove them)\n", damaged);
    if (newest) std::printf("last use   %s .. %s\n", iso_time(oldest).c_str(), iso_time(newest).c_str());
    return 0;
}

int list(const persistent_cache& cache, bool json) {
    const auto entries = cache.list();
    if (json) {
        nlohmann::json out = {{"directory", cache.directory().string()}, {"entries", nlohmann::json::array()}};
        for (const auto& e : entries)
            out["entries"].push_back(entry_json(e));
        std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return 0;
    }
    std::printf("%-28s %-8s %-12s %-24s %10s  %s\n", "entry", "backend", "device", "program", "bytes", "last use");
    for (const auto& e : entries) {
        if (e.key)
            std::printf("%-28s %-8s %-12s %-24s %10llu  %s\n", e.file.c_str(), e.key->backend.c_str(),
                        e.key->device.c_str(), e.key->name.c_str(), static_cast<unsigned long long>(e.bytes),
                        iso_time(e.last_use).c_str());
        else
            std::printf("%-28s damaged: %s\n", e.file.c_str(), e.problem.c_str());
    }
    std::printf("%zu entries\n", entries.size());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    settings s = settings::from_environment([](std::string_view line) {
        std::fprintf(stderr, "encore-cache: %.*s\n", static_cast<int>(line.size()), line.data());
    });
    if (args.size() >= 2 && args[0] == "--dir") {
        s.directory = std::string(args[1]);
        args.erase(args.begin(), args.begin() + 2);
    }
    if (args.empty()) return usage("no command");
    if (args[0] == "--help" || args[0] == "-h") {
        usage("the persistent kernel/program cache");
        return 0;
    }
    const std::string_view command = args[0];
    if (command != "stats" && command != "list" && command != "clear" && command != "evict" && command != "verify")
        return usage("unknown command '" + std::string(command) + "'");
    if (s.directory.empty()) {
        std::fprintf(stderr, "encore-cache: no cache directory: set ENCORE_CACHE_DIR, XDG_CACHE_HOME or HOME\n");
        return exit_unusable;
    }

    // Parse the command's arguments before touching the directory.
    bool json = false;
    std::optional<std::uint64_t> max_size;
    std::optional<long> days;
    if (command == "list") {
        if (args.size() == 2 && args[1] == "--json") json = true;
        else if (args.size() != 1) return usage("list takes only --json");
    } else if (command == "evict") {
        if (args.size() != 3) return usage("evict takes --max-size SIZE or --older-than DAYS");
        if (args[1] == "--max-size") {
            max_size = parse_size(args[2]);
            if (!max_size) return usage("'" + std::string(args[2]) + "' is not a size (e.g. 1073741824, 512M, 1G)");
        } else if (args[1] == "--older-than") {
            try {
                std::size_t used = 0;
                days = std::stol(std::string(args[2]), &used);
                if (used != args[2].size() || *days < 0) days.reset();
            } catch (const std::exception&) {
            }
            if (!days) return usage("'" + std::string(args[2]) + "' is not a number of days");
        } else {
            return usage("evict takes --max-size SIZE or --older-than DAYS");
        }
    } else if (args.size() != 1) {
        return usage(std::string(command) + " takes no arguments");
    }

    struct stat st{};
    if (::lstat(s.directory.c_str(), &st) != 0) {
        std::printf("no cache at %s (nothing stored yet)\n", s.directory.c_str());
        return 0;
    }
    persistent_options options;
    options.directory = s.directory;
    options.max_bytes = s.max_disk_bytes;
    persistent_cache cache(options);
    if (!cache.enabled()) {
        std::fprintf(stderr, "encore-cache: %s\n", cache.disabled_reason().c_str());
        return exit_unusable;
    }

    if (command == "stats") return stats(cache);
    if (command == "list") return list(cache, json);
    if (command == "clear") {
        const auto r = cache.clear();
        std::printf("removed %zu files (%s) from %s\n", r.entries, human_bytes(r.bytes).c_str(), s.directory.c_str());
        return 0;
    }
    if (command == "evict") {
        const auto r = max_size ? cache.evict_to(*max_size) : cache.evict_older_than(std::chrono::hours(24) * *days);
        std::printf("evicted %zu entries (%s); %s left\n", r.entries, human_bytes(r.bytes).c_str(),
                    human_bytes(cache.total_bytes()).c_str());
        return 0;
    }
    const auto r = cache.verify();
    for (const auto& removed : r.removed)
        std::printf("removed %s\n", removed.c_str());
    std::printf("%zu entries good, %zu damaged and removed\n", r.good, r.removed.size());
    return r.removed.empty() ? 0 : exit_damaged;
}

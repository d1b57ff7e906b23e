// encore::cache::settings — the cache's configuration, from the environment (README's environment table).
//
//   ENCORE_CACHE_PERSISTENT   0 turns the on-disk cache off (default on)
//   ENCORE_CACHE_DIR          its directory (default $XDG_CACHE_HOME/encore, else $HOME/.cache/encore)
//   ENCORE_CACHE_MAX_SIZE     the on-disk cache's limit in bytes, with an optional K, M or G suffix (powers of 1024;
//                             default 1G); above it, least recently used entries go until it is under 75%
//   ENCORE_CACHE_IN_MEM_MAX   the in-memory cache's limit, same syntax (default 256M); above it, least recently
//                             used programs are dropped (kernels already handed out stay valid)
//   ENCORE_CACHE_TRACE        1 explains each miss, hit, write, rejection and eviction on stderr
//
// A value that does not parse is reported on stderr once and the default is used: a typo never stops a program.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace encore::cache {

struct settings {
    static constexpr std::uint64_t default_max_disk_bytes = std::uint64_t{1} << 30;
    static constexpr std::uint64_t default_max_memory_bytes = std::uint64_t{256} << 20;

    bool persistent = true;
    std::filesystem::path directory; // empty: no home directory could be found (the on-disk cache is off)
    std::uint64_t max_disk_bytes = default_max_disk_bytes;
    std::uint64_t max_memory_bytes = default_max_memory_bytes;
    bool trace = false;

    // Reads the variables above; `warn` receives one line per value that does not parse.
    static settings from_environment(const std::function<void(std::string_view)>& warn = {});
};

// "1048576", "64K", "512M", "1G" (powers of 1024); nullopt for anything else.
std::optional<std::uint64_t> parse_size(std::string_view text);
// $XDG_CACHE_HOME/encore when XDG_CACHE_HOME is an absolute path, else $HOME/.cache/encore, else empty.
std::filesystem::path default_directory();

// Where trace lines go: stderr prefixed "encore cache: " when ENCORE_CACHE_TRACE is on.
using trace_sink = std::function<void(std::string_view)>;
trace_sink stderr_trace();

} // namespace encore::cache

#include "cache_settings.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace encore::cache {

std::optional<std::uint64_t> parse_size(std::string_view text) {
    if (text.empty()) return std::nullopt;
    unsigned shift = 0;
    switch (text.back()) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    default: break;
    }
    if (shift) text.remove_suffix(1);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    if (value > (std::numeric_limits<std::uint64_t>::max() >> shift)) return std::nullopt;
    return value << shift;
}

std::filesystem::path default_directory() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && xdg[0] == '/') return std::filesystem::path(xdg) / "encore";
    if (const char* home = std::getenv("HOME"); home && home[0] == '/')
        return std::filesystem::path(home) / ".cache" / "encore";
    return {};
}

settings settings::from_environment(const std::function<void(std::string_view)>& warn) {
    settings s;
    auto bad = [&](const char* name, const char* value, const char* expected) {
        if (warn) warn(std::string(name) + "=" + value + " is not " + expected + "; using the default");
    };
    if (const char* v = std::getenv("ENCORE_CACHE_PERSISTENT")) {
        const std::string_view text(v);
        if (text == "0" || text == "off" || text == "false") s.persistent = false;
        else if (!(text.empty() || text == "1" || text == "on" || text == "true")) bad("ENCORE_CACHE_PERSISTENT", v, "0 or 1");
    }
    if (const char* v = std::getenv("ENCORE_CACHE_DIR"); v && *v) s.directory = v;
    else s.directory = default_directory();
    if (const char* v = std::getenv("ENCORE_CACHE_MAX_SIZE"); v && *v) {
        if (auto size = parse_size(v)) s.max_disk_bytes = *size;
        else bad("ENCORE_CACHE_MAX_SIZE", v, "a size such as 1073741824, 512M or 1G");
    }
    if (const char* v = std::getenv("ENCORE_CACHE_IN_MEM_MAX"); v && *v) {
        if (auto size = parse_size(v)) s.max_memory_bytes = *size;
        else bad("ENCORE_CACHE_IN_MEM_MAX", v, "a size such as 268435456, 256M or 1G");
    }
    if (const char* v = std::getenv("ENCORE_CACHE_TRACE")) s.trace = *v && std::string_view(v) != "0";
    return s;
}

trace_sink stderr_trace() {
    return [](std::string_view line) {
        std::fprintf(stderr, "encore cache: %.*s\n", static_cast<int>(line.size()), line.data());
    };
}

} // namespace encore::cache

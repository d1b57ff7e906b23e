// encore::detail::human_bytes — a byte count as people read it ("512 B", "48.0 KiB", "139.8 GiB"), for the
// command-line tools (encore-cache, encore-ls).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace encore::detail {

inline std::string human_bytes(std::uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
    return text;
}

} // namespace encore::detail

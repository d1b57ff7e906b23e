#include "program_key.hpp"

#include <charconv>
#include <cstdio>

namespace encore::cache {

namespace {

constexpr std::string_view header = "encore-program-key ";

void append_field(std::string& out, std::string_view field, std::string_view value) {
    out += field;
    out += ' ';
    out += std::to_string(value.size());
    out += ':';
    out += value;
    out += '\n';
}

// Reads `<field> <length>:<bytes>\n` at `at`; false when the text is not that.
bool read_field(std::string_view text, std::size_t& at, std::string_view& field, std::string_view& value) {
    const std::size_t space = text.find(' ', at);
    if (space == std::string_view::npos) return false;
    field = text.substr(at, space - at);
    std::size_t length = 0;
    const char* begin = text.data() + space + 1;
    const char* end = text.data() + text.size();
    const auto [colon, ec] = std::from_chars(begin, end, length);
    if (ec != std::errc{} || colon == end || *colon != ':') return false;
    const std::size_t value_at = static_cast<std::size_t>(colon - text.data()) + 1;
    if (length > text.size() - value_at || value_at + length >= text.size() || text[value_at + length] != '\n')
        return false;
    value = text.substr(value_at, length);
    at = value_at + length + 1;
    return true;
}

} // namespace

std::string serialize(const program_key& key) {
    std::string out;
    out.reserve(256 + key.source.size() + key.specialization_constants.size());
    out += header;
    out += std::to_string(format_version);
    out += '\n';
    append_field(out, "backend", key.backend);
    append_field(out, "device", key.device);
    append_field(out, "toolchain", key.toolchain);
    append_field(out, "source_kind", key.source_kind);
    append_field(out, "name", key.name);
    for (const auto& option : key.options)
        append_field(out, "option", option);
    append_field(out, "specialization_constants", key.specialization_constants);
    append_field(out, "source", key.source);
    return out;
}

std::optional<program_key> parse(std::string_view text) {
    const std::string first_line = std::string(header) + std::to_string(format_version) + '\n';
    if (!text.starts_with(first_line)) return std::nullopt;
    program_key key;
    std::size_t at = first_line.size();
    // Fields come in serialize's order; options may repeat.
    const std::string_view order[] = {"backend", "device", "toolchain", "source_kind", "name"};
    std::string* targets[] = {&key.backend, &key.device, &key.toolchain, &key.source_kind, &key.name};
    std::string_view field, value;
    for (std::size_t i = 0; i < std::size(order); ++i) {
        if (!read_field(text, at, field, value) || field != order[i]) return std::nullopt;
        targets[i]->assign(value);
    }
    while (true) {
        if (!read_field(text, at, field, value)) return std::nullopt;
        if (field != "option") break;
        key.options.emplace_back(value);
    }
    if (field != "specialization_constants") return std::nullopt;
    key.specialization_constants.assign(value);
    if (!read_field(text, at, field, value) || field != "source") return std::nullopt;
    key.source.assign(value);
    if (at != text.size()) return std::nullopt;
    return key;
}

std::string key_hash(std::string_view serialized) {
    std::uint64_t h = 14695981039346656037ull; // FNV-1a, 64 bit
    for (const char c : serialized) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    char digits[17];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(h));
    return digits;
}

} // namespace encore::cache

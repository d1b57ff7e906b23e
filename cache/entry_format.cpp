#include "entry_format.hpp"

#include <array>
#include <cstring>

#include <boost/crc.hpp>

#include "program_key.hpp"

namespace encore::cache {

namespace {

constexpr std::string_view magic = "ENCCACHE";

void put_u32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xff);
}
void put_u64(std::string& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xff);
}
std::uint64_t get(std::string_view bytes, std::size_t at, int width) {
    std::uint64_t v = 0;
    for (int i = 0; i < width; ++i)
        v |= std::uint64_t{static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)])} << (8 * i);
    return v;
}

struct header_fields {
    std::uint64_t key = 0, log = 0, payload = 0;
    std::uint32_t checksum = 0;
};

// Checks what the header alone can say; "" when sound.
std::string check_header(std::string_view bytes, std::uint64_t file_size, header_fields& h) {
    if (bytes.size() < entry_header_bytes)
        return file_size < magic.size() || bytes.substr(0, magic.size()) != magic.substr(0, bytes.size())
                   ? "not a cache entry"
                   : "truncated: " + std::to_string(file_size) + " bytes, less than the header";
    if (bytes.substr(0, magic.size()) != magic) return "not a cache entry (no ENCCACHE magic)";
    const auto version = get(bytes, 8, 4);
    if (version != format_version)
        return "written by cache format " + std::to_string(version) + ", this is " + std::to_string(format_version);
    if (get(bytes, 12, 4) != entry_header_bytes || get(bytes, 44, 4) != 0) return "damaged header";
    h.key = get(bytes, 16, 8);
    h.log = get(bytes, 24, 8);
    h.payload = get(bytes, 32, 8);
    h.checksum = static_cast<std::uint32_t>(get(bytes, 40, 4));
    // Sizes are checked one by one so that no sum can overflow.
    std::uint64_t rest = file_size - entry_header_bytes;
    for (const std::uint64_t part : {h.key, h.log, h.payload}) {
        if (part > rest) return "truncated: the header promises more bytes than the file's " + std::to_string(file_size);
        rest -= part;
    }
    if (rest != 0) return "damaged: " + std::to_string(rest) + " bytes after the payload";
    return {};
}

} // namespace

std::string encode(std::string_view key, std::string_view log, std::string_view payload) {
    std::string out;
    out.reserve(entry_header_bytes + key.size() + log.size() + payload.size());
    out += magic;
    put_u32(out, format_version);
    put_u32(out, static_cast<std::uint32_t>(entry_header_bytes));
    put_u64(out, key.size());
    put_u64(out, log.size());
    put_u64(out, payload.size());
    boost::crc_32_type crc;
    crc.process_bytes(out.data(), out.size());
    crc.process_bytes(key.data(), key.size());
    crc.process_bytes(log.data(), log.size());
    crc.process_bytes(payload.data(), payload.size());
    put_u32(out, crc.checksum());
    put_u32(out, 0);
    out += key;
    out += log;
    out += payload;
    return out;
}

std::variant<entry, std::string> decode(std::string_view file) {
    header_fields h;
    if (std::string reason = check_header(file, file.size(), h); !reason.empty()) return reason;
    boost::crc_32_type crc;
    crc.process_bytes(file.data(), 40);
    crc.process_bytes(file.data() + entry_header_bytes, file.size() - entry_header_bytes);
    if (crc.checksum() != h.checksum) return std::string("checksum mismatch (the file was damaged)");
    entry e;
    std::size_t at = entry_header_bytes;
    e.key.assign(file.substr(at, h.key));
    at += h.key;
    e.log.assign(file.substr(at, h.log));
    at += h.log;
    e.payload.assign(file.substr(at, h.payload));
    return e;
}

std::variant<std::string, std::string> decode_key_only(std::string_view prefix, std::uint64_t file_size) {
    header_fields h;
    if (std::string reason = check_header(prefix, file_size, h); !reason.empty())
        return std::variant<std::string, std::string>(std::in_place_index<1>, reason);
    if (prefix.size() < entry_header_bytes + h.key)
        return std::variant<std::string, std::string>(std::in_place_index<1>, "the key was not read");
    return std::variant<std::string, std::string>(std::in_place_index<0>,
                                                  std::string(prefix.substr(entry_header_bytes, h.key)));
}

} // namespace encore::cache

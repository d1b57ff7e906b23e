// encore::cache::entry — the bytes of one on-disk cache entry, and the checks that make a damaged one unloadable.
//
// Layout (all integers little-endian):
//
//     offset  size  field
//          0     8  magic "ENCCACHE"
//          8     4  format_version (program_key.hpp)
//         12     4  header size (48)
//         16     8  key size      K   the program_key's canonical form (serialize)
//         24     8  log size      L   the compiler's log of the build (warnings)
//         32     8  payload size  P   the binary
//         40     4  CRC-32 of bytes 0..39, the key, the log and the payload
//         44     4  zero
//         48     K  key, then L log, then P payload; the file ends there
//
// decode accepts a file only if every field agrees: the magic, the version, the sizes against the file's length,
// and the checksum. A truncated file, one flipped bit anywhere, or a file that is not an entry is rejected with
// the reason; the caller never sees its bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace encore::cache {

inline constexpr std::size_t entry_header_bytes = 48;

struct entry {
    std::string key; // canonical form
    std::string log;
    std::string payload;
};

std::string encode(std::string_view key, std::string_view log, std::string_view payload);

// The entry, or why the bytes are not one ("truncated: ...", "checksum mismatch", "not a cache entry", ...).
std::variant<entry, std::string> decode(std::string_view file);

// Only the key of an entry whose header is sound (for listings that need not read payloads); the checksum is not
// verified, so a listing may show an entry that verify or a load later rejects.
std::variant<std::string, std::string> decode_key_only(std::string_view file_prefix, std::uint64_t file_size);

} // namespace encore::cache

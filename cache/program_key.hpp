// encore::cache::program_key — everything that changes a built program, in one value.
//
// Two builds with equal keys produce the same binary; the cache relies on that and on nothing else. A backend
// fills every field that influences its compiler's output: the source or IL bytes, the build options, the
// specialization constants, what the binary is for (device name and architecture), and the versions of the
// compiler and driver that make it. Encore's cache format version is part of every key by construction.
//
// The canonical form (`serialize`) is what an on-disk entry stores and what a lookup compares byte for byte, so
// two different keys can never share an entry, whatever their hashes. The hash only picks a file name.
//
//     encore::cache::program_key key{.backend = "cuda", .device = "sm_90", .toolchain = "nvrtc 13.0",
//                                    .source_kind = "cuda-c++", .name = "saxpy.cu", .options = {"-arch=sm_90"},
//                                    .source = text};
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace encore::cache {

// Bumped whenever the key's canonical form or the entry format (entry_format.hpp) changes: entries written by
// another version are never loaded (they are rebuilt and replaced).
inline constexpr std::uint32_t format_version = 1;

struct program_key {
    std::string backend;     // "cuda", "opencl", "level_zero", ...
    std::string device;      // what the binary runs on: device name and/or architecture ("sm_90")
    std::string toolchain;   // versions of the compiler and driver that produce the binary ("nvrtc 13.0")
    std::string source_kind; // "cuda-c++", "opencl-c", "spirv", ...
    std::string name;        // the program's name (compilers put it in diagnostics and debug information)
    std::vector<std::string> options;    // build options, in order
    std::string specialization_constants; // their values' bytes, in id order
    std::string source;                  // source text or IL bytes

    friend bool operator==(const program_key&, const program_key&) = default;
};

// The canonical byte form: a header line with the format version, then one `<field> <length>:<bytes>` line per
// field (binary safe). Equal keys, and only equal keys, have equal forms.
std::string serialize(const program_key& key);
// The inverse of serialize; nullopt for anything serialize did not write (another format version included).
std::optional<program_key> parse(std::string_view serialized);

// 64-bit FNV-1a of the canonical form, as 16 hex digits: the entry's file name, not its identity.
std::string key_hash(std::string_view serialized);

} // namespace encore::cache

// What the exports say about a node: its title and, in verbose mode, its fields. Not for you: include
// graph/dot_export.hpp or graph/json_export.hpp instead.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "encore/graph/command.hpp"

namespace encore::detail {

using field_list = std::vector<std::pair<std::string, std::string>>;

std::string node_title(const command& c);                // "kernel 'saxpy'", "memcpy", ...
field_list verbose_fields(const command& c);             // arguments, ranges, sizes, pointers
std::string format_pointer(const void* p);               // "0x1000", "null"
std::string format_bytes_hex(std::span<const std::byte> bytes); // "0a 00 00 00"

} // namespace encore::detail

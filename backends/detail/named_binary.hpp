// encore::detail::named_binary — what the run-time built programs of the OpenCL backend and the modules of the
// Level Zero backend have in common: a device binary and the names of the kernels in it. One form of it for the
// kernel/program cache's payload, and the one lookup of a kernel by name with its error. Not for you (private to
// libencore-opencl and libencore-level_zero, not installed).
//
// The payload: the kernel names separated by ';' (kernel names are C identifiers), a NUL, then the bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "encore/graph/error.hpp"

namespace encore::detail {

inline std::string named_binary_payload(const std::vector<std::string>& kernel_names,
                                        const std::vector<unsigned char>& bytes) {
    std::string payload;
    for (const auto& name : kernel_names)
        payload += (payload.empty() ? "" : ";") + name;
    payload += '\0';
    payload.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    return payload;
}

// Splits a payload made by named_binary_payload; throws errc::backend_failure naming `what` when it has no NUL
// (a damaged cache entry).
inline void split_named_binary_payload(const std::string& payload, std::vector<std::string>& kernel_names,
                                       std::vector<unsigned char>& bytes, std::string_view what) {
    const std::size_t end = payload.find('\0');
    if (end == std::string::npos)
        throw error(errc::backend_failure, std::string(what) + ": a cached entry is malformed (no name list)");
    const std::string names = payload.substr(0, end);
    for (std::size_t begin = 0; begin < names.size();) {
        std::size_t next = names.find(';', begin);
        if (next == std::string::npos) next = names.size();
        if (next > begin) kernel_names.push_back(names.substr(begin, next - begin));
        begin = next + 1;
    }
    bytes.assign(payload.begin() + static_cast<std::ptrdiff_t>(end) + 1, payload.end());
}

inline bool has_kernel_named(const std::vector<std::string>& kernel_names, const std::string& name) {
    for (const auto& k : kernel_names)
        if (k == name) return true;
    return false;
}

// Throws errc::invalid_argument unless `kernel_names` has `name`, listing what the `owner` ("program",
// "module") has.
inline void require_kernel_named(const std::vector<std::string>& kernel_names, const std::string& name,
                                 std::string_view owner) {
    if (has_kernel_named(kernel_names, name)) return;
    std::string known;
    for (const auto& k : kernel_names)
        known += (known.empty() ? "" : ", ") + k;
    throw error(errc::invalid_argument, "get_kernel: the " + std::string(owner) + " has no kernel named '" + name +
                                            "' (it has: " + (known.empty() ? "none" : known) + ")");
}

} // namespace encore::detail

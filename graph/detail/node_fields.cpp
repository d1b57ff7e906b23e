#include "node_fields.hpp"

#include <cstdio>

#include "encore/graph/graph.hpp"

namespace encore::detail {

namespace {
std::string extents(const std::array<std::size_t, 3>& e, int dimensions) {
    std::string text = "{";
    for (int d = 0; d < dimensions; ++d) text += (d ? ", " : "") + std::to_string(e[d]);
    return text + "}";
}

std::string describe(const kernel_argument& a) {
    switch (a.type) {
    case kernel_argument::kind::pointer: return "pointer " + format_pointer(a.pointer());
    case kernel_argument::kind::local_memory: return "local " + std::to_string(a.local_bytes) + " bytes";
    case kernel_argument::kind::memory_object: return "memory object [" + format_bytes_hex(a.value()) + "]";
    case kernel_argument::kind::scalar: break;
    }
    return "scalar [" + format_bytes_hex(a.value()) + "]";
}
} // namespace

std::string format_pointer(const void* p) {
    if (!p) return "null";
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
    return text;
}

std::string format_bytes_hex(std::span<const std::byte> bytes) {
    std::string text;
    char hex[4];
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned>(bytes[i]));
        text += (i ? " " : "") + std::string(hex);
    }
    return text;
}

std::string node_title(const command& c) {
    std::string title(to_string(kind_of(c)));
    if (auto* k = std::get_if<kernel_command>(&c)) title += " '" + k->kernel->name() + "'";
    return title;
}

field_list verbose_fields(const command& c) {
    struct visitor {
        field_list operator()(const kernel_command& k) const {
            field_list f{{"global", extents(k.range.global, k.range.dimensions)}};
            if (k.range.has_local_size()) f.emplace_back("local", extents(k.range.local, k.range.dimensions));
            if (k.range.offset != std::array<std::size_t, 3>{0, 0, 0})
                f.emplace_back("offset", extents(k.range.offset, k.range.dimensions));
            for (std::size_t i = 0; i < k.arguments.size(); ++i)
                f.emplace_back("arg" + std::to_string(i), describe(k.arguments[i]));
            return f;
        }
        field_list operator()(const memcpy_command& m) const {
            return {{"destination", format_pointer(m.destination)},
                    {"source", format_pointer(m.source)},
                    {"bytes", std::to_string(m.bytes)}};
        }
        field_list operator()(const copy_command& m) const {
            return {{"source", "memory object " + std::to_string(m.source->id()) + " + " +
                                   std::to_string(m.source_offset)},
                    {"destination", "memory object " + std::to_string(m.destination->id()) + " + " +
                                        std::to_string(m.destination_offset)},
                    {"bytes", std::to_string(m.bytes)}};
        }
        field_list operator()(const fill_command& m) const {
            return {{"destination", format_pointer(m.destination)},
                    {"pattern", format_bytes_hex(m.pattern)},
                    {"count", std::to_string(m.count)}};
        }
        field_list operator()(const memset_command& m) const {
            return {{"destination", format_pointer(m.destination)},
                    {"value", std::to_string(m.value)},
                    {"bytes", std::to_string(m.bytes)}};
        }
        field_list operator()(const prefetch_command& m) const {
            return {{"pointer", format_pointer(m.pointer)}, {"bytes", std::to_string(m.bytes)}};
        }
        field_list operator()(const mem_advise_command& m) const {
            return {{"pointer", format_pointer(m.pointer)},
                    {"bytes", std::to_string(m.bytes)},
                    {"advice", std::to_string(m.advice)}};
        }
        field_list operator()(const host_task_command&) const { return {}; }
        field_list operator()(const barrier_command&) const { return {}; }
        field_list operator()(const empty_command&) const { return {}; }
        field_list operator()(const subgraph_command& s) const {
            return {{"nodes", std::to_string(s.child->size())}, {"edges", std::to_string(s.child->edge_count())}};
        }
        field_list operator()(const native_graph_command& n) const {
            return {{"backend", std::string(n.graph->backend())}, {"commands", std::to_string(n.graph->size())}};
        }
    };
    return std::visit(visitor{}, c);
}

} // namespace encore::detail

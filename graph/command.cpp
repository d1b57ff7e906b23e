#include "command.hpp"

#include <atomic>
#include <string>

#include "error.hpp"
#include "graph.hpp"

namespace encore {

namespace {
std::atomic<std::uint64_t> next_memory_object_id{1};

// `rule` is a literal (or built only once the check has failed): validating a command on the eager path
// allocates nothing.
void require(bool condition, std::string_view command, std::string_view rule) {
    if (!condition) throw error(errc::invalid_argument, std::string(command) + " command: " + std::string(rule));
}
} // namespace

memory_object::memory_object(std::size_t bytes) : size_(bytes), id_(next_memory_object_id++) {}

std::string_view to_string(command_kind kind) noexcept {
    switch (kind) {
    case command_kind::kernel: return "kernel";
    case command_kind::memcpy: return "memcpy";
    case command_kind::copy: return "copy";
    case command_kind::fill: return "fill";
    case command_kind::memset: return "memset";
    case command_kind::prefetch: return "prefetch";
    case command_kind::mem_advise: return "mem_advise";
    case command_kind::host_task: return "host_task";
    case command_kind::barrier: return "barrier";
    case command_kind::empty: return "empty";
    case command_kind::subgraph: return "subgraph";
    case command_kind::native_graph: return "native_graph";
    }
    return "unknown";
}

void validate(const kernel_command& k) {
    require(k.kernel != nullptr, "kernel", "has no kernel");
    validate(k.range);
}

void validate(const command& c) {
    struct visitor {
        void operator()(const kernel_command& k) const { validate(k); }
        void operator()(const memcpy_command& m) const {
            require(m.bytes == 0 || (m.destination && m.source), "memcpy", "null pointer with a non-zero size");
        }
        void operator()(const copy_command& m) const {
            require(m.source && m.destination, "copy", "null memory object");
            auto past_end = [&](const char* which, std::size_t offset, std::size_t size) {
                return std::string(which) + " range [" + std::to_string(offset) + ", +" + std::to_string(m.bytes) +
                       ") is past the end of a " + std::to_string(size) + "-byte memory object";
            };
            if (m.source_offset > m.source->size() || m.bytes > m.source->size() - m.source_offset)
                require(false, "copy", past_end("source", m.source_offset, m.source->size()));
            if (m.destination_offset > m.destination->size() ||
                m.bytes > m.destination->size() - m.destination_offset)
                require(false, "copy", past_end("destination", m.destination_offset, m.destination->size()));
        }
        void operator()(const fill_command& f) const {
            require(!f.pattern.empty(), "fill", "empty pattern");
            require(f.count == 0 || f.destination, "fill", "null pointer with a non-zero count");
        }
        void operator()(const memset_command& m) const {
            require(m.bytes == 0 || m.destination, "memset", "null pointer with a non-zero size");
        }
        void operator()(const prefetch_command& p) const {
            require(p.bytes == 0 || p.pointer, "prefetch", "null pointer with a non-zero size");
        }
        void operator()(const mem_advise_command& p) const {
            require(p.bytes == 0 || p.pointer, "mem_advise", "null pointer with a non-zero size");
        }
        void operator()(const host_task_command& h) const {
            require(static_cast<bool>(h.task), "host_task", "has no callable");
        }
        void operator()(const barrier_command&) const {}
        void operator()(const empty_command&) const {}
        void operator()(const subgraph_command& s) const {
            require(s.child != nullptr, "subgraph", "has no child graph");
        }
        void operator()(const native_graph_command& n) const {
            require(n.graph != nullptr, "native_graph", "has no captured graph");
        }
    };
    std::visit(visitor{}, c);
}

} // namespace encore

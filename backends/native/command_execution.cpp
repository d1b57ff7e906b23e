#include "command_execution.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "encore/runtime/buffer.hpp"
#include "encore/backends/native/kernel_launch.hpp"
#include "encore/graph/error.hpp"

namespace encore::native {

namespace {

constexpr std::size_t cache_line = 64;
constexpr std::size_t prefetch_limit = std::size_t(1) << 20;

void fill(const fill_command& f) {
    const std::size_t pattern = f.pattern.size();
    const std::size_t total = pattern * f.count;
    if (total == 0) return;
    auto* out = static_cast<std::byte*>(f.destination);
    if (pattern == 1) {
        std::memset(out, static_cast<int>(f.pattern[0]), total);
        return;
    }
    // Write the pattern once, then double the filled prefix: O(log count) memcpy calls.
    std::memcpy(out, f.pattern.data(), pattern);
    for (std::size_t filled = pattern; filled < total;) {
        std::size_t chunk = std::min(filled, total - filled);
        std::memcpy(out + filled, out, chunk);
        filled += chunk;
    }
}

void prefetch(const prefetch_command& p) {
    const auto* first = static_cast<const char*>(p.pointer);
    const std::size_t bytes = std::min(p.bytes, prefetch_limit);
    for (std::size_t offset = 0; offset < bytes; offset += cache_line)
        __builtin_prefetch(first + offset, 0, 3);
}

void advise(const mem_advise_command& a) {
    switch (a.advice) {
    case MADV_NORMAL:
    case MADV_RANDOM:
    case MADV_SEQUENTIAL:
    case MADV_WILLNEED:
        break;
    default:
        return; // unknown here: a hint other devices may understand
    }
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    auto begin = reinterpret_cast<std::uintptr_t>(a.pointer);
    auto end = begin + a.bytes;
    auto first_page = (begin + page - 1) / page * page;
    auto last_page = end / page * page;
    if (first_page >= last_page) return; // no whole page inside the range
    // A hint: failure (memory madvise does not cover) changes no result, so it is not an error.
    static_cast<void>(::madvise(reinterpret_cast<void*>(first_page), last_page - first_page, a.advice));
}

std::byte* storage_of(const std::shared_ptr<memory_object>& object, const char* role) {
    auto* b = dynamic_cast<buffer*>(object.get());
    if (!b)
        throw error(errc::feature_not_supported,
                    std::string("copy command: the ") + role + " memory object " +
                        std::to_string(object->id()) +
                        " has no host storage; the native backend copies between encore::buffer objects");
    return b->data();
}

struct executor {
    void operator()(const kernel_command& k) const { run_kernel(k); }
    void operator()(const memcpy_command& m) const {
        if (m.bytes) std::memmove(m.destination, m.source, m.bytes);
    }
    void operator()(const copy_command& c) const {
        if (c.bytes == 0) return;
        std::memmove(storage_of(c.destination, "destination") + c.destination_offset,
                     storage_of(c.source, "source") + c.source_offset, c.bytes);
    }
    void operator()(const fill_command& f) const { fill(f); }
    void operator()(const memset_command& m) const {
        if (m.bytes) std::memset(m.destination, m.value, m.bytes);
    }
    void operator()(const prefetch_command& p) const { prefetch(p); }
    void operator()(const mem_advise_command& a) const { advise(a); }
    void operator()(const host_task_command& h) const { h.task(); }
    void operator()(const barrier_command&) const {}
    void operator()(const empty_command&) const {}
    void operator()(const subgraph_command&) const {
        throw error(errc::feature_not_supported,
                    "native backend: a subgraph command reached the backend; the runtime inlines subgraphs");
    }
    void operator()(const native_graph_command& n) const { refuse_native_graph(n); }
};

} // namespace

void refuse_native_graph(const native_graph_command& n) {
    throw error(errc::feature_not_supported, "native backend: a graph captured natively by the " +
                                                 std::string(n.graph->backend()) +
                                                 " backend runs only on that backend");
}

void execute(const command& c) {
    std::visit(executor{}, c);
}

} // namespace encore::native

// The API fuzzer's reference model of what graph replays and eager commands compute: USM arrays as plain
// vectors, commands with every operand resolved, and the snapshot of a graph that an executable graph holds.
// The fuzzer (fuzz_session.cpp) keeps the graph structure itself; this file only answers "what must the
// arrays hold now".
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fuzz {

// Every USM array the fuzzer makes has this many uint32_t elements.
constexpr std::uint32_t array_length = 64;

// One allocation of one run; never reused, so a node that still names a freed array is told apart from one
// that names the array later allocated in the same slot.
using alloc_id = int;

enum class command_kind : std::uint8_t {
    fill,         // dst[i] = add                              (handler::fill)
    copy,         // dst[i] = src[i]                           (handler::memcpy)
    scale,        // dst[i] = dst[i] * mul + add               (lambda kernel)
    accumulate,   // dst[i] += src[i] * mul + add              (another lambda kernel)
    param_kernel, // dst[i] ^= src[i] * mul + i                (kernel object; src and mul may be dynamic
                  // parameters)
    host_mix,     // dst[i] = dst[i] * 3 + src[i] + add        (host task)
    host_throw,   // throws "fuzz-tag-<tag>"                   (host task)
    kernel_throw, // work-item 0 throws "fuzz-tag-<tag>"       (lambda kernel)
    empty,        // nothing                                    (add() / empty command group)
    subgraph,     // an executable graph                        (handler::ext_oneapi_graph)
    local_kernel, // dst[i] += its local memory's elements        (kernel object over an nd_range; the memory a
                  // local_accessor or a dynamic_local_accessor, which update() resizes)
};
const char* to_string(command_kind k);
bool is_kernel(command_kind k);
bool reads_src(command_kind k);
bool writes_dst(command_kind k);

struct snapshot;

// What a node or an eager command does, with pointers resolved to allocations and dynamic parameters to
// values.
struct resolved_command {
    command_kind kind = command_kind::empty;
    alloc_id dst = -1, src = -1;
    std::uint32_t mul = 1, add = 0;
    std::uint32_t count = array_length;    // elements touched (kernels: work-items)
    std::uint32_t local = 0;               // local_kernel: elements of its work-group local memory
    int tag = -1;                          // throwing commands
    std::shared_ptr<const snapshot> child; // subgraph: the executable graph's commands when it was embedded

    // The arrays this command (a subgraph: any of its nodes) reads and writes.
    void reads(std::vector<alloc_id>& out) const;
    void writes(std::vector<alloc_id>& out) const;
};

// A graph as an executable graph holds it: commands and, per node, its predecessors (node indices).
struct snapshot {
    std::vector<resolved_command> commands;
    std::vector<std::vector<int>> predecessors;
};

// How many nodes `s` has with its sub-graphs inlined (each sub-graph node also counts as an entry and an
// exit). Sub-graphs of sub-graphs grow it exponentially; the fuzzer embeds no graph above max_inlined_nodes
// (finalize inlines sub-graphs, and a long sequence would otherwise make graphs of millions of nodes).
std::size_t inlined_size(const snapshot& s);
constexpr std::size_t max_inlined_nodes = 256;

// Why two graphs differ for whole-graph update (Encore's rule: same node count, node kinds, kernels and
// edges, sub-graphs included), or nothing when they do not.
std::optional<std::string> topology_difference(const snapshot& a, const snapshot& b);

struct array_value {
    std::vector<std::uint32_t> data;
    bool known =
        true; // false after an unordered conflict (a race the program made); no check until overwritten
};

// The contents of every live allocation, as the program's calls must leave them.
class memory_model {
public:
    alloc_id allocate(std::vector<std::uint32_t> initial);
    void release(alloc_id a);
    bool alive(alloc_id a) const { return arrays_.contains(a); }
    const array_value& at(alloc_id a) const { return arrays_.at(a); }
    // Whether every array `c` (or every node of `s`) touches is still allocated.
    bool all_alive(const resolved_command& c) const;
    bool all_alive(const snapshot& s) const;

    // One eager command, in program order (the fuzzer orders conflicting work with events, so program order
    // is the only possible result). Appends the tags of what throws.
    void apply(const resolved_command& c, std::vector<int>& thrown);
    // One replay of a graph: nodes in a topological order; arrays that two unordered nodes of the graph both
    // touch (one writing) become unknown, and so does what is computed from them.
    void replay(const snapshot& s, std::vector<int>& thrown);
    // The arrays two unordered nodes of `s` (sub-graphs inlined) both touch, one of them writing: a race the
    // program made. The fuzzer does not launch such graphs (a data race is undefined behaviour, and
    // ThreadSanitizer would rightly report it).
    static std::vector<alloc_id> races(const snapshot& s);

private:
    void apply_one(const resolved_command& c, const std::vector<alloc_id>& racy, std::vector<int>& thrown);
    std::map<alloc_id, array_value> arrays_;
    alloc_id next_ = 0;
};

// The value an element must hold after `c`, for the commands that compute one (the fuzzer's kernels and host
// tasks call these too, so the model and the device code cannot drift apart).
inline std::uint32_t scale_value(std::uint32_t d, std::uint32_t mul, std::uint32_t add) {
    return d * mul + add;
}
inline std::uint32_t accumulate_value(std::uint32_t d, std::uint32_t s, std::uint32_t mul,
                                      std::uint32_t add) {
    return d + s * mul + add;
}
inline std::uint32_t param_value(std::uint32_t d, std::uint32_t s, std::uint32_t mul, std::uint32_t i) {
    return d ^ (s * mul + i);
}
inline std::uint32_t local_value(std::uint32_t d, std::uint32_t local_elements) {
    return d + local_elements;
}
inline std::uint32_t host_mix_value(std::uint32_t d, std::uint32_t s, std::uint32_t add) {
    return d * 3 + s + add;
}

} // namespace fuzz

// encore::command — one unit of work a graph node stands for.
//
// A command is plain data: what to do, on which memory, over which range. It holds no backend object, so the same
// graph can be lowered to any backend. Its kind (command_kind) is what topology comparison, the partitioner and the
// exports look at; the payload is what the backends lower.
//
//     encore::command c = encore::memset_command{ptr, 0, 4096};
//     assert(encore::kind_of(c) == encore::command_kind::memset);
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <variant>
#include <vector>

#include "kernel.hpp"

namespace encore {

class graph;

// A memory object (a SYCL buffer) as the engine sees it: an identity and a size. The runtime owns its storage.
class memory_object {
public:
    explicit memory_object(std::size_t bytes);
    virtual ~memory_object() = default;
    memory_object(const memory_object&) = delete;
    memory_object& operator=(const memory_object&) = delete;

    std::size_t size() const noexcept { return size_; }
    std::uint64_t id() const noexcept { return id_; }

private:
    std::size_t size_;
    std::uint64_t id_;
};

enum class command_kind : std::uint8_t {
    kernel,
    memcpy,
    copy,
    fill,
    memset,
    prefetch,
    mem_advise,
    host_task,
    barrier,
    empty,
    subgraph,
    native_graph,
};
inline constexpr int command_kind_count = 12;

std::string_view to_string(command_kind kind) noexcept;

struct kernel_command {
    std::shared_ptr<const encore::kernel> kernel;
    std::vector<kernel_argument> arguments;
    nd_range range;
};

struct memcpy_command {
    void* destination = nullptr;
    const void* source = nullptr;
    std::size_t bytes = 0;
};

// Copy between memory objects (buffer to buffer).
struct copy_command {
    std::shared_ptr<memory_object> source;
    std::size_t source_offset = 0;
    std::shared_ptr<memory_object> destination;
    std::size_t destination_offset = 0;
    std::size_t bytes = 0;
};

// Repeats `pattern` `count` times from `destination`.
struct fill_command {
    void* destination = nullptr;
    std::vector<std::byte> pattern;
    std::size_t count = 0;
};

struct memset_command {
    void* destination = nullptr;
    int value = 0;
    std::size_t bytes = 0;
};

struct prefetch_command {
    const void* pointer = nullptr;
    std::size_t bytes = 0;
};

struct mem_advise_command {
    const void* pointer = nullptr;
    std::size_t bytes = 0;
    int advice = 0;
};

struct host_task_command {
    std::function<void()> task;
};

// Waits for its predecessors; does no work of its own.
struct barrier_command {};
struct empty_command {};

// A whole graph run as one node of another.
struct subgraph_command {
    std::shared_ptr<const graph> child;
};

// Work one backend captured itself (sycl_ext_oneapi_graph's enable_native_recording: on CUDA, a stream capture
// into a CUDA graph), kept in that backend's own form. Only that backend can run it; see backend_capture in
// backends/backend.hpp.
class native_graph {
public:
    virtual ~native_graph() = default;
    virtual std::string_view backend() const noexcept = 0; // the backend that captured it ("cuda")
    virtual std::size_t size() const noexcept = 0;         // the commands captured
};

// A natively captured graph run as one node: as a child graph where its backend lowers the partition.
struct native_graph_command {
    std::shared_ptr<const native_graph> graph;
};

using command = std::variant<kernel_command, memcpy_command, copy_command, fill_command, memset_command,
                             prefetch_command, mem_advise_command, host_task_command, barrier_command, empty_command,
                             subgraph_command, native_graph_command>;

// The variant's alternatives are listed in command_kind order, so the index is the kind.
inline command_kind kind_of(const command& c) noexcept { return static_cast<command_kind>(c.index()); }

// Throws encore::error(invalid_argument) for a command no backend could run: null pointers with non-zero sizes,
// an empty fill pattern, a kernel command without a kernel, a bad range, a copy past a memory object's end, ...
void validate(const command& c);
void validate(const kernel_command& k);

} // namespace encore

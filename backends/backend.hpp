// encore::backend — the one interface every backend implements (native, CUDA, HIP, Level Zero, OpenCL).
//
// A backend is a small set of verbs over plain data: enumerate its devices, allocate and free memory of each
// kind, open a queue (a stream of work on one device), run one command eagerly after a wait list, and lower
// one partition of a finalized graph into its executable form (a native task list, a cudaGraphExec_t, a
// hipGraphExec_t, a Level Zero mutable command list, an OpenCL command buffer), which is then launched after
// a wait list and can have the kernel arguments and ranges of its nodes updated between launches. Every piece
// of work answers with one event.
//
// What stays in the runtime, for every backend alike: host tasks (they run on host threads, see
// backends/detail/host_task_pool.hpp), subgraphs (inlined at finalize), the partitioning of a graph around
// its host tasks, the ordering of in-order queues and of successive launches, and the hand-off of events
// between backends (a wait list may hold events of another backend; backend_event::on_complete makes that
// work everywhere).
//
// Backends other than native are plugins: a shared library `libencore-backend-<name>.so` exporting
// `encore_backend_entry` (see the end of this file). A plugin whose driver is missing says so through
// backend_plugin_request::unavailable_reason; the registry writes that to the trace and carries on.
//
//     class my_backend final : public encore::backend { ... };
//     extern "C" ENCORE_BACKEND_EXPORT void encore_backend_entry(encore::backend_plugin_request* request) {
//         if (request->interface_version != encore::backend_interface_version) return;
//         if (!driver_present()) { request->unavailable_reason = "libmydriver.so.1 not found"; return; }
//         request->instance = std::make_unique<my_backend>();
//     }
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "encore/graph/command.hpp"
#include "encore/graph/graph.hpp"
#include "encore/partitioner/partition.hpp"
#include "encore/backends/source_program.hpp"

namespace encore {

// Bumped whenever a virtual function below changes, or a type it takes (10: graph nodes and partitions carry a
// device slot); a plugin built for another version is not loaded.
inline constexpr std::uint32_t backend_interface_version = 10;

// SYCL's usm::alloc: device memory is for the device only, host memory is pinned host memory the device can
// read, shared memory migrates between both.
enum class memory_kind : std::uint8_t { device, host, shared };
std::string_view to_string(memory_kind kind) noexcept;

enum class device_type : std::uint8_t { cpu, gpu, accelerator };

struct device_properties {
    std::string name;
    std::string vendor;
    std::string driver_version;
    std::string architecture;              // what compilers target for it ("sm_90"); empty for the host
    device_type type = device_type::cpu;
    std::uint32_t compute_units = 1;
    std::size_t global_memory_bytes = 0;
    std::size_t local_memory_bytes = 0;    // per work-group
    std::size_t max_work_group_size = 1;   // work-items in one group, all dimensions together
    std::size_t allocation_alignment = 64; // the least alignment of every allocation
    bool profiling = true;                 // events can carry submit/start/end timestamps
    bool native_graphs = false;            // partitions lower to a driver graph object, not an emulation
    bool host_kernels = false;             // runs kernels compiled only as host code (C++ callables)
    bool native_recording = false;         // backend::begin_recording captures work into a native graph
    // Which USM kinds it allocates (device memory always): host and shared memory are touched by the host in
    // place, so a device whose memory the host cannot reach without mapping has neither (OpenCL devices with
    // coarse-grain SVM only, such as NVIDIA's); allocating them is errc::feature_not_supported.
    bool host_memory = true;
    bool shared_memory = true;
    // Device memory the host reaches between map_for_host and unmap_for_host (OpenCL coarse-grain SVM): where a
    // device has no shared memory, SYCL buffers keep their contents there and map them for host access.
    bool mapped_device_memory = false;
    // What the device tells a user choosing it (interface version 9; encore-ls prints them). How a graph
    // partition becomes one executable here, in the backend's words ("CUDA graph", "cl_khr_command_buffer
    // 0.9.4", "launch plan", "Level Zero command-list chain", "native task list"): for people, never parsed.
    std::string graph_lowering;
    // Whether the device takes SPIR-V (IL) programs: OpenCL's CL_DEVICE_IL_VERSION names SPIR-V, Level Zero's
    // module properties give a SPIR-V version.
    bool spirv = false;
    // Whether it takes SPIR 1.2 bitcode (OpenCL's cl_khr_spir). encore++'s spir64 code is SPIR-V and SPIR bitcode:
    // a device that takes neither cannot run it (device::runs_program_kernels).
    bool spir = false;
    // The sub-group widths its kernels run with: encore::sub_group_width where Encore runs C++ kernels
    // (native, CUDA's warps), the driver's list elsewhere; empty where the device does not say.
    std::vector<std::uint32_t> sub_group_sizes;
};

// Nanoseconds on one clock per backend: only differences between timestamps of one backend mean something.
struct profiling_timestamps {
    std::uint64_t submit = 0; // the command was handed to the backend
    std::uint64_t start = 0;  // it started running on the device
    std::uint64_t end = 0;    // it completed
};

enum class event_status : std::uint8_t { submitted, running, complete };

// The state behind an encore::event. Implementations must be thread-safe: any thread may query, wait or
// register.
class backend_event {
public:
    virtual ~backend_event() = default;

    virtual event_status status() const noexcept = 0;
    // Whether the work is known to have completed, never blocking. The default asks status(); a backend whose
    // status() costs a driver call may answer from what it learnt otherwise (false: not known yet), provided
    // every event it made becomes known complete soon after its work completes: the runtime drops the events it
    // keeps only for queue::wait through this (queue.cpp), asking no driver about them.
    virtual bool known_complete() const noexcept { return status() == event_status::complete; }
    // Blocks until the work completed. Never throws what the work threw: that went to the queue's error_sink.
    virtual void wait() = 0;
    // Calls `callback` exactly once when the work has completed: right away on this thread if it already has,
    // otherwise on whatever thread notices the completion. Callbacks must be short and must not block: the
    // runtime uses them to start dependent work, possibly on another backend.
    virtual void on_complete(std::function<void()> callback) = 0;
    virtual bool has_profiling() const noexcept = 0;
    // Only after completion, on an event of a queue with profiling enabled; otherwise throws
    // encore::error(invalid_argument). encore::event::profiling() checks both for the user.
    virtual profiling_timestamps timestamps() const = 0;
};

using event_ptr = std::shared_ptr<backend_event>;

// Where work reports what it threw: a kernel's or a host task's exception, or a driver failure found after
// submission. report() may be called from any thread, concurrently. The queue that owns the sink hands the
// errors to its async handler (or rethrows them from wait_and_throw).
class error_sink {
public:
    virtual ~error_sink() = default;
    virtual void report(std::exception_ptr error) noexcept = 0;
};

struct queue_properties {
    bool in_order = false;         // each command runs after the one submitted before it (the runtime adds it
                                   // to the wait list; a backend may also use an in-order stream)
    bool enable_profiling = false; // events record profiling_timestamps
};

// A stream of work on one device: a CUDA/HIP stream (or a pool of them), a Level Zero immediate command list,
// an OpenCL command queue, or the native TBB arena.
class backend_queue {
public:
    virtual ~backend_queue() = default;
    // Runs `c` once every event of `wait_list` has completed and returns the event of `c`. Never blocks on
    // the wait list (beyond a bounded moment: the native backend waits up to 20 us for a tiny predecessor
    // it would otherwise chain to). The runtime never passes host_task or subgraph commands (it runs those
    // itself), validates every command first, and makes the calls on one queue one at a time.
    virtual event_ptr submit(command c, std::span<const event_ptr> wait_list) = 0;
    // The same for a kernel command the caller keeps (queue::submit of a kernel_command): a backend that
    // enqueues it without keeping it overrides this and saves the copy into a command; the default copies.
    virtual event_ptr submit_kernel(const kernel_command& k, std::span<const event_ptr> wait_list) {
        return submit(command{k}, wait_list);
    }
};

// One partition of a finalized graph in a backend's executable form.
class backend_executable {
public:
    virtual ~backend_executable() = default;
    // Runs the whole partition once after `wait_list`; its event completes when every node of the partition
    // has. The runtime never launches an executable again before its previous launch completed, so an
    // implementation may keep per-launch state in the object.
    virtual event_ptr launch(backend_queue& queue, std::span<const event_ptr> wait_list) = 0;
    // Replaces the command of `node` (an index of the graph given to backend::lower) by `c`, of the same
    // kind, for every later launch. Called only while no launch is in flight. Kernel commands: new arguments
    // and range, and possibly another kernel with other dimensions (executable_graph::replace); a backend that
    // cannot update some other kind throws feature_not_supported.
    virtual void update(std::uint32_t node, const command& c) = 0;
};

// A backend's own capture of commands into its native graph form (sycl_ext_oneapi_graph's
// enable_native_recording; on CUDA a stream capture). Commands are captured in the order given, each after the
// earlier ones named in `after`; end() hands the captured graph over, to run as a native_graph_command node of
// an encore::graph on this backend. Calls come from one thread at a time (the runtime serializes them).
class backend_recording {
public:
    virtual ~backend_recording() = default; // ends a capture still in progress and drops what it captured
    // Returns the captured command's number (0, 1, ...). `after` holds numbers returned before. Throws
    // feature_not_supported for what the backend cannot capture, invalid_argument for host tasks and subgraphs.
    virtual std::uint32_t capture(const command& c, std::span<const std::uint32_t> after) = 0;
    // Ends the capture. Once only.
    virtual std::shared_ptr<const native_graph> end() = 0;
};

class backend {
public:
    virtual ~backend() = default;

    virtual std::string_view name() const noexcept = 0;
    virtual std::uint32_t device_count() const noexcept = 0;
    virtual const device_properties& properties(std::uint32_t device) const = 0;

    // Returns memory aligned to max(alignment, allocation_alignment); throws encore::error(backend_failure)
    // when the device has no room. bytes == 0 returns nullptr.
    virtual void* allocate(std::uint32_t device, memory_kind kind, std::size_t bytes,
                           std::size_t alignment) = 0;
    // Frees what allocate returned; throws encore::error(invalid_argument) for any other pointer.
    virtual void deallocate(std::uint32_t device, void* pointer) = 0;
    // Where device_properties::mapped_device_memory: makes [pointer, +bytes) of a device allocation readable and
    // writable by the host until unmap_for_host, which hands it back to the device (blocking both; the device's
    // work must not use the range meanwhile). The defaults throw errc::feature_not_supported.
    virtual void map_for_host(std::uint32_t device, void* pointer, std::size_t bytes);
    virtual void unmap_for_host(std::uint32_t device, void* pointer, std::size_t bytes);

    virtual std::unique_ptr<backend_queue> create_queue(std::uint32_t device,
                                                        const queue_properties& properties,
                                                        std::shared_ptr<error_sink> errors) = 0;

    // Lowers partition `p` of `g` (a finalized graph: subgraphs are inlined, `p` holds no host task) for
    // `device`. Edges to nodes outside `p` are the runtime's business. `g` and `p` outlive the executable, and
    // whenever it is launched `g` holds the current command of every node (after update(node, c) returns, the
    // runtime puts `c` into `g`): an executable may read commands from `g` again instead of keeping copies.
    virtual std::unique_ptr<backend_executable> lower(std::uint32_t device, const graph& g,
                                                      const partition& p) = 0;

    // Starts capturing commands for `device` natively (device_properties::native_recording). The default throws
    // feature_not_supported.
    virtual std::unique_ptr<backend_recording> begin_recording(std::uint32_t device);

    // Whether build_program takes source in `language` (backends/source_program.hpp); the default: none.
    virtual bool builds(source_language language) const noexcept;
    // Builds `source` (text, or IL bytes for SPIR-V) for `device` with the compiler's `options`, through the
    // kernel/program cache. Throws encore::error: build_failure with the compiler's log when it does not compile,
    // feature_not_supported when the backend or the device takes no source in `language` (the default),
    // invalid_argument for an empty source, backend_failure when the compiler cannot be loaded.
    virtual std::shared_ptr<const source_program> build_program(std::uint32_t device, source_language language,
                                                                std::span<const std::byte> source,
                                                                std::span<const std::string> options);

    // The address a pointer variable `symbol` of a device image holds on `device` (encore-outliner's
    // `__encore_global_<n>`, which holds a device_global's instance: compiler/outliner/device_globals.hpp). `code`
    // names the image as kernel::device_code does for this backend (gpu::device_code for CUDA and HIP); the image
    // is loaded as the first launch of one of its kernels would load it, once per image and device, so its kernels
    // see what is written there. Throws invalid_argument when the image has no such symbol; the default throws
    // feature_not_supported.
    virtual void* global_address(std::uint32_t device, const void* code, const char* symbol);
};

// The plugin entry point's argument. In: the interface version the runtime speaks. Out: a backend, or the
// reason there is none (no driver, no device, ...), which the registry writes to the ENCORE_TRACE trace.
struct backend_plugin_request {
    std::uint32_t interface_version = backend_interface_version;
    std::unique_ptr<encore::backend> instance;
    std::string unavailable_reason;
};

} // namespace encore

#define ENCORE_BACKEND_EXPORT __attribute__((visibility("default")))
// The name a plugin exports, with C linkage:  void encore_backend_entry(encore::backend_plugin_request*);
#define ENCORE_BACKEND_ENTRY_NAME "encore_backend_entry"
using encore_backend_entry_function = void (*)(encore::backend_plugin_request*);

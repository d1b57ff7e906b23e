// encore::gpu::driver — the calls a GPU API must offer for Encore's GPU layer (backends/gpu/) to run on it: the
// CUDA driver API (backends/cuda/cuda_driver.cpp) and HIP (backends/hip/hip_driver.cpp) implement it.
//
// Everything above this interface is written once: the backend (gpu_backend.hpp), eager queues on streams
// (gpu_queue.hpp), events (gpu_event.hpp), the per-command forms (gpu_commands.hpp), graph lowering and update
// (gpu_graph_lowering.hpp) and native recording by stream capture (gpu_recording.hpp). A driver only translates:
// the layer's plain structs (kernel_params, memcpy_params, ...) into the API's own, its opaque handles into the
// API's, and a failed call into encore::error(errc::backend_failure, "<call>: <name> (<description>)").
//
// Handles are the API's pointers behind distinct opaque types, so a stream cannot be passed where an event is
// wanted. A driver is used from many threads at once; every call is thread-safe (as the APIs are).
//
//     std::unique_ptr<encore::gpu::driver> d = encore::cuda::make_driver(why_not);
//     encore::gpu::driver_stream s = d->create_stream();
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/gpu/gpu_module.hpp"

namespace encore::gpu {

using driver_context = struct context_opaque*;
using driver_stream = struct stream_opaque*;
using driver_event = struct event_opaque*;
using driver_module = struct module_opaque*;
using driver_function = struct function_opaque*;
using driver_graph = struct graph_opaque*;
using driver_graph_node = struct graph_node_opaque*;
using driver_graph_exec = struct graph_exec_opaque*;

// A kernel launch: what cuLaunchKernel / hipModuleLaunchKernel and a kernel graph node take.
struct kernel_params {
    driver_function entry = nullptr;
    unsigned grid[3] = {1, 1, 1};
    unsigned block[3] = {1, 1, 1};
    unsigned shared_bytes = 0;  // dynamic shared memory per block (work-group local memory)
    void** arguments = nullptr; // one pointer per parameter, to its bytes
};

// A 1-D copy between any two addresses the device can reach (unified addressing).
struct memcpy_params {
    void* destination = nullptr;
    const void* source = nullptr;
    std::size_t bytes = 0;
};

// `count` elements of `element_size` (1, 2 or 4) bytes set to `value`.
struct memset_params {
    void* destination = nullptr;
    unsigned value = 0;
    unsigned element_size = 1;
    std::size_t count = 0;
};

using host_function = void (*)(void* data);

class driver {
public:
    virtual ~driver() = default;

    // "cuda", "hip": the backend's name, the prefix of its messages and the device_code key of its kernels.
    virtual std::string_view name() const noexcept = 0;

    // --- devices ---
    virtual std::uint32_t device_count() = 0;
    virtual device_properties properties(std::uint32_t device) = 0;
    // The device's primary context, retained until release_context.
    virtual driver_context retain_context(std::uint32_t device) = 0;
    virtual void release_context(std::uint32_t device) noexcept = 0;
    virtual driver_context current_context() = 0;
    virtual void set_current_context(driver_context c) = 0;
    // Lets `device`'s context reach `peer`'s device memory directly (copies between the two then take the
    // devices' own link, NVLink or PCIe, instead of staging through the host); `device`'s context current.
    // Whether it is on: false where the devices cannot (or the driver has no peer access).
    virtual bool enable_peer_access(std::uint32_t device, std::uint32_t peer, driver_context peer_context) {
        static_cast<void>(device), static_cast<void>(peer), static_cast<void>(peer_context);
        return false;
    }

    // --- memory (the context of the device current) ---
    // `what` names the allocation in the error ("4096 bytes of device memory on NVIDIA H100").
    virtual void* allocate(memory_kind kind, std::size_t bytes, const std::string& what) = 0;
    virtual void free(memory_kind kind, void* base) = 0;
    // Sets `bytes` of device memory to zero, synchronously.
    virtual void zero(void* p, std::size_t bytes) = 0;
    // Stream-ordered device memory (a kernel's scratch, gpu_kernel_launch.hpp): usable by work enqueued on `s`
    // after the call, given back once the work enqueued before free_async is done. In a stream capture they
    // become the graph's allocation and free nodes.
    virtual void* allocate_async(driver_stream s, std::size_t bytes) = 0;
    virtual void free_async(driver_stream s, void* p) = 0;
    // Advice for shared memory; false when `advice` is not one the API knows (the advice is then ignored).
    virtual bool advise(const void* pointer, std::size_t bytes, int advice, std::uint32_t device) = 0;

    // --- streams ---
    virtual driver_stream create_stream() = 0; // non-blocking
    virtual void destroy_stream(driver_stream s) noexcept = 0;
    virtual void wait_event(driver_stream s, driver_event e) = 0;
    virtual void launch_kernel(driver_stream s, const kernel_params& p) = 0;
    virtual void copy(driver_stream s, const memcpy_params& p) = 0;
    virtual void set(driver_stream s, const memset_params& p) = 0;
    virtual void prefetch(driver_stream s, const void* pointer, std::size_t bytes, std::uint32_t device) = 0;
    virtual void launch_host_function(driver_stream s, host_function f, void* data) = 0;

    // --- events ---
    virtual driver_event create_event(bool timing) = 0;
    virtual void destroy_event(driver_event e) noexcept = 0;
    virtual void record(driver_event e, driver_stream s) = 0;
    // True when the work before the record is done, or failed (the next synchronize reports the failure).
    virtual bool query(driver_event e) noexcept = 0;
    virtual void synchronize(driver_event e) = 0;
    virtual float elapsed_ms(driver_event from, driver_event to) = 0;

    // --- modules: a PTX / cubin / code-object image ---
    virtual driver_module load_module(const void* image, const std::string& what) = 0;
    // Portable code (CUDA: PTX text, NUL-terminated; several modules one after the other, each NUL-terminated,
    // are linked together) compiled for the current context's device, as bytes load_module takes (what the
    // kernel/program cache keeps). HIP has none: feature_not_supported.
    virtual std::string compile_portable(const void* code, std::size_t bytes, const std::string& what) = 0;
    virtual void unload_module(driver_module m) noexcept = 0;
    // The device address and size of the variable `name` of a loaded module (cuModuleGetGlobal).
    virtual void* module_global(driver_module m, const char* name, std::size_t* bytes, const std::string& what) = 0;
    // Copies `bytes` from device memory to the host, blocking until done.
    virtual void read(void* host, const void* device_memory, std::size_t bytes) = 0;
    virtual driver_function get_function(driver_module m, const char* entry, const std::string& what) = 0;
    // The built-in fill kernel's module (gpu_kernel_launch.hpp's prepare_fill_launch; entry "encore_fill").
    virtual driver_module load_fill_module() = 0;
    // The language of the API's run-time compiler that backend::build_program takes (CUDA C++ through NVRTC), or
    // nothing (HIP's hiprtc is reached through backends/hip/hiprtc_program.hpp only); and a build of `source` for
    // `device` through the kernel/program cache, which load_module takes. The defaults: none, and
    // feature_not_supported.
    virtual std::optional<source_language> runtime_language() const noexcept { return std::nullopt; }
    virtual program_binary compile_source(std::uint32_t device, std::string_view source,
                                          std::span<const std::string> options);

    // --- graphs ---
    virtual driver_graph create_graph() = 0;
    virtual void destroy_graph(driver_graph g) noexcept = 0;
    virtual driver_graph_node add_kernel_node(driver_graph g, std::span<const driver_graph_node> after, const kernel_params& p) = 0;
    virtual driver_graph_node add_copy_node(driver_graph g, std::span<const driver_graph_node> after, const memcpy_params& p,
                                     driver_context c) = 0;
    virtual driver_graph_node add_set_node(driver_graph g, std::span<const driver_graph_node> after, const memset_params& p,
                                    driver_context c) = 0;
    virtual driver_graph_node add_host_node(driver_graph g, std::span<const driver_graph_node> after, host_function f, void* data) = 0;
    virtual driver_graph_node add_empty_node(driver_graph g, std::span<const driver_graph_node> after) = 0;
    virtual driver_graph_node add_child_graph_node(driver_graph g, std::span<const driver_graph_node> after, driver_graph child) = 0;
    // A node that records `e` (an event made with timing) when the nodes `after` are done: the profiler's timing
    // nodes (gpu_graph_lowering.hpp). Then the event that node records in `exec` from its next launch on.
    virtual driver_graph_node add_event_record_node(driver_graph g, std::span<const driver_graph_node> after,
                                                    driver_event e) = 0;
    virtual void set_event_record_node(driver_graph_exec exec, driver_graph_node n, driver_event e) = 0;
    // Set a node's parameters in the template graph (throwing on failure) and, when `exec` is not null, in the
    // executable graph too: false when the driver refuses that (the caller updates the whole executable).
    virtual bool set_kernel_node(driver_graph_node n, driver_graph_exec exec, const kernel_params& p) = 0;
    virtual bool set_copy_node(driver_graph_node n, driver_graph_exec exec, const memcpy_params& p, driver_context c) = 0;
    virtual bool set_set_node(driver_graph_node n, driver_graph_exec exec, const memset_params& p, driver_context c) = 0;
    virtual bool set_host_node(driver_graph_node n, driver_graph_exec exec, host_function f, void* data) = 0;
    virtual driver_graph_exec instantiate(driver_graph g) = 0;
    virtual void destroy_exec(driver_graph_exec e) noexcept = 0;
    // Brings `exec` up to date with `g` (same topology); false with the driver's reason when it refuses.
    virtual bool update_exec(driver_graph_exec exec, driver_graph g, std::string& why_not) = 0;
    virtual void launch_graph(driver_graph_exec exec, driver_stream s) = 0;

    // --- stream capture (native recording) ---
    virtual void begin_capture(driver_stream s) = 0; // relaxed mode
    // The captured graph; nullptr after a capture that a failure invalidated (`may_fail`: no throw).
    virtual driver_graph end_capture(driver_stream s, bool may_fail) = 0;
    // Replaces the set of nodes the next captured work depends on.
    virtual void set_capture_dependencies(driver_stream s, std::span<const driver_graph_node> after) = 0;
    // The nodes the last captured work left as the capture's dependency set; throws when not capturing.
    virtual std::vector<driver_graph_node> capture_dependencies(driver_stream s) = 0;

    // --- messages ---
    // Why kernel `name` has no code for this API ("it was not compiled by nvcc ... nor built by NVRTC").
    virtual std::string missing_code_reason() const = 0;
};

// Owns one handle of a driver (destroyed with it), as detail::unique_handle does for a plain C API.
template <typename Handle, void (driver::*Destroy)(Handle) noexcept>
class owned_handle {
public:
    explicit owned_handle(driver& d, Handle h = nullptr) noexcept : driver_(&d), handle_(h) {}
    owned_handle(owned_handle&& other) noexcept
        : driver_(other.driver_), handle_(std::exchange(other.handle_, nullptr)) {}
    owned_handle& operator=(owned_handle&& other) noexcept {
        if (this != &other) {
            reset();
            driver_ = other.driver_;
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~owned_handle() { reset(); }

    Handle get() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    void reset(Handle h = nullptr) noexcept {
        if (handle_) (driver_->*Destroy)(handle_);
        handle_ = h;
    }

private:
    driver* driver_;
    Handle handle_;
};

using stream_handle = owned_handle<driver_stream, &driver::destroy_stream>;
using module_handle = owned_handle<driver_module, &driver::unload_module>;
using graph_handle = owned_handle<driver_graph, &driver::destroy_graph>;
using graph_exec_handle = owned_handle<driver_graph_exec, &driver::destroy_exec>;
using event_handle = owned_handle<driver_event, &driver::destroy_event>;

// Makes `c` current on this thread for the scope, restoring the previous one after; one current_context call
// when it is current already.
class context_scope {
public:
    context_scope(driver& d, driver_context c) : driver_(d), previous_(d.current_context()) {
        if (previous_ != c) {
            d.set_current_context(c);
            switched_ = true;
        }
    }
    ~context_scope() {
        if (switched_) {
            try {
                driver_.set_current_context(previous_);
            } catch (...) { // restoring must not throw from a destructor; the next call reports a broken driver
            }
        }
    }
    context_scope(const context_scope&) = delete;
    context_scope& operator=(const context_scope&) = delete;

private:
    driver& driver_;
    driver_context previous_;
    bool switched_ = false;
};

} // namespace encore::gpu

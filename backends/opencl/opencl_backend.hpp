// encore::opencl::opencl_backend — Encore's OpenCL backend (the plugin libencore-backend-opencl.so).
//
// The plugin's entry point loads the ICD loader itself (dlopen of libOpenCL.so.1, detail/api.hpp) and every
// device of every platform becomes an Encore device, in the loader's order, each with a context of its own.
// Memory is USM (opencl_memory.hpp): cl_intel_unified_shared_memory, else SVM. Queues are OpenCL command
// queues (opencl_queue.hpp); each partition of a finalized graph is lowered to one command buffer where the
// device has cl_khr_command_buffer (opencl_command_buffer.hpp) and to a launch plan where it has not
// (opencl_launch_plan.hpp). Kernels come from programs built by build_program (opencl_program.hpp); the
// backend creates each program from its binary once per device and keeps one cl_kernel per (program, name,
// device) for eager launches.
//
// ENCORE_OPENCL_COMMAND_BUFFERS=0 makes every device use launch plans (what a device without the extension
// does), so that path runs on PoCL too; ENCORE_OPENCL_MARKERS=1 or 0 turns the markers of out-of-order queues
// on or off for every device (device_state::use_markers says which use them otherwise). Every OpenCL failure
// is encore::error(errc::backend_failure) naming the call and the cl_int.
//
//     std::string why;
//     auto backend = encore::opencl::opencl_backend::create(why);   // nullptr and a reason without
//     loader/platform
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/opencl/detail/api.hpp"
#include "encore/backends/opencl/detail/device_info.hpp"
#include "encore/backends/opencl/opencl_command_buffer_api.hpp"
#include "encore/backends/opencl/opencl_memory.hpp"
#include "encore/backends/opencl/device_code.hpp"
#include "encore/backends/opencl/opencl_event.hpp"

namespace encore::opencl {

// A cl_kernel shared by eager launches: arguments are set and the launch enqueued under its lock (OpenCL
// captures the arguments at enqueue time, so the next launch may set others).
struct shared_kernel {
    detail::kernel_handle handle;
    std::mutex mutex;
    // Under the lock: the arguments set last (a repeated submission with the same ones sets none), and the
    // kernel's parameter count (asked once).
    std::vector<kernel_argument> last_arguments;
    bool arguments_set = false;
    cl_uint parameters = 0;
    bool parameters_known = false;
};

class opencl_backend final : public backend {
public:
    struct device_state {
        cl_platform_id platform = nullptr;
        cl_device_id id = nullptr;
        detail::context_handle context;
        device_properties properties;
        detail::device_capabilities capabilities;
        bool use_command_buffers = false; // cl_khr_command_buffer present and not turned off
        // Kernel nodes of command buffers are updated in place (detail::updates_kernels_in_place, and the
        // platform has clUpdateMutableCommandsKHR).
        bool use_mutable_dispatch = false;
        // Out-of-order queues enqueue markers (queue_link::mark) so that their events answer known_complete
        // without a status query: on devices other than CPUs, or as ENCORE_OPENCL_MARKERS (0/1) says. On a
        // CPU device (PoCL) a status query is a lock and a read in this process, while a marker after every
        // command so far costs its worker threads: each command that completes takes the marker's lock and
        // walks its wait list, so the cost grows with the commands outstanding. On the H100 host's PoCL (200
        // rounds of 1,002 eager commands) a chain took 31.7-33.7 us per node without markers and 38.8-39.4 with
        // them, and the raw loop with a marker every 64 commands 126 us against 33. NVIDIA's OpenCL answers a
        // status query through its driver, about as dear as an enqueue: markers pay there (6.8-7.4 us per node
        // against 8.0-8.9 without).
        bool use_markers = true;
        // Moves its events' profiling timestamps to the host's clock (written by events, on any thread).
        mutable profiling_clock clock;
        intel_usm_functions intel_usm;    // loaded when capabilities.usm == intel
        command_buffer_functions command_buffers;
        // map_for_host/unmap_for_host (coarse-grain SVM): an in-order queue of their own, made at first use.
        std::mutex map_mutex;
        detail::queue_handle map_queue;
    };

    static std::unique_ptr<opencl_backend> create(std::string& why_not);
    ~opencl_backend() override;

    std::string_view name() const noexcept override { return "opencl"; }
    std::uint32_t device_count() const noexcept override {
        return static_cast<std::uint32_t>(devices_.size());
    }
    const device_properties& properties(std::uint32_t device) const override;

    void* allocate(std::uint32_t device, memory_kind kind, std::size_t bytes, std::size_t alignment) override;
    void deallocate(std::uint32_t device, void* pointer) override;
    void map_for_host(std::uint32_t device, void* pointer, std::size_t bytes) override;
    void unmap_for_host(std::uint32_t device, void* pointer, std::size_t bytes) override;

    std::unique_ptr<backend_queue> create_queue(std::uint32_t device, const queue_properties& properties,
                                                std::shared_ptr<error_sink> errors) override;
    std::unique_ptr<backend_executable> lower(std::uint32_t device, const graph& g,
                                              const partition& p) override;
    // OpenCL C on every device, SPIR-V where the device takes IL (opencl_source_program.cpp).
    bool builds(source_language language) const noexcept override {
        return language == source_language::opencl_c || language == source_language::spirv;
    }
    std::shared_ptr<const source_program> build_program(std::uint32_t device, source_language language,
                                                        std::span<const std::byte> source,
                                                        std::span<const std::string> options) override;

    // --- for the queues, events and executables ---
    const detail::api& cl() const noexcept { return *cl_; }
    const device_state& state(std::uint32_t device) const { return *devices_.at(device); }
    // The eager cl_kernel of `k` on `device`, creating its program on first use. Throws
    // errc::kernel_not_supported when the kernel has no OpenCL code or was built for another device.
    shared_kernel& kernel_of(std::uint32_t device, const kernel& k);
    // A cl_kernel of its own (launch plans and command buffers set its arguments once).
    detail::kernel_handle new_kernel_object(std::uint32_t device, const kernel& k);
    // The built-in fill kernel (patterns the driver's fills cannot do), built on first use: shared for eager
    // fills, or a cl_kernel of its own.
    shared_kernel& fill_kernel(std::uint32_t device);
    detail::kernel_handle new_fill_kernel(std::uint32_t device);
    std::optional<allocation> find_allocation(const void* p, std::size_t bytes = 0) const {
        return allocations_.find(p, bytes);
    }
    // The cl_mem view of the USM range [p, p + bytes) and p's offset in it, or nullopt for memory this
    // backend did not allocate (or device memory of intel USM, which has no cl_mem form).
    std::optional<std::pair<cl_mem, std::size_t>> view_of(const void* p, std::size_t bytes);
    // An in-order queue of `device`, with profiling where the device has it (executables replay on one).
    detail::queue_handle new_queue(std::uint32_t device, bool out_of_order, bool profiling);
    // One line on stderr ("encore: opencl: ...") when ENCORE_TRACE is set.
    void trace(const std::string& line) const;

private:
    opencl_backend() = default;
    void check_device(std::uint32_t device) const;
    cl_program program_of(std::uint32_t device, const kernel& k, const char** entry); // under kernels_mutex_
    // The program of a kernel encore++ outlined (device_code::outlined), built for `device`.
    detail::program_handle build_outlined(std::uint32_t device, const device_code& code,
                                          const std::string& kernel_name);
    cl_program fill_program(std::uint32_t device);                                    // under kernels_mutex_

    const detail::api* cl_ = nullptr;
    std::uint64_t id_ = 0; // unique for the life of the process (the thread-local kernel lookup keys on it)
    std::vector<std::unique_ptr<device_state>> devices_;
    allocation_table allocations_;
    bool trace_ = false;

    std::mutex kernels_mutex_;
    std::map<std::pair<std::uint64_t, std::uint32_t>, detail::program_handle>
        programs_; // (program id, device)
    // Programs of encore++'s images (SPIR-V, SPIR), by (image id, device): image ids are not program ids.
    std::map<std::pair<std::uint64_t, std::uint32_t>, detail::program_handle> outlined_programs_;
    std::map<std::tuple<std::uint64_t, std::string, std::uint32_t>, std::unique_ptr<shared_kernel>,
             std::less<>>
        kernels_;
    std::map<std::uint32_t, detail::program_handle> fill_programs_; // per device
    std::map<std::uint32_t, std::unique_ptr<shared_kernel>> fill_kernels_;
};

} // namespace encore::opencl

// encore::gpu::gpu_backend — a GPU backend written once over a driver (driver.hpp): the CUDA backend (the plugin
// libencore-backend-cuda.so, on the CUDA driver API) and the HIP backend (libencore-backend-hip.so) are this
// class with their driver.
//
// Devices are the driver's, each used through its primary context (the one the CUDA runtime uses too, so
// kernels compiled by nvcc and registered by the runtime launch here). Memory: device memory (cuMemAlloc),
// pinned host memory (cuMemAllocHost), shared memory (cuMemAllocManaged), or HIP's namesakes. Queues run on
// streams (gpu_queue.hpp) through one launcher thread per device (gpu_launcher.hpp); each partition of a
// finalized graph is lowered to one GPU graph, instantiated once (gpu_graph_lowering.hpp). Kernels are found
// through encore::kernel::device_code(<driver name>) (device_code.hpp); the functions it names are loaded once
// per device and cached here.
//
// Every driver failure is an encore::error(errc::backend_failure) naming the call and the API's error.
//
//     auto backend = encore::gpu::gpu_backend::create(encore::cuda::make_driver(why), why); // nullptr: see why
//     void* p = backend->allocate(0, encore::memory_kind::device, 4096, 0);
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/gpu/device_code.hpp"
#include "encore/backends/gpu/driver.hpp"
#include "encore/backends/gpu/gpu_launcher.hpp"
#include "encore/backends/gpu/gpu_memory.hpp"

namespace encore::gpu {

class completion_watcher;

class gpu_backend final : public backend {
public:
    // The backend on `api`, or nullptr with the reason in `why_not` (no driver: `api` is null and `why_not` says
    // why already; no device; ...).
    static std::unique_ptr<gpu_backend> create(std::unique_ptr<driver> api, std::string& why_not);
    ~gpu_backend() override;

    std::string_view name() const noexcept override { return api_->name(); }
    std::uint32_t device_count() const noexcept override { return static_cast<std::uint32_t>(devices_.size()); }
    const device_properties& properties(std::uint32_t device) const override;

    void* allocate(std::uint32_t device, memory_kind kind, std::size_t bytes, std::size_t alignment) override;
    void deallocate(std::uint32_t device, void* pointer) override;

    std::unique_ptr<backend_queue> create_queue(std::uint32_t device, const queue_properties& properties,
                                                std::shared_ptr<error_sink> errors) override;
    std::unique_ptr<backend_executable> lower(std::uint32_t device, const graph& g,
                                              const partition& p) override;
    std::unique_ptr<backend_recording> begin_recording(std::uint32_t device) override; // gpu_recording.hpp
    bool builds(source_language language) const noexcept override { return api_->runtime_language() == language; }
    void* global_address(std::uint32_t device, const void* code, const char* symbol) override;
    std::shared_ptr<const source_program> build_program(std::uint32_t device, source_language language,
                                                        std::span<const std::byte> source,
                                                        std::span<const std::string> options) override;

    // --- for the queue, the events and the lowering ---
    driver& api() const noexcept { return *api_; }
    gpu::driver_context context(std::uint32_t device) const { return devices_.at(device).context; }
    // The function of kernel `k` on `device`, loading its module on first use. Throws
    // errc::kernel_not_supported naming the kernel when it has no code for this API. Sets `*code` to its record.
    driver_function function_of(std::uint32_t device, const kernel& k, const device_code** code);
    // Another entry of the image `code` names (a kernel's finishing entry, device_code::finish_entry).
    driver_function image_entry(std::uint32_t device, const kernel& k, const device_code& code, const char* entry);
    // The built-in kernel that fills memory with a pattern of up to 256 bytes (driver::load_fill_module).
    driver_function fill_function(std::uint32_t device);
    // The kind of the backend's allocation that holds `p`, or nullopt for memory it did not allocate.
    std::optional<memory_kind> kind_of(const void* p) const { return allocations_.kind_of(p); }
    // A copy on `device` that reads or writes `a` and `b`: where either is device memory of another device, lets
    // `device` reach it directly (driver::enable_peer_access, once per pair of devices; copies between devices
    // work without, staged by the driver).
    void reach_peers(std::uint32_t device, const void* a, const void* b);
    completion_watcher& watcher() { return *watcher_; }
    // Where every stream call of `device`'s queues is made, in submission order (gpu_launcher.hpp).
    launcher& launcher_of(std::uint32_t device) { return *launchers_.at(device); }
    // Events without timing, reused: creating one per command would cost a driver call each.
    gpu::driver_event acquire_event(std::uint32_t device);
    void release_event(std::uint32_t device, gpu::driver_event e) noexcept;
    // One line on stderr ("encore: cuda: ...") when ENCORE_TRACE is set, as the registry's trace.
    void trace(const std::string& line) const;

private:
    // Loads `entry` from the image of `code` on `device` (the module once per image and device); the caller holds
    // functions_mutex_ with the device's context current.
    driver_function load_entry(std::uint32_t device, const kernel& k, const device_code& code, const char* entry);
    // The module of the image of `code` on `device`, loaded on first use (`what` names it in errors); the same
    // caller's conditions.
    driver_module module_of(std::uint32_t device, const device_code& code, const std::string& what);
    struct device_state {
        gpu::driver_context context = nullptr; // the primary context, retained
        device_properties properties;
        std::vector<gpu::driver_event> free_events;
    };
    explicit gpu_backend(std::unique_ptr<driver> api) : api_(std::move(api)) {}
    void check_device(std::uint32_t device) const;

    std::unique_ptr<driver> api_; // first member: destroyed last
    std::uint64_t id_ = 0; // unique for the life of the process (caches key on it, not on the address)
    std::vector<device_state> devices_;
    allocation_table allocations_;
    std::unique_ptr<completion_watcher> watcher_;
    std::vector<std::unique_ptr<launcher>> launchers_; // per device, started with the backend
    bool trace_ = false;
    std::mutex peers_mutex_;
    std::set<std::pair<std::uint32_t, std::uint32_t>> peers_tried_; // (device, peer) asked already

    std::mutex functions_mutex_; // guards modules_, functions_ and the events pools
    std::map<std::pair<std::uint64_t, std::uint32_t>, module_handle> modules_; // (image id, device)
    // (image id or resolver address, entry name, device) -> function
    std::map<std::tuple<std::uintptr_t, std::string, std::uint32_t>, driver_function, std::less<>> functions_;
    std::vector<driver_function> fill_functions_; // per device, loaded on first use
    // (image id, symbol, device) -> the address global_address found
    std::map<std::tuple<std::uint64_t, std::string, std::uint32_t>, void*, std::less<>> globals_;
    std::vector<module_handle> fill_modules_;
};

} // namespace encore::gpu

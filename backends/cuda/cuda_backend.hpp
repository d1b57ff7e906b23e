// encore::cuda::cuda_backend — Encore's CUDA backend (the plugin libencore-backend-cuda.so), on the driver API.
//
// Devices are CUDA devices, each used through its primary context (the one the CUDA runtime uses too, so
// kernels compiled by nvcc and registered by the runtime launch here). Memory: device memory from
// cuMemAlloc, host memory pinned by cuMemAllocHost, shared memory from cuMemAllocManaged. Queues run on
// streams (cuda_queue.hpp) through one launcher thread per device (cuda_launcher.hpp); each partition of a
// finalized graph is lowered to one CUDA graph, instantiated once (cuda_graph_lowering.hpp). Kernels are found
// through encore::kernel::device_code("cuda") (device_code.hpp); the functions it names are loaded once per
// device and cached here.
//
// Every driver failure is an encore::error(errc::backend_failure) naming the call and the CUresult.
//
//     auto backend = encore::cuda::cuda_backend::create(why);   // nullptr and a reason without driver/device
//     void* p = backend->allocate(0, encore::memory_kind::device, 4096, 0);
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/cuda/cuda_launcher.hpp"
#include "encore/backends/cuda/cuda_memory.hpp"
#include "encore/backends/cuda/detail/driver.hpp"
#include "encore/backends/cuda/device_code.hpp"

namespace encore::cuda {

class completion_watcher;

class cuda_backend final : public backend {
public:
    // The backend, or nullptr with the reason in `why_not` (cuInit failed, no device, ...).
    static std::unique_ptr<cuda_backend> create(std::string& why_not);
    ~cuda_backend() override;

    std::string_view name() const noexcept override { return "cuda"; }
    std::uint32_t device_count() const noexcept override { return static_cast<std::uint32_t>(devices_.size()); }
    const device_properties& properties(std::uint32_t device) const override;

    void* allocate(std::uint32_t device, memory_kind kind, std::size_t bytes, std::size_t alignment) override;
    void deallocate(std::uint32_t device, void* pointer) override;

    std::unique_ptr<backend_queue> create_queue(std::uint32_t device, const queue_properties& properties,
                                                std::shared_ptr<error_sink> errors) override;
    std::unique_ptr<backend_executable> lower(std::uint32_t device, const graph& g,
                                              const partition& p) override;
    std::unique_ptr<backend_recording> begin_recording(std::uint32_t device) override; // cuda_recording.hpp

    // --- for the queue, the events and the lowering ---
    CUcontext context(std::uint32_t device) const { return devices_.at(device).context; }
    CUdevice device_handle(std::uint32_t device) const { return devices_.at(device).handle; }
    // The CUfunction of kernel `k` on `device`, loading its module on first use. Throws
    // errc::kernel_not_supported naming the kernel when it has no CUDA code. Sets `*code` to its record.
    CUfunction function_of(std::uint32_t device, const kernel& k, const device_code** code);
    // The built-in kernel that fills memory with a pattern of up to 256 bytes (fill_kernels.cu).
    CUfunction fill_function(std::uint32_t device);
    // The kind of the backend's allocation that holds `p`, or nullopt for memory it did not allocate.
    std::optional<memory_kind> kind_of(const void* p) const { return allocations_.kind_of(p); }
    completion_watcher& watcher() { return *watcher_; }
    // Where every stream call of `device`'s queues is made, in submission order (cuda_launcher.hpp).
    launcher& launcher_of(std::uint32_t device) { return *launchers_.at(device); }
    // Events without timing, reused: creating one per command would cost a driver call each.
    CUevent acquire_event(std::uint32_t device);
    void release_event(std::uint32_t device, CUevent e) noexcept;
    // One line on stderr ("encore: cuda: ...") when ENCORE_TRACE is set, as the registry's trace.
    void trace(const std::string& line) const;

private:
    struct device_state {
        CUdevice handle = 0;
        CUcontext context = nullptr; // the primary context, retained
        device_properties properties;
        std::vector<CUevent> free_events;
    };
    cuda_backend() = default;
    void check_device(std::uint32_t device) const;

    std::uint64_t id_ = 0; // unique for the life of the process (caches key on it, not on the address)
    std::vector<device_state> devices_;
    allocation_table allocations_;
    std::unique_ptr<completion_watcher> watcher_;
    std::vector<std::unique_ptr<launcher>> launchers_; // per device, started with the backend
    bool trace_ = false;

    std::mutex functions_mutex_; // guards modules_, functions_ and the events pools
    std::map<std::pair<std::uint64_t, std::uint32_t>, detail::module_handle> modules_; // (image id, device)
    // (image id or resolver address, entry name, device) -> function
    std::map<std::tuple<std::uintptr_t, std::string, std::uint32_t>, CUfunction, std::less<>> functions_;
    std::vector<CUfunction> fill_functions_; // per device, loaded on first use
    std::vector<detail::module_handle> fill_modules_;
};

} // namespace encore::cuda

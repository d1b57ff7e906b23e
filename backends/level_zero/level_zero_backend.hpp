// encore::level_zero::level_zero_backend — Encore's Level Zero backend (the plugin
// libencore-backend-level_zero.so).
//
// The plugin's entry point loads the Level Zero loader itself (dlopen of libze_loader.so.1, detail/api.hpp)
// and every device of every driver becomes an Encore device, in the loader's order, each with a context of
// its own. Memory is USM (zeMemAllocDevice/Host/Shared). Queues are immediate command lists
// (level_zero_queue.hpp); each partition of a finalized graph is lowered to the design's chain of command
// lists on a command queue of its own (level_zero_graph.hpp). Kernels come from modules built by build_module
// (level_zero_module.hpp); the backend creates each module from its native binary once per device and keeps
// one ze_kernel per (module, name, device), whose arguments are set and the launch appended under its lock
// (Level Zero captures the arguments at append). Every Level Zero failure is
// encore::error(errc::backend_failure) naming the call and the ze_result_t.
//
//     std::string why;
//     auto backend = encore::level_zero::level_zero_backend::create(why);   // nullptr and a reason without a
//     driver
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
#include "encore/backends/level_zero/detail/api.hpp"
#include "encore/backends/level_zero/level_zero_event.hpp"

namespace encore::level_zero {

// A ze_kernel shared by everything that launches it on one device.
struct shared_kernel {
    detail::kernel_handle handle;
    std::mutex mutex; // held while its arguments are set and the launch appended
};

class level_zero_backend final : public backend {
public:
    struct device_state {
        ze_driver_handle_t driver = nullptr;
        ze_device_handle_t device = nullptr;
        detail::context_handle context;
        device_properties properties;
        double ns_per_tick = 1.0;
        std::unique_ptr<event_pool> events;           // plain events
        std::unique_ptr<event_pool> timestamp_events; // events of profiling queues
    };

    static std::unique_ptr<level_zero_backend> create(std::string& why_not);
    ~level_zero_backend() override;

    std::string_view name() const noexcept override { return "level_zero"; }
    std::uint32_t device_count() const noexcept override {
        return static_cast<std::uint32_t>(devices_.size());
    }
    const device_properties& properties(std::uint32_t device) const override;

    void* allocate(std::uint32_t device, memory_kind kind, std::size_t bytes, std::size_t alignment) override;
    void deallocate(std::uint32_t device, void* pointer) override;

    std::unique_ptr<backend_queue> create_queue(std::uint32_t device, const queue_properties& properties,
                                                std::shared_ptr<error_sink> errors) override;
    std::unique_ptr<backend_executable> lower(std::uint32_t device, const graph& g,
                                              const partition& p) override;

    // --- for the queues, events and executables ---
    const detail::api& ze() const noexcept { return *ze_; }
    device_state& state(std::uint32_t device) const { return *devices_.at(device); }
    event_watcher& watcher() noexcept { return watcher_; }
    // The shared ze_kernel of `k` on `device`, creating its module on first use. Throws
    // errc::kernel_not_supported when the kernel has no Level Zero code or was built for another device.
    shared_kernel& kernel_of(std::uint32_t device, const kernel& k);
    // Whether [p, p + bytes) lies in memory this backend allocated.
    bool owns(const void* p, std::size_t bytes = 0) const;
    // One line on stderr ("encore: level_zero: ...") when ENCORE_TRACE is set.
    void trace(const std::string& line) const;
    bool tracing() const noexcept { return trace_; }
    // ENCORE_LEVEL_ZERO_EAGER_LISTS=regular: eager queues submit regular command lists to a command queue.
    bool regular_eager_lists() const noexcept { return regular_eager_lists_; }

private:
    level_zero_backend() = default;
    void check_device(std::uint32_t device) const;

    const detail::api* ze_ = nullptr;
    std::vector<std::unique_ptr<device_state>> devices_;
    bool trace_ = false;
    bool regular_eager_lists_ = false;

    struct allocation {
        std::size_t bytes = 0;
        std::uint32_t device = 0;
    };
    mutable std::mutex allocations_mutex_;
    std::map<std::uintptr_t, allocation> allocations_;

    std::mutex kernels_mutex_;
    std::map<std::pair<std::uint64_t, std::uint32_t>, detail::module_handle> modules_; // (module id, device)
    // Modules of encore++'s images (SPIR-V), by (image id, device): image ids are not module ids.
    std::map<std::pair<std::uint64_t, std::uint32_t>, detail::module_handle> outlined_modules_;
    std::map<std::tuple<std::uint64_t, std::string, std::uint32_t>, std::unique_ptr<shared_kernel>,
             std::less<>>
        kernels_;
    event_watcher watcher_; // last member: it stops (waiting for what it watches) before the rest goes
};

} // namespace encore::level_zero

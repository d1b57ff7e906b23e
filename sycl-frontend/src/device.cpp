#include "sycl/device.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <utility>

#include "encore/graph/error.hpp"

namespace sycl {
inline namespace _V1 {

namespace {
backend backend_of(std::string_view name) {
    if (name == "cuda") return backend::ext_oneapi_cuda;
    if (name == "hip") return backend::ext_oneapi_hip;
    if (name == "level_zero") return backend::ext_oneapi_level_zero;
    if (name == "opencl") return backend::opencl;
    return backend::ext_oneapi_native_cpu;
}

bool matches(const device& d, info::device_type type) {
    switch (type) {
    case info::device_type::all:
    case info::device_type::automatic: return true;
    case info::device_type::cpu: return d.is_cpu();
    case info::device_type::gpu: return d.is_gpu();
    case info::device_type::accelerator: return d.is_accelerator();
    case info::device_type::custom:
    case info::device_type::host: return false;
    }
    return false;
}

std::atomic<std::uint64_t> next_context_id{1};
} // namespace

int default_selector_v(const device& d) {
    // First a device that can run the program's kernels (a kernel compiled only for the host has no business on
    // a GPU: see encore::backend_registry::default_device); among those a GPU with native graphs, then any GPU,
    // then accelerators, then the CPU.
    const int runs_kernels = d.engine().runs_program_kernels() ? 1000 : 0;
    if (d.is_gpu()) return runs_kernels + (d.engine().properties().native_graphs ? 400 : 300);
    if (d.is_accelerator()) return runs_kernels + 200;
    return runs_kernels + 100;
}
// Among the devices of the type asked for, those that can run the program's kernels first (the native CPU over
// an OpenCL CPU for host-compiled kernels; the CUDA GPU over NVIDIA's OpenCL for a program carrying CUDA code).
namespace {
int of_type(bool matches, const device& d) {
    return matches ? 100 + (d.engine().runs_program_kernels() ? 1000 : 0) : -1;
}
} // namespace
int cpu_selector_v(const device& d) { return of_type(d.is_cpu(), d); }
int gpu_selector_v(const device& d) { return of_type(d.is_gpu(), d); }
int accelerator_selector_v(const device& d) { return of_type(d.is_accelerator(), d); }

std::function<int(const device&)> aspect_selector(std::vector<aspect> required) {
    return [required = std::move(required)](const device& d) {
        for (aspect a : required)
            if (!d.has(a)) return -1;
        return default_selector_v(d);
    };
}

namespace {
// Runs `f`, which asks the engine for its devices: a failure there (no backend, a malformed
// ONEAPI_DEVICE_SELECTOR) means no device is available, SYCL's errc::runtime.
template <typename F> auto asking_for_devices(F&& f) {
    try {
        return std::forward<F>(f)();
    } catch (const encore::error& e) {
        throw exception(errc::runtime, std::string("no device is available: ") + e.what());
    }
}

std::vector<encore::device> all_devices() {
    return asking_for_devices([] { return encore::device::all(); });
}
} // namespace

// The engine's default device (the first visible device that runs the program's kernels), which is what
// default_selector_v scores highest; the engine traces why it was chosen (ENCORE_TRACE=1).
device::device() : device(asking_for_devices([] { return encore::device::default_device(); })) {}

device device::select(const std::function<int(const device&)>& selector) {
    const auto all = all_devices();
    int best_score = -1;
    std::optional<device> best;
    for (const auto& d : all) {
        device candidate(d);
        int score = selector(candidate);
        if (score >= 0 && score > best_score) {
            best_score = score;
            best = candidate;
        }
    }
    if (!best) throw exception(errc::runtime, "no device satisfies the selector (ENCORE_TRACE=1 lists the devices)");
    return *best;
}

std::vector<device> device::get_devices(info::device_type type) {
    std::vector<device> out;
    for (const auto& d : all_devices())
        if (matches(device(d), type)) out.emplace_back(d);
    return out;
}

bool device::is_cpu() const { return engine_.properties().type == encore::device_type::cpu; }
bool device::is_gpu() const { return engine_.properties().type == encore::device_type::gpu; }
bool device::is_accelerator() const { return engine_.properties().type == encore::device_type::accelerator; }
platform device::get_platform() const { return platform(engine_.owner()); }
backend device::get_backend() const noexcept { return backend_of(engine_.backend_name()); }

bool device::has(aspect a) const {
    const auto& p = engine_.properties();
    const bool native = get_backend() == backend::ext_oneapi_native_cpu;
    switch (a) {
    case aspect::cpu: return is_cpu();
    case aspect::gpu: return is_gpu();
    case aspect::accelerator: return is_accelerator();
    case aspect::queue_profiling: return p.profiling;
    case aspect::usm_device_allocations: return true;
    case aspect::usm_host_allocations: return p.host_memory;
    case aspect::usm_shared_allocations: return p.shared_memory;
    // The native backend's device memory is host memory: host atomics and plain allocations work on it.
    case aspect::usm_atomic_host_allocations:
    case aspect::usm_atomic_shared_allocations:
    case aspect::usm_system_allocations:
    case aspect::host_debuggable:
    case aspect::fp64:
    case aspect::atomic64: return native;
    // Every Encore backend lowers whole graphs (host tasks between partitions), so both graph aspects hold.
    case aspect::ext_oneapi_graph:
    case aspect::ext_oneapi_limited_graph: return true;
    case aspect::ext_oneapi_async_memory_alloc: return true; // async_alloc.cpp: on every backend's USM
    case aspect::custom:
    case aspect::emulated:
    case aspect::fp16:
    case aspect::image:
    case aspect::online_compiler:
    case aspect::online_linker:
    // Events made with enable_profiling (sycl_ext_oneapi_reusable_events): not built; queue profiling is.
    case aspect::ext_oneapi_per_event_profiling: return false;
    }
    return false;
}

#define ENCORE_DEVICE_INFO(descriptor, expression)                                                                     \
    template <> info::device::descriptor::return_type device::get_info<info::device::descriptor>() const {             \
        const auto& p = engine_.properties();                                                                          \
        (void)p;                                                                                                       \
        return expression;                                                                                             \
    }
ENCORE_DEVICE_INFO(name, p.name)
ENCORE_DEVICE_INFO(vendor, p.vendor)
ENCORE_DEVICE_INFO(driver_version, p.driver_version)
ENCORE_DEVICE_INFO(version, p.driver_version)
ENCORE_DEVICE_INFO(max_compute_units, p.compute_units)
ENCORE_DEVICE_INFO(max_work_group_size, p.max_work_group_size)
ENCORE_DEVICE_INFO(global_mem_size, p.global_memory_bytes)
ENCORE_DEVICE_INFO(local_mem_size, p.local_memory_bytes)
ENCORE_DEVICE_INFO(mem_base_addr_align, static_cast<std::uint32_t>(p.allocation_alignment * 8))
ENCORE_DEVICE_INFO(queue_profiling, p.profiling)
ENCORE_DEVICE_INFO(device_type, is_gpu() ? info::device_type::gpu
                                 : is_accelerator() ? info::device_type::accelerator
                                                    : info::device_type::cpu)
ENCORE_DEVICE_INFO(usm_device_allocations, has(aspect::usm_device_allocations))
ENCORE_DEVICE_INFO(usm_host_allocations, has(aspect::usm_host_allocations))
ENCORE_DEVICE_INFO(usm_shared_allocations, has(aspect::usm_shared_allocations))
ENCORE_DEVICE_INFO(usm_system_allocations, has(aspect::usm_system_allocations))
#undef ENCORE_DEVICE_INFO

platform::platform() : platform(device().get_platform()) {}

std::vector<platform> platform::get_platforms() {
    std::vector<platform> out;
    for (const auto& d : all_devices()) {
        platform p(d.owner());
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
    return out;
}

std::vector<device> platform::get_devices(info::device_type type) const {
    std::vector<device> out;
    for (const auto& d : device::get_devices(type))
        if (&d.engine().owner() == backend_) out.push_back(d);
    return out;
}

backend platform::get_backend() const noexcept { return backend_of(backend_->name()); }

bool platform::has(aspect a) const {
    auto devices = get_devices();
    return !devices.empty() && std::all_of(devices.begin(), devices.end(), [a](const device& d) { return d.has(a); });
}

context platform::khr_get_default_context() const {
    return ext_oneapi_get_default_context();
}

context platform::ext_oneapi_get_default_context() const {
    static std::mutex mutex;
    static std::vector<std::pair<const encore::backend*, context>> defaults;
    std::lock_guard lock(mutex);
    for (const auto& [b, c] : defaults)
        if (b == backend_) return c;
    auto devices = get_devices();
    if (devices.empty()) throw exception(errc::platform, "platform '" + std::string(backend_->name()) + "' has no device");
    defaults.emplace_back(backend_, context(devices));
    return defaults.back().second;
}

template <> std::string platform::get_info<info::platform::name>() const {
    return "Encore " + std::string(backend_->name());
}
template <> std::string platform::get_info<info::platform::vendor>() const { return "Encore"; }
template <> std::string platform::get_info<info::platform::version>() const { return "SYCL 2020 (Encore 0.1)"; }

context::context(async_handler handler, const property_list& p) : context(device(), std::move(handler), p) {}
context::context(const device& d, async_handler handler, const property_list& p)
    : context(std::vector<device>{d}, std::move(handler), p) {}
context::context(const std::vector<device>& devices, async_handler handler, const property_list& p)
    : state_(std::make_shared<const detail::context_state>(
          detail::context_state{devices, std::move(handler), next_context_id++, p})) {
    if (devices.empty()) throw exception(errc::invalid, "a context needs at least one device");
    for (const auto& d : devices)
        if (d.get_platform() != devices.front().get_platform())
            throw exception(errc::invalid, "the devices of a context must belong to one platform");
}

bool context::contains(const device& d) const {
    return std::find(state_->devices.begin(), state_->devices.end(), d) != state_->devices.end();
}

} // namespace _V1
} // namespace sycl

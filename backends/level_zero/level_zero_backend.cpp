#include "level_zero_backend.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "encore/backends/level_zero/detail/build_module.hpp"
#include "encore/backends/level_zero/device_code.hpp"
#include "encore/backends/level_zero/level_zero_graph.hpp"
#include "encore/backends/level_zero/level_zero_queue.hpp"

namespace encore::level_zero {

using detail::check;

namespace {

bool env_flag(const char* name) {
    const char* value = std::getenv(name);
    return value && *value && std::strcmp(value, "0") != 0;
}

device_properties properties_of(const detail::api& ze, const detail::driver_device& dd, double& ns_per_tick) {
    ze_device_properties_t p{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    check(ze.zeDeviceGetProperties(dd.device, &p), "zeDeviceGetProperties");
    ze_device_compute_properties_t c{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    check(ze.zeDeviceGetComputeProperties(dd.device, &c), "zeDeviceGetComputeProperties");
    ze_device_module_properties_t m{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
    check(ze.zeDeviceGetModuleProperties(dd.device, &m), "zeDeviceGetModuleProperties");
    std::uint32_t memories = 0;
    check(ze.zeDeviceGetMemoryProperties(dd.device, &memories, nullptr), "zeDeviceGetMemoryProperties");
    std::vector<ze_device_memory_properties_t> memory(memories, {ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES});
    if (memories)
        check(ze.zeDeviceGetMemoryProperties(dd.device, &memories, memory.data()),
              "zeDeviceGetMemoryProperties");
    ze_driver_properties_t d{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    check(ze.zeDriverGetProperties(dd.driver, &d), "zeDriverGetProperties");
    ze_api_version_t api_version{};
    check(ze.zeDriverGetApiVersion(dd.driver, &api_version), "zeDriverGetApiVersion");

    device_properties out;
    out.name = p.name;
    char vendor[32];
    std::snprintf(vendor, sizeof vendor, "vendor 0x%04x", p.vendorId);
    out.vendor = p.vendorId == 0x8086 ? "Intel(R) Corporation" : vendor;
    out.driver_version = "Level Zero " + std::to_string(ZE_MAJOR_VERSION(api_version)) + "." +
                         std::to_string(ZE_MINOR_VERSION(api_version)) + " (driver " +
                         std::to_string(d.driverVersion) + ")";
    out.type = p.type == ZE_DEVICE_TYPE_GPU   ? device_type::gpu
               : p.type == ZE_DEVICE_TYPE_CPU ? device_type::cpu
                                              : device_type::accelerator;
    out.compute_units =
        std::max<std::uint32_t>(p.numSlices * p.numSubslicesPerSlice * p.numEUsPerSubslice, 1);
    for (const auto& m : memory)
        out.global_memory_bytes += m.totalSize;
    out.local_memory_bytes = c.maxSharedLocalMemory;
    out.max_work_group_size = std::max<std::size_t>(c.maxTotalGroupSize, 1);
    out.allocation_alignment = 64;
    out.profiling = true; // kernel timestamps are core Level Zero
    out.native_graphs = true;
    out.host_kernels = false;
    out.native_recording = false;
    out.graph_lowering = "Level Zero command-list chain";
    // A driver without a SPIR-V compiler reports version 0 (the tests' CPU driver).
    out.spirv = m.spirvVersionSupported != 0;
    for (std::uint32_t i = 0; i < std::min<std::uint32_t>(c.numSubGroupSizes, ZE_SUBGROUPSIZE_COUNT); ++i)
        out.sub_group_sizes.push_back(c.subGroupSizes[i]);
    // With the 1.0 structure type, timerResolution is in nanoseconds per tick.
    ns_per_tick = p.timerResolution ? static_cast<double>(p.timerResolution) : 1.0;
    return out;
}

} // namespace

std::unique_ptr<level_zero_backend> level_zero_backend::create(std::string& why_not) {
    const detail::api* ze = detail::api::load(why_not);
    if (!ze) return nullptr;
    std::unique_ptr<level_zero_backend> b(new level_zero_backend());
    b->ze_ = ze;
    b->trace_ = env_flag("ENCORE_TRACE");
    const char* eager = std::getenv("ENCORE_LEVEL_ZERO_EAGER_LISTS");
    b->regular_eager_lists_ = eager && std::strcmp(eager, "regular") == 0;
    try {
        const auto found = detail::enumerate_devices(*ze, why_not);
        if (found.empty()) return nullptr;
        for (const auto& dd : found) {
            auto s = std::make_unique<device_state>();
            s->driver = dd.driver;
            s->device = dd.device;
            s->properties = properties_of(*ze, dd, s->ns_per_tick);
            ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
            check(ze->zeContextCreate(dd.driver, &desc, s->context.out()), "zeContextCreate",
                  s->properties.name);
            s->events = std::make_unique<event_pool>(*ze, s->context.get(), false);
            s->timestamp_events = std::make_unique<event_pool>(*ze, s->context.get(), true);
            b->trace("device " + std::to_string(b->devices_.size()) + ": " + s->properties.name + " (" +
                     s->properties.driver_version + "); eager queues on " +
                     (b->regular_eager_lists_
                          ? "regular command lists (ENCORE_LEVEL_ZERO_EAGER_LISTS=regular)"
                          : "immediate command lists") +
                     ", graphs as "
                     "prefix/main/suffix command-list chains; no mutable command lists (updates re-record)");
            b->devices_.push_back(std::move(s));
        }
    } catch (const std::exception& e) {
        why_not = e.what();
        return nullptr;
    }
    return b;
}

level_zero_backend::~level_zero_backend() {
    kernels_.clear();
    modules_.clear();
    outlined_modules_.clear();
    for (auto& [address, a] : allocations_)
        ze_->zeMemFree(devices_[a.device]->context.get(), reinterpret_cast<void*>(address));
    allocations_.clear();
}

void level_zero_backend::check_device(std::uint32_t device) const {
    if (device >= devices_.size())
        throw error(errc::invalid_argument, "level_zero backend: device " + std::to_string(device) +
                                                " does not exist (" + std::to_string(devices_.size()) +
                                                " devices)");
}

const device_properties& level_zero_backend::properties(std::uint32_t device) const {
    check_device(device);
    return devices_[device]->properties;
}

void* level_zero_backend::allocate(std::uint32_t device, memory_kind kind, std::size_t bytes,
                                   std::size_t alignment) {
    check_device(device);
    if (bytes == 0) return nullptr;
    if (alignment != 0 && (alignment & (alignment - 1)) != 0)
        throw error(errc::invalid_argument, "level_zero allocation: alignment " + std::to_string(alignment) +
                                                " is not a power of two");
    const device_state& s = *devices_[device];
    alignment = std::max(alignment, s.properties.allocation_alignment);
    const std::string what = std::to_string(bytes) + " bytes of " + std::string(to_string(kind)) +
                             " memory on " + s.properties.name;
    if (s.properties.global_memory_bytes != 0 && bytes > s.properties.global_memory_bytes)
        throw error(errc::backend_failure, "level_zero allocation of " + what + ": more than the device's " +
                                               std::to_string(s.properties.global_memory_bytes) + " bytes");
    void* p = nullptr;
    ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    switch (kind) {
    case memory_kind::device:
        check(ze_->zeMemAllocDevice(s.context.get(), &device_desc, bytes, alignment, s.device, &p),
              "zeMemAllocDevice", what);
        break;
    case memory_kind::host:
        check(ze_->zeMemAllocHost(s.context.get(), &host_desc, bytes, alignment, &p), "zeMemAllocHost", what);
        break;
    case memory_kind::shared:
        check(
            ze_->zeMemAllocShared(s.context.get(), &device_desc, &host_desc, bytes, alignment, s.device, &p),
            "zeMemAllocShared", what);
        break;
    }
    if (!p) throw error(errc::backend_failure, "level_zero allocation of " + what + " returned no memory");
    std::lock_guard lock(allocations_mutex_);
    allocations_[reinterpret_cast<std::uintptr_t>(p)] = {bytes, device};
    return p;
}

void level_zero_backend::deallocate(std::uint32_t device, void* pointer) {
    check_device(device);
    if (!pointer) return; // free(nullptr) does nothing
    allocation a;
    {
        std::lock_guard lock(allocations_mutex_);
        auto it = allocations_.find(reinterpret_cast<std::uintptr_t>(pointer));
        if (it == allocations_.end() || it->second.device != device)
            throw error(errc::invalid_argument, "level_zero deallocate: the pointer was not allocated by the "
                                                "level_zero backend on device " +
                                                    std::to_string(device));
        a = it->second;
        allocations_.erase(it);
    }
    check(ze_->zeMemFree(devices_[a.device]->context.get(), pointer), "zeMemFree");
}

bool level_zero_backend::owns(const void* p, std::size_t bytes) const {
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    std::lock_guard lock(allocations_mutex_);
    auto it = allocations_.upper_bound(address);
    if (it == allocations_.begin()) return false;
    --it;
    return address >= it->first && address + bytes <= it->first + it->second.bytes;
}

std::unique_ptr<backend_queue> level_zero_backend::create_queue(std::uint32_t device,
                                                                const queue_properties& properties,
                                                                std::shared_ptr<error_sink> errors) {
    check_device(device);
    return std::make_unique<level_zero_queue>(*this, device, properties, std::move(errors));
}

std::unique_ptr<backend_executable> level_zero_backend::lower(std::uint32_t device, const graph& g,
                                                              const partition& p) {
    check_device(device);
    return std::make_unique<chain_executable>(*this, device, g, p);
}

shared_kernel& level_zero_backend::kernel_of(std::uint32_t device, const kernel& k) {
    check_device(device);
    const auto* code = static_cast<const device_code*>(k.device_code("level_zero"));
    if (!code)
        throw error(errc::kernel_not_supported,
                    "kernel '" + k.name() +
                        "' has no Level Zero code (a C++ callable runs on the native backend only; build a "
                        "module with encore::level_zero::build_module)");
    device_state& s = *devices_[device];
    if (code->device_name && s.properties.name != code->device_name)
        throw error(errc::kernel_not_supported, "kernel '" + k.name() + "' was built for '" +
                                                    code->device_name + "', not for '" + s.properties.name +
                                                    "'");
    const bool outlined = code->outlined.geometry_dimensions != 0; // encore++'s SPIR-V
    if (outlined && !s.properties.spirv)
        throw error(errc::kernel_not_supported,
                    "kernel '" + k.name() + "' has encore++ SPIR-V code, but Level Zero device '" + s.properties.name +
                        "' takes no SPIR-V (its module properties give no SPIR-V version)");
    if (!code->entry || (outlined ? !code->outlined.spirv : !code->binary))
        throw error(errc::invalid_argument, "kernel '" + k.name() + "': Level Zero code without a module or entry");
    std::lock_guard lock(kernels_mutex_);
    // Entry names tell an image's kernels from a module's (encore++'s are __encore_kernel_<hash>).
    auto key = std::make_tuple(code->module_id, std::string(code->entry), device);
    auto& slot = kernels_[key];
    if (slot) return *slot;
    auto& module = (outlined ? outlined_modules_ : modules_)[{code->module_id, device}];
    if (!module) {
        // encore++'s SPIR-V is built for this device through the kernel/program cache, then loaded as the module
        // kernels' native binaries are.
        const module_binary built =
            outlined ? detail::build_module({s.driver, s.device},
                                            module_source::spirv({code->outlined.spirv,
                                                                  code->outlined.spirv + code->outlined.spirv_bytes}))
                     : module_binary{};
        ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
        desc.format = ZE_MODULE_FORMAT_NATIVE;
        desc.inputSize = outlined ? built.bytes.size() : code->binary_bytes;
        desc.pInputModule = outlined ? built.bytes.data() : code->binary;
        desc.pBuildFlags = "";
        detail::build_log_handle log;
        const ze_result_t r = ze_->zeModuleCreate(s.context.get(), s.device, &desc, module.out(), log.out());
        if (r != ZE_RESULT_SUCCESS) {
            const std::string text = detail::build_log_text(*ze_, log.get());
            module.reset();
            throw error(errc::build_failure, "zeModuleCreate of the module of kernel '" + k.name() +
                                                 "' failed: " + detail::describe(r) +
                                                 (text.empty() ? "" : "\nbuild log:\n" + text));
        }
    }
    auto made = std::make_unique<shared_kernel>();
    ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC};
    desc.pKernelName = code->entry;
    check(ze_->zeKernelCreate(module.get(), &desc, made->handle.out()), "zeKernelCreate",
          std::string("kernel '") + code->entry + "'");
    slot = std::move(made);
    return *slot;
}

void level_zero_backend::trace(const std::string& line) const {
    if (trace_) std::fprintf(stderr, "encore: level_zero: %s\n", line.c_str());
}

} // namespace encore::level_zero

extern "C" ENCORE_BACKEND_EXPORT void encore_backend_entry(encore::backend_plugin_request* request) {
    if (request->interface_version != encore::backend_interface_version) return;
    std::string why_not;
    auto backend = encore::level_zero::level_zero_backend::create(why_not);
    if (!backend) {
        request->unavailable_reason = why_not.empty() ? "no Level Zero device" : why_not;
        return;
    }
    request->instance = std::move(backend);
}

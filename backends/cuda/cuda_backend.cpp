#include "cuda_backend.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "encore/backends/cuda/cuda_event.hpp"
#include "encore/backends/cuda/cuda_graph_lowering.hpp"
#include "encore/backends/cuda/cuda_recording.hpp"
#include "encore/backends/cuda/cuda_queue.hpp"
#include "encore/graph/error.hpp"

// The PTX of fill_kernels.cu, embedded at build time (meson.build).
extern const char encore_cuda_fill_ptx[];

namespace encore::cuda {

using detail::check;

namespace {

int attribute(CUdevice d, CUdevice_attribute a) {
    int value = 0;
    check(cuDeviceGetAttribute(&value, a, d), "cuDeviceGetAttribute");
    return value;
}

device_properties properties_of(CUdevice d) {
    device_properties p;
    char name[256] = {};
    check(cuDeviceGetName(name, sizeof name, d), "cuDeviceGetName");
    p.name = name;
    p.vendor = "NVIDIA Corporation";
    int driver = 0;
    check(cuDriverGetVersion(&driver), "cuDriverGetVersion");
    p.driver_version = "CUDA " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10) +
                       " (compute capability " +
                       std::to_string(attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)) + "." +
                       std::to_string(attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)) + ")";
    p.architecture = "sm_" + std::to_string(attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)) +
                     std::to_string(attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
    p.type = device_type::gpu;
    p.compute_units = static_cast<std::uint32_t>(attribute(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
    std::size_t bytes = 0;
    check(cuDeviceTotalMem(&bytes, d), "cuDeviceTotalMem");
    p.global_memory_bytes = bytes;
    p.local_memory_bytes = static_cast<std::size_t>(attribute(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
    p.max_work_group_size = static_cast<std::size_t>(attribute(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
    p.allocation_alignment = 256; // cuMemAlloc's guarantee
    p.profiling = true;
    p.native_graphs = true;
    p.native_recording = true;
    return p;
}

} // namespace

std::unique_ptr<cuda_backend> cuda_backend::create(std::string& why_not) {
    CUresult r = cuInit(0);
    if (r != CUDA_SUCCESS) {
        why_not = "cuInit: " + detail::describe(r);
        return nullptr;
    }
    int count = 0;
    r = cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count == 0) {
        why_not = r != CUDA_SUCCESS ? "cuDeviceGetCount: " + detail::describe(r) : "no CUDA device";
        return nullptr;
    }
    std::unique_ptr<cuda_backend> b(new cuda_backend());
    static std::atomic<std::uint64_t> next_id{1};
    b->id_ = next_id.fetch_add(1, std::memory_order_relaxed);
    try {
        for (int i = 0; i < count; ++i) {
            device_state s;
            check(cuDeviceGet(&s.handle, i), "cuDeviceGet");
            s.properties = properties_of(s.handle);
            check(cuDevicePrimaryCtxRetain(&s.context, s.handle), "cuDevicePrimaryCtxRetain");
            b->devices_.push_back(std::move(s));
        }
    } catch (const std::exception& e) {
        why_not = e.what();
        return nullptr;
    }
    b->fill_functions_.assign(b->devices_.size(), nullptr);
    b->fill_modules_.resize(b->devices_.size());
    b->watcher_ = std::make_unique<completion_watcher>();
    for (std::size_t i = 0; i < b->devices_.size(); ++i)
        b->launchers_.push_back(std::make_unique<launcher>(launcher_options()));
    const char* trace = std::getenv("ENCORE_TRACE");
    b->trace_ = trace && *trace && std::strcmp(trace, "0") != 0;
    return b;
}

cuda_backend::~cuda_backend() {
    // The launchers run what was submitted (their tasks may hand callbacks to the watcher), then the watcher
    // stops: it queries events of these contexts.
    launchers_.clear();
    watcher_.reset();
    for (auto& [pointer, a] : allocations_.take_all()) {
        if (a.kind == memory_kind::host)
            static_cast<void>(cuMemFreeHost(a.base));
        else
            static_cast<void>(cuMemFree(reinterpret_cast<CUdeviceptr>(a.base)));
    }
    functions_.clear();
    modules_.clear();
    fill_modules_.clear();
    for (auto& d : devices_) {
        for (CUevent e : d.free_events)
            static_cast<void>(cuEventDestroy(e));
        static_cast<void>(cuDevicePrimaryCtxRelease(d.handle));
    }
}

void cuda_backend::check_device(std::uint32_t device) const {
    if (device >= devices_.size())
        throw error(errc::invalid_argument, "cuda backend: device " + std::to_string(device) +
                                                " does not exist (" + std::to_string(devices_.size()) +
                                                " devices)");
}

const device_properties& cuda_backend::properties(std::uint32_t device) const {
    check_device(device);
    return devices_[device].properties;
}

void* cuda_backend::allocate(std::uint32_t device, memory_kind kind, std::size_t bytes, std::size_t alignment) {
    check_device(device);
    if (bytes == 0) return nullptr;
    if (alignment != 0 && (alignment & (alignment - 1)) != 0)
        throw error(errc::invalid_argument,
                    "cuda allocation: alignment " + std::to_string(alignment) + " is not a power of two");
    // The driver aligns to 256 bytes (host: a page); larger alignments are met by allocating more.
    const std::size_t extra = alignment > 256 ? alignment : 0;
    detail::context_scope scope(devices_[device].context);
    void* base = nullptr;
    const std::string what = std::to_string(bytes) + " bytes of " + std::string(to_string(kind)) +
                             " memory on " + devices_[device].properties.name;
    switch (kind) {
    case memory_kind::device: {
        CUdeviceptr p = 0;
        check(cuMemAlloc(&p, bytes + extra), "cuMemAlloc", what);
        base = reinterpret_cast<void*>(p);
        break;
    }
    case memory_kind::host:
        check(cuMemAllocHost(&base, bytes + extra), "cuMemAllocHost", what);
        break;
    case memory_kind::shared: {
        CUdeviceptr p = 0;
        check(cuMemAllocManaged(&p, bytes + extra, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged", what);
        base = reinterpret_cast<void*>(p);
        break;
    }
    }
    void* user = base;
    if (extra) {
        auto address = reinterpret_cast<std::uintptr_t>(base);
        user = reinterpret_cast<void*>((address + alignment - 1) / alignment * alignment);
    }
    allocations_.insert(user, {base, bytes, device, kind});
    return user;
}

void cuda_backend::deallocate(std::uint32_t device, void* pointer) {
    check_device(device);
    if (!pointer) return;
    auto a = allocations_.erase(pointer);
    if (!a)
        throw error(errc::invalid_argument,
                    "free: the pointer was not allocated by the cuda backend (or was freed already)");
    // Work submitted before the free may still be waiting in the launcher: it reaches the driver before the
    // memory is freed, as when submitters made their driver calls themselves.
    if (launcher& l = launcher_of(a->device); !l.running_here()) l.drain();
    detail::context_scope scope(devices_[a->device].context);
    if (a->kind == memory_kind::host)
        check(cuMemFreeHost(a->base), "cuMemFreeHost");
    else
        check(cuMemFree(reinterpret_cast<CUdeviceptr>(a->base)), "cuMemFree");
}

std::unique_ptr<backend_queue> cuda_backend::create_queue(std::uint32_t device, const queue_properties& properties,
                                                          std::shared_ptr<error_sink> errors) {
    check_device(device);
    return std::make_unique<cuda_queue>(*this, device, properties, std::move(errors));
}

std::unique_ptr<backend_executable> cuda_backend::lower(std::uint32_t device, const graph& g,
                                                        const partition& p) {
    check_device(device);
    return std::make_unique<cuda_executable>(*this, device, g, p);
}

std::unique_ptr<backend_recording> cuda_backend::begin_recording(std::uint32_t device) {
    check_device(device);
    return std::make_unique<cuda_recording>(*this, device);
}

CUfunction cuda_backend::function_of(std::uint32_t device, const kernel& k, const device_code** code_out) {
    const auto* code = static_cast<const device_code*>(k.device_code("cuda"));
    if (!code)
        throw error(errc::kernel_not_supported,
                    "kernel '" + k.name() +
                        "' has no CUDA code (it was not compiled by nvcc through backends/cuda/single_source.hpp "
                        "nor built by NVRTC); it cannot run on the cuda backend");
    *code_out = code;
    const bool by_resolver = code->convention == calling_convention::work_item;
    const std::uintptr_t key = by_resolver ? reinterpret_cast<std::uintptr_t>(code->resolve)
                                           : static_cast<std::uintptr_t>(code->image_id);
    const std::string_view entry = by_resolver || !code->entry ? std::string_view() : std::string_view(code->entry);
    // The eager path submits the same kernel again and again: the last lookup of this thread answers without
    // the lock and the map. Keyed by the backend's id (never reused), not its address; trivially destructible,
    // so that the thread_local does not pin the plugin (entry names longer than the buffer are not cached).
    struct last_lookup {
        std::uint64_t backend = 0;
        std::uint32_t device = 0;
        std::uintptr_t key = 0;
        char entry[64] = {};
        CUfunction function = nullptr;
    };
    thread_local last_lookup last;
    if (last.backend == id_ && last.device == device && last.key == key && entry.size() < sizeof last.entry &&
        entry == std::string_view(last.entry))
        return last.function;
    auto remember = [&](CUfunction f) {
        if (entry.size() < sizeof last.entry) {
            last.backend = id_;
            last.device = device;
            last.key = key;
            std::memcpy(last.entry, entry.data(), entry.size());
            last.entry[entry.size()] = '\0';
            last.function = f;
        }
        return f;
    };
    std::lock_guard lock(functions_mutex_);
    if (auto it = functions_.find(std::tuple(key, entry, device)); it != functions_.end()) return remember(it->second);

    detail::context_scope scope(devices_[device].context);
    CUfunction f = nullptr;
    if (by_resolver) {
        if (!code->resolve)
            throw error(errc::invalid_argument, "kernel '" + k.name() + "': device code without a resolver");
        const char* why = "unknown reason";
        f = static_cast<CUfunction>(code->resolve(&why));
        if (!f)
            throw error(errc::backend_failure,
                        "kernel '" + k.name() + "': its nvcc entry could not be found: " + std::string(why));
    } else {
        if (!code->image || !code->entry)
            throw error(errc::invalid_argument, "kernel '" + k.name() + "': module code without an image or entry");
        auto& module = modules_[{code->image_id, device}];
        if (!module)
            check(cuModuleLoadData(module.out(), code->image), "cuModuleLoadData", "kernel '" + k.name() + "'");
        check(cuModuleGetFunction(&f, module.get(), code->entry), "cuModuleGetFunction",
              "no kernel named '" + std::string(code->entry) + "' in the module of kernel '" + k.name() + "'");
    }
    functions_.emplace(std::tuple(key, std::string(entry), device), f);
    return remember(f);
}

CUfunction cuda_backend::fill_function(std::uint32_t device) {
    std::lock_guard lock(functions_mutex_);
    if (fill_functions_[device]) return fill_functions_[device];
    detail::context_scope scope(devices_[device].context);
    check(cuModuleLoadData(fill_modules_[device].out(), encore_cuda_fill_ptx), "cuModuleLoadData",
          "the cuda backend's fill kernel");
    check(cuModuleGetFunction(&fill_functions_[device], fill_modules_[device].get(), "encore_fill"),
          "cuModuleGetFunction", "encore_fill");
    return fill_functions_[device];
}

CUevent cuda_backend::acquire_event(std::uint32_t device) {
    {
        std::lock_guard lock(functions_mutex_);
        auto& pool = devices_[device].free_events;
        if (!pool.empty()) {
            CUevent e = pool.back();
            pool.pop_back();
            return e;
        }
    }
    detail::context_scope scope(devices_[device].context);
    CUevent e = nullptr;
    check(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    return e;
}

void cuda_backend::release_event(std::uint32_t device, CUevent e) noexcept {
    std::lock_guard lock(functions_mutex_);
    devices_[device].free_events.push_back(e);
}

void cuda_backend::trace(const std::string& line) const {
    if (trace_) std::fprintf(stderr, "encore: cuda: %s\n", line.c_str());
}

} // namespace encore::cuda

extern "C" ENCORE_BACKEND_EXPORT void encore_backend_entry(encore::backend_plugin_request* request) {
    if (request->interface_version != encore::backend_interface_version) return;
    std::string why_not;
    auto backend = encore::cuda::cuda_backend::create(why_not);
    if (!backend) {
        request->unavailable_reason = why_not;
        return;
    }
    request->instance = std::move(backend);
}

#include "gpu_backend.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "encore/backends/gpu/gpu_event.hpp"
#include "encore/backends/gpu/gpu_graph_lowering.hpp"
#include "encore/backends/gpu/gpu_recording.hpp"
#include "encore/backends/gpu/gpu_queue.hpp"
#include "encore/cache/program_cache.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

std::unique_ptr<gpu_backend> gpu_backend::create(std::unique_ptr<driver> api, std::string& why_not) {
    if (!api) return nullptr; // why_not says why already
    std::unique_ptr<gpu_backend> b(new gpu_backend(std::move(api)));
    static std::atomic<std::uint64_t> next_id{1};
    b->id_ = next_id.fetch_add(1, std::memory_order_relaxed);
    driver& d = *b->api_;
    try {
        const std::uint32_t count = d.device_count();
        if (count == 0) {
            why_not = "no " + std::string(d.name()) + " device";
            return nullptr;
        }
        for (std::uint32_t i = 0; i < count; ++i) {
            device_state s;
            s.properties = d.properties(i);
            s.context = d.retain_context(i);
            b->devices_.push_back(std::move(s));
        }
    } catch (const std::exception& e) {
        why_not = e.what();
        return nullptr;
    }
    b->fill_functions_.assign(b->devices_.size(), nullptr);
    for (std::size_t i = 0; i < b->devices_.size(); ++i)
        b->fill_modules_.emplace_back(d);
    b->watcher_ = std::make_unique<completion_watcher>(d);
    for (std::size_t i = 0; i < b->devices_.size(); ++i)
        b->launchers_.push_back(std::make_unique<launcher>(launcher_options()));
    const char* trace = std::getenv("ENCORE_TRACE");
    b->trace_ = trace && *trace && std::strcmp(trace, "0") != 0;
    return b;
}

gpu_backend::~gpu_backend() {
    // The launchers run what was submitted (their tasks may hand callbacks to the watcher), then the watcher
    // stops: it queries events of these contexts.
    launchers_.clear();
    watcher_.reset();
    for (auto& [pointer, a] : allocations_.take_all()) {
        try {
            context_scope scope(*api_, devices_[a.device].context);
            api_->free(a.kind, a.base);
        } catch (...) { // a driver shutting down: the process's memory goes with it
        }
    }
    functions_.clear();
    modules_.clear();
    fill_modules_.clear();
    for (std::uint32_t i = 0; i < devices_.size(); ++i) {
        for (gpu::driver_event e : devices_[i].free_events)
            api_->destroy_event(e);
        api_->release_context(i);
    }
}

void gpu_backend::check_device(std::uint32_t device) const {
    if (device >= devices_.size())
        throw error(errc::invalid_argument, std::string(name()) + " backend: device " + std::to_string(device) +
                                                " does not exist (" + std::to_string(devices_.size()) +
                                                " devices)");
}

const device_properties& gpu_backend::properties(std::uint32_t device) const {
    check_device(device);
    return devices_[device].properties;
}

void* gpu_backend::allocate(std::uint32_t device, memory_kind kind, std::size_t bytes, std::size_t alignment) {
    check_device(device);
    if (bytes == 0) return nullptr;
    if (alignment != 0 && (alignment & (alignment - 1)) != 0)
        throw error(errc::invalid_argument,
                    std::string(name()) + " allocation: alignment " + std::to_string(alignment) +
                        " is not a power of two");
    // The driver aligns to 256 bytes (host: a page); larger alignments are met by allocating more.
    const std::size_t extra = alignment > 256 ? alignment : 0;
    context_scope scope(*api_, devices_[device].context);
    void* base = api_->allocate(kind, bytes + extra,
                                std::to_string(bytes) + " bytes of " + std::string(to_string(kind)) + " memory on " +
                                    devices_[device].properties.name);
    void* user = base;
    if (extra) {
        auto address = reinterpret_cast<std::uintptr_t>(base);
        user = reinterpret_cast<void*>((address + alignment - 1) / alignment * alignment);
    }
    allocations_.insert(user, {base, bytes, device, kind});
    return user;
}

void gpu_backend::deallocate(std::uint32_t device, void* pointer) {
    check_device(device);
    if (!pointer) return;
    auto a = allocations_.erase(pointer);
    if (!a)
        throw error(errc::invalid_argument,
                    "free: the pointer was not allocated by the " + std::string(name()) +
                        " backend (or was freed already)");
    // Work submitted before the free may still be waiting in the launcher: it reaches the driver before the
    // memory is freed, as when submitters made their driver calls themselves.
    if (launcher& l = launcher_of(a->device); !l.running_here()) l.drain();
    context_scope scope(*api_, devices_[a->device].context);
    api_->free(a->kind, a->base);
}

std::unique_ptr<backend_queue> gpu_backend::create_queue(std::uint32_t device, const queue_properties& properties,
                                                          std::shared_ptr<error_sink> errors) {
    check_device(device);
    return std::make_unique<gpu_queue>(*this, device, properties, std::move(errors));
}

std::unique_ptr<backend_executable> gpu_backend::lower(std::uint32_t device, const graph& g,
                                                        const partition& p) {
    check_device(device);
    return std::make_unique<gpu_executable>(*this, device, g, p);
}

std::unique_ptr<backend_recording> gpu_backend::begin_recording(std::uint32_t device) {
    check_device(device);
    return std::make_unique<gpu_recording>(*this, device);
}

driver_function gpu_backend::function_of(std::uint32_t device, const kernel& k, const device_code** code_out) {
    const auto* code = static_cast<const device_code*>(k.device_code(api_->name()));
    if (!code)
        throw error(errc::kernel_not_supported, "kernel '" + k.name() + "' " + api_->missing_code_reason() +
                                                    "; it cannot run on the " + std::string(name()) + " backend");
    *code_out = code;
    // A work_item entry is found by its resolver (nvcc single-source) or, like argument_list kernels, by name
    // in an image (encore++'s outlined kernels).
    const bool by_resolver = code->convention == calling_convention::work_item && code->resolve;
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
        driver_function entry_function = nullptr;
    };
    thread_local last_lookup last;
    if (last.backend == id_ && last.device == device && last.key == key && entry.size() < sizeof last.entry &&
        entry == std::string_view(last.entry))
        return last.entry_function;
    auto remember = [&](driver_function f) {
        if (entry.size() < sizeof last.entry) {
            last.backend = id_;
            last.device = device;
            last.key = key;
            last.entry[entry.copy(last.entry, entry.size())] = '\0'; // (memcpy would take a null pointer)
            last.entry_function = f;
        }
        return f;
    };
    std::lock_guard lock(functions_mutex_);
    if (auto it = functions_.find(std::tuple(key, entry, device)); it != functions_.end()) return remember(it->second);

    context_scope scope(*api_, devices_[device].context);
    driver_function f = nullptr;
    if (by_resolver) {
        const char* why = "unknown reason";
        f = static_cast<driver_function>(code->resolve(&why));
        if (!f)
            throw error(errc::backend_failure,
                        "kernel '" + k.name() + "': its compiled entry could not be found: " + std::string(why));
    } else {
        if (!code->image || !code->entry)
            throw error(errc::invalid_argument, "kernel '" + k.name() + "': device code without " +
                                                    (code->convention == calling_convention::work_item
                                                         ? "a resolver or an image and entry"
                                                         : "an image or entry"));
        f = load_entry(device, k, *code, code->entry);
    }
    functions_.emplace(std::tuple(key, std::string(entry), device), f);
    return remember(f);
}

namespace {

// Whether the comma-separated `list` names `architecture`.
bool lists(const char* list, const std::string& architecture) {
    if (!list || architecture.empty()) return false;
    const std::string_view all(list);
    for (std::size_t at = 0; at <= all.size();) {
        const std::size_t comma = std::min(all.find(',', at), all.size());
        if (all.substr(at, comma - at) == architecture) return true;
        at = comma + 1;
    }
    return false;
}

} // namespace

driver_function gpu_backend::load_entry(std::uint32_t device, const kernel& k, const device_code& code,
                                        const char* entry) {
    driver_module m = module_of(device, code, "kernel '" + k.name() + "'");
    return api_->get_function(m, entry,
                              "no kernel named '" + std::string(entry) + "' in the module of kernel '" + k.name() + "'");
}

driver_module gpu_backend::module_of(std::uint32_t device, const device_code& code, const std::string& what) {
    auto loaded = modules_.find({code.image_id, device});
    if (loaded == modules_.end()) {
        const device_properties& p = devices_[device].properties;
        driver_module m = nullptr;
        if (code.portable && code.architectures && !lists(code.architectures, p.architecture)) {
            // No machine code for this GPU: its portable code, compiled once through the kernel/program cache.
            trace("the image of " + what + " has machine code for " + code.architectures + ", not " +
                  p.architecture + ": its PTX is compiled through the kernel/program cache");
            cache::program_key key{.backend = std::string(name()),
                                   .device = p.name + " " + p.architecture,
                                   .toolchain = std::string(name()) + " driver " + p.driver_version,
                                   .source_kind = "ptx",
                                   .name = what,
                                   .source = std::string(static_cast<const char*>(code.portable), code.portable_bytes)};
            auto binary = cache::program_cache::process().get_or_build<std::string>(
                key,
                [&] {
                    return cache::built_program{api_->compile_portable(code.portable, code.portable_bytes + 1, what), {}};
                },
                [](const cache::built_program& b) { return std::make_shared<const std::string>(b.payload); });
            m = api_->load_module(binary->data(), what);
        } else {
            m = api_->load_module(code.image, what);
        }
        loaded = modules_.emplace(std::pair{code.image_id, device}, module_handle(*api_, m)).first;
    }
    return loaded->second.get();
}

void* gpu_backend::global_address(std::uint32_t device, const void* code_record, const char* symbol) {
    check_device(device);
    const auto* code = static_cast<const device_code*>(code_record);
    if (!code || !code->image || !symbol)
        throw error(errc::invalid_argument, std::string(name()) + " backend: global_address needs an image and a symbol");
    const auto key = std::tuple(code->image_id, std::string(symbol), device);
    std::lock_guard lock(functions_mutex_);
    if (auto it = globals_.find(key); it != globals_.end()) return it->second;
    context_scope scope(*api_, devices_[device].context);
    const std::string what = "the device image holding '" + std::string(symbol) + "'";
    driver_module m = module_of(device, *code, what);
    std::size_t bytes = 0;
    void* variable = api_->module_global(m, symbol, &bytes, what);
    if (bytes != sizeof(void*))
        throw error(errc::invalid_argument, std::string(name()) + " backend: '" + symbol + "' holds " +
                                                std::to_string(bytes) + " bytes, not a pointer");
    void* address = nullptr;
    api_->read(&address, variable, sizeof address);
    globals_.emplace(key, address);
    return address;
}

driver_function gpu_backend::image_entry(std::uint32_t device, const kernel& k, const device_code& code,
                                         const char* entry) {
    if (!code.image || !entry)
        throw error(errc::invalid_argument, "kernel '" + k.name() + "': a second entry needs an image and a name");
    const auto key = std::tuple(static_cast<std::uintptr_t>(code.image_id), std::string(entry), device);
    std::lock_guard lock(functions_mutex_);
    if (auto it = functions_.find(key); it != functions_.end()) return it->second;
    context_scope scope(*api_, devices_[device].context);
    driver_function f = load_entry(device, k, code, entry);
    functions_.emplace(key, f);
    return f;
}

driver_function gpu_backend::fill_function(std::uint32_t device) {
    std::lock_guard lock(functions_mutex_);
    if (fill_functions_[device]) return fill_functions_[device];
    context_scope scope(*api_, devices_[device].context);
    fill_modules_[device].reset(api_->load_fill_module());
    fill_functions_[device] = api_->get_function(fill_modules_[device].get(), "encore_fill", "the fill kernel");
    return fill_functions_[device];
}

void gpu_backend::reach_peers(std::uint32_t device, const void* a, const void* b) {
    if (devices_.size() < 2) return;
    for (const void* p : {a, b}) {
        const auto found = allocations_.find(p);
        if (!found || found->kind == memory_kind::host || found->device == device) continue;
        const std::uint32_t peer = found->device;
        {
            std::lock_guard lock(peers_mutex_);
            if (!peers_tried_.emplace(device, peer).second) continue;
        }
        context_scope scope(*api_, devices_[device].context);
        const bool on = api_->enable_peer_access(device, peer, devices_[peer].context);
        trace("peer access from device " + std::to_string(device) + " to device " + std::to_string(peer) +
              (on ? ": on" : ": not possible, copies between them are staged by the driver"));
    }
}

gpu::driver_event gpu_backend::acquire_event(std::uint32_t device) {
    {
        std::lock_guard lock(functions_mutex_);
        auto& pool = devices_[device].free_events;
        if (!pool.empty()) {
            gpu::driver_event e = pool.back();
            pool.pop_back();
            return e;
        }
    }
    context_scope scope(*api_, devices_[device].context);
    return api_->create_event(false);
}

void gpu_backend::release_event(std::uint32_t device, gpu::driver_event e) noexcept {
    std::lock_guard lock(functions_mutex_);
    devices_[device].free_events.push_back(e);
}

void gpu_backend::trace(const std::string& line) const {
    if (trace_) std::fprintf(stderr, "encore: %s: %s\n", api_->name().data(), line.c_str());
}

} // namespace encore::gpu

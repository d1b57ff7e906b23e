// The test driver's entry points: the Level Zero calls the loader forwards to it (driver_tables.cpp lists
// them).
//
// Each one checks its handles and arguments the way the specification's "Returns" lists say (a null or
// foreign handle, a missing pointer, a closed list, an index out of range...) before doing anything, so a
// backend bug surfaces as the error code a real driver gives, not as a crash.
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include "driver_objects.hpp"

namespace encore_ze_driver {

namespace {

constexpr std::uint32_t max_group_size = 1024;
constexpr std::uint64_t device_memory_bytes = 8ull << 30;

void called() {
    count(&encore_ze_driver_counters::api_calls);
}

ze_result_t wait_list_error(std::uint32_t count, ze_event_handle_t* events, std::vector<event_object*>& out) {
    if (count && !events) return ZE_RESULT_ERROR_INVALID_SIZE;
    for (std::uint32_t i = 0; i < count; ++i) {
        auto* e = as<event_object>(events[i]);
        if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        out.push_back(e);
    }
    return ZE_RESULT_SUCCESS;
}

// Appends `c` to `list` (a regular list records it; an immediate list runs it on its thread).
ze_result_t append(ze_command_list_handle_t list, command c, ze_event_handle_t signal,
                   std::uint32_t wait_count, ze_event_handle_t* waits) {
    auto* l = as<command_list_object>(list);
    if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (l->closed) return ZE_RESULT_ERROR_INVALID_ARGUMENT; // appending to a closed list
    if (signal) {
        c.signal_event = as<event_object>(signal);
        if (!c.signal_event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    }
    if (auto r = wait_list_error(wait_count, waits, c.waits); r != ZE_RESULT_SUCCESS) return r;
    count(&encore_ze_driver_counters::appends);
    if (l->immediate)
        l->runner->post([c = std::move(c)] { run_command(c); });
    else
        l->commands.push_back(std::move(c));
    return ZE_RESULT_SUCCESS;
}

ze_result_t allocate(ze_context_handle_t context, std::size_t size, std::size_t alignment,
                     ze_memory_type_t kind, void** out) {
    called();
    auto* c = as<context_object>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    if (alignment & (alignment - 1)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    if (size > device_memory_bytes) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    alignment = std::max<std::size_t>(alignment, 64);
    const std::size_t rounded = (size + alignment - 1) / alignment * alignment;
    void* p = std::aligned_alloc(alignment, rounded);
    if (!p) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    std::lock_guard lock(c->mutex);
    c->allocations[reinterpret_cast<std::uintptr_t>(p)] = {size, kind};
    *out = p;
    return ZE_RESULT_SUCCESS;
}

ze_result_t host_wait(std::uint64_t timeout_ns, const std::function<bool()>& done) {
    auto& s = state();
    std::unique_lock lock(s.mutex);
    if (timeout_ns == UINT64_MAX) {
        s.changed.wait(lock, done);
        return ZE_RESULT_SUCCESS;
    }
    return s.changed.wait_for(lock, std::chrono::nanoseconds(timeout_ns), done) ? ZE_RESULT_SUCCESS
                                                                                : ZE_RESULT_NOT_READY;
}

} // namespace

// --- global, driver, device ---

ze_result_t ZE_APICALL init(ze_init_flags_t flags) {
    called();
    if (flags & ~(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY)) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (flags & ZE_INIT_FLAG_VPU_ONLY && !(flags & ZE_INIT_FLAG_GPU_ONLY))
        return ZE_RESULT_ERROR_UNINITIALIZED;
    std::lock_guard lock(state().mutex);
    state().initialized = true;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get(std::uint32_t* count, ze_driver_handle_t* drivers) {
    called();
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!state().initialized) return ZE_RESULT_ERROR_UNINITIALIZED;
    if (*count == 0 || !drivers) {
        *count = 1;
        return ZE_RESULT_SUCCESS;
    }
    drivers[0] = reinterpret_cast<ze_driver_handle_t>(&state().driver);
    *count = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_api_version(ze_driver_handle_t driver, ze_api_version_t* version) {
    called();
    if (!as<driver_object>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!version) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *version = ZE_API_VERSION_1_4;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_properties(ze_driver_handle_t driver, ze_driver_properties_t* properties) {
    called();
    if (!as<driver_object>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!properties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    std::memset(properties->uuid.id, 0, sizeof properties->uuid.id);
    std::memcpy(properties->uuid.id, "encore-ze-test", 14);
    properties->driverVersion = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_extension_properties(ze_driver_handle_t driver, std::uint32_t* count,
                                                       ze_driver_extension_properties_t*) {
    called();
    if (!as<driver_object>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *count = 0; // no extensions: in particular no mutable command lists
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get(ze_driver_handle_t driver, std::uint32_t* count,
                                  ze_device_handle_t* devices) {
    called();
    auto* d = as<driver_object>(driver);
    if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !devices) {
        *count = 1;
        return ZE_RESULT_SUCCESS;
    }
    devices[0] = reinterpret_cast<ze_device_handle_t>(&d->device);
    *count = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_sub_devices(ze_device_handle_t device, std::uint32_t* count,
                                              ze_device_handle_t*) {
    called();
    if (!as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *count = 0;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_properties(ze_device_handle_t device, ze_device_properties_t* p) {
    called();
    if (!as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    p->type = ZE_DEVICE_TYPE_GPU; // it stands in for a GPU driver; the work runs on host threads
    p->vendorId = 0x8086;
    p->deviceId = 0xe0e0;
    p->flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED;
    p->subdeviceId = 0;
    p->coreClockRate = 1000;
    p->maxMemAllocSize = device_memory_bytes;
    p->maxHardwareContexts = 64;
    p->maxCommandQueuePriority = 0;
    p->numThreadsPerEU = 1;
    p->physicalEUSimdWidth = 1;
    p->numEUsPerSubslice = 1;
    p->numSubslicesPerSlice = 1;
    p->numSlices = 1;
    // With the 1.0 structure type the resolution is in nanoseconds; with 1.2's it is ticks per second.
    p->timerResolution = p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 ? 1'000'000'000ull : 1ull;
    p->timestampValidBits = 64;
    p->kernelTimestampValidBits = 64;
    std::memset(p->uuid.id, 0, sizeof p->uuid.id);
    std::memcpy(p->uuid.id, "encore-ze-dev", 13);
    std::snprintf(p->name, sizeof p->name, "Encore Level Zero test driver (host threads)");
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_compute_properties(ze_device_handle_t device,
                                                     ze_device_compute_properties_t* p) {
    called();
    if (!as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    p->maxTotalGroupSize = max_group_size;
    p->maxGroupSizeX = p->maxGroupSizeY = p->maxGroupSizeZ = max_group_size;
    p->maxGroupCountX = p->maxGroupCountY = p->maxGroupCountZ = UINT32_MAX;
    p->maxSharedLocalMemory = 64 * 1024;
    p->numSubGroupSizes = 1;
    p->subGroupSizes[0] = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_module_properties(ze_device_handle_t device,
                                                    ze_device_module_properties_t* p) {
    called();
    if (!as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    p->spirvVersionSupported = 0; // no SPIR-V compiler
    p->flags = 0;
    p->fp16flags = p->fp32flags = p->fp64flags = 0;
    p->maxArgumentsSize = 2048;
    p->printfBufferSize = 0;
    std::memset(p->nativeKernelSupported.id, 0, sizeof p->nativeKernelSupported.id);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_command_queue_group_properties(ze_device_handle_t device,
                                                                 std::uint32_t* count,
                                                                 ze_command_queue_group_properties_t* p) {
    called();
    if (!as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !p) {
        *count = 1;
        return ZE_RESULT_SUCCESS;
    }
    *count = 1;
    p[0].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
    p[0].maxMemoryFillPatternSize = 256;
    p[0].numQueues = 64;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_memory_properties(ze_device_handle_t device, std::uint32_t* count,
                                                    ze_device_memory_properties_t* p) {
    called();
    if (!as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !p) {
        *count = 1;
        return ZE_RESULT_SUCCESS;
    }
    *count = 1;
    p[0].flags = 0;
    p[0].maxClockRate = 0;
    p[0].maxBusWidth = 64;
    p[0].totalSize = device_memory_bytes;
    std::snprintf(p[0].name, sizeof p[0].name, "host memory");
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_global_timestamps(ze_device_handle_t device, std::uint64_t* host,
                                                    std::uint64_t* device_time) {
    called();
    if (!as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!host || !device_time) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *host = *device_time = now_ns(); // one clock: the device is the host
    return ZE_RESULT_SUCCESS;
}

// --- context and memory ---

ze_result_t ZE_APICALL context_create(ze_driver_handle_t driver, const ze_context_desc_t* desc,
                                      ze_context_handle_t* out) {
    called();
    if (!as<driver_object>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *out = reinterpret_cast<ze_context_handle_t>(new context_object());
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_destroy(ze_context_handle_t context) {
    called();
    auto* c = as<context_object>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    for (auto& [address, info] : c->allocations)
        std::free(reinterpret_cast<void*>(address));
    delete c;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_get_status(ze_context_handle_t context) {
    called();
    return as<context_object>(context) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

ze_result_t ZE_APICALL mem_alloc_device(ze_context_handle_t context, const ze_device_mem_alloc_desc_t* desc,
                                        std::size_t size, std::size_t alignment, ze_device_handle_t device,
                                        void** out) {
    if (!as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return allocate(context, size, alignment, ZE_MEMORY_TYPE_DEVICE, out);
}

ze_result_t ZE_APICALL mem_alloc_host(ze_context_handle_t context, const ze_host_mem_alloc_desc_t* desc,
                                      std::size_t size, std::size_t alignment, void** out) {
    if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return allocate(context, size, alignment, ZE_MEMORY_TYPE_HOST, out);
}

ze_result_t ZE_APICALL mem_alloc_shared(ze_context_handle_t context,
                                        const ze_device_mem_alloc_desc_t* device_desc,
                                        const ze_host_mem_alloc_desc_t* host_desc, std::size_t size,
                                        std::size_t alignment, ze_device_handle_t device, void** out) {
    if (device && !as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!device_desc || !host_desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return allocate(context, size, alignment, ZE_MEMORY_TYPE_SHARED, out);
}

ze_result_t ZE_APICALL mem_free(ze_context_handle_t context, void* p) {
    called();
    auto* c = as<context_object>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    std::lock_guard lock(c->mutex);
    auto it = c->allocations.find(reinterpret_cast<std::uintptr_t>(p));
    if (it == c->allocations.end()) return ZE_RESULT_ERROR_INVALID_ARGUMENT; // not an allocation's start
    c->allocations.erase(it);
    std::free(p);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_get_alloc_properties(ze_context_handle_t context, const void* p,
                                                ze_memory_allocation_properties_t* properties,
                                                ze_device_handle_t* device) {
    called();
    auto* c = as<context_object>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p || !properties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    std::lock_guard lock(c->mutex);
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    auto it = c->allocations.upper_bound(address);
    properties->type = ZE_MEMORY_TYPE_UNKNOWN;
    properties->id = 0;
    properties->pageSize = 4096;
    if (device) *device = nullptr;
    if (it != c->allocations.begin()) {
        --it;
        if (address < it->first + it->second.first) {
            properties->type = it->second.second;
            properties->id = it->first;
            if (device) *device = reinterpret_cast<ze_device_handle_t>(&state().driver.device);
        }
    }
    return ZE_RESULT_SUCCESS;
}

// --- command queues ---

ze_result_t ZE_APICALL command_queue_create(ze_context_handle_t context, ze_device_handle_t device,
                                            const ze_command_queue_desc_t* desc,
                                            ze_command_queue_handle_t* out) {
    called();
    auto* c = as<context_object>(context);
    if (!c || !as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->ordinal != 0 || desc->index >= 64) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    auto* q = new command_queue_object();
    q->context = c;
    q->runner = std::make_unique<worker>();
    *out = reinterpret_cast<ze_command_queue_handle_t>(q);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_queue_destroy(ze_command_queue_handle_t queue) {
    called();
    auto* q = as<command_queue_object>(queue);
    if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    delete q; // the worker finishes what it holds first
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_queue_execute(ze_command_queue_handle_t queue, std::uint32_t count,
                                             ze_command_list_handle_t* lists, ze_fence_handle_t fence) {
    called();
    auto* q = as<command_queue_object>(queue);
    if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!lists) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    fence_object* f = nullptr;
    if (fence && !(f = as<fence_object>(fence))) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (f && f->queue != q) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    std::vector<command_list_object*> batch;
    for (std::uint32_t i = 0; i < count; ++i) {
        auto* l = as<command_list_object>(lists[i]);
        if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        if (l->immediate) return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
        if (!l->closed) return ZE_RESULT_ERROR_INVALID_ARGUMENT; // only closed lists execute
        batch.push_back(l);
    }
    for (auto* l : batch)
        l->in_flight.fetch_add(1);
    encore_ze_driver::count(&encore_ze_driver_counters::executes);
    encore_ze_driver::count(&encore_ze_driver_counters::lists_executed, count);
    // The lists run one after the other, in the order given, each command after the one before it.
    q->runner->post([batch = std::move(batch), f] {
        for (auto* l : batch) {
            for (const command& c : l->commands)
                run_command(c);
            l->in_flight.fetch_sub(1);
        }
        if (f) {
            auto& s = state();
            {
                std::lock_guard lock(s.mutex);
                f->signaled = true;
            }
            s.changed.notify_all();
        }
    });
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_queue_synchronize(ze_command_queue_handle_t queue, std::uint64_t timeout) {
    called();
    auto* q = as<command_queue_object>(queue);
    if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return q->runner->drain(timeout) ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

// --- command lists ---

ze_result_t ZE_APICALL command_list_create(ze_context_handle_t context, ze_device_handle_t device,
                                           const ze_command_list_desc_t* desc,
                                           ze_command_list_handle_t* out) {
    called();
    auto* c = as<context_object>(context);
    if (!c || !as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->commandQueueGroupOrdinal != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    auto* l = new command_list_object();
    l->context = c;
    count(&encore_ze_driver_counters::command_lists);
    *out = reinterpret_cast<ze_command_list_handle_t>(l);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_list_create_immediate(ze_context_handle_t context, ze_device_handle_t device,
                                                     const ze_command_queue_desc_t* desc,
                                                     ze_command_list_handle_t* out) {
    called();
    auto* c = as<context_object>(context);
    if (!c || !as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->ordinal != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    auto* l = new command_list_object();
    l->context = c;
    l->immediate = true;
    l->runner = std::make_unique<worker>();
    count(&encore_ze_driver_counters::immediate_lists);
    *out = reinterpret_cast<ze_command_list_handle_t>(l);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_list_destroy(ze_command_list_handle_t list) {
    called();
    auto* l = as<command_list_object>(list);
    if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (l->in_flight.load() != 0) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    delete l; // an immediate list's worker finishes what it holds first
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_list_close(ze_command_list_handle_t list) {
    called();
    auto* l = as<command_list_object>(list);
    if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (l->immediate) return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
    l->closed = true;
    count(&encore_ze_driver_counters::list_closes);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_list_reset(ze_command_list_handle_t list) {
    called();
    auto* l = as<command_list_object>(list);
    if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (l->in_flight.load() != 0) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    if (l->immediate) {
        l->runner->drain(UINT64_MAX);
    } else {
        l->commands.clear();
        l->closed = false;
    }
    count(&encore_ze_driver_counters::list_resets);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL append_barrier(ze_command_list_handle_t list, ze_event_handle_t signal,
                                      std::uint32_t wait_count, ze_event_handle_t* waits) {
    called();
    command c;
    c.type = command::kind::barrier; // lists run in order here, so a barrier is its waits and its signal
    return append(list, std::move(c), signal, wait_count, waits);
}

ze_result_t ZE_APICALL append_memory_ranges_barrier(ze_command_list_handle_t list, std::uint32_t,
                                                    const std::size_t*, const void**,
                                                    ze_event_handle_t signal, std::uint32_t wait_count,
                                                    ze_event_handle_t* waits) {
    called();
    command c;
    c.type = command::kind::barrier;
    return append(list, std::move(c), signal, wait_count, waits);
}

ze_result_t ZE_APICALL append_memory_copy(ze_command_list_handle_t list, void* destination,
                                          const void* source, std::size_t size, ze_event_handle_t signal,
                                          std::uint32_t wait_count, ze_event_handle_t* waits) {
    called();
    if (!destination || !source) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const auto d = reinterpret_cast<std::uintptr_t>(destination),
               s = reinterpret_cast<std::uintptr_t>(source);
    if (size && d < s + size && s < d + size) return ZE_RESULT_ERROR_OVERLAPPING_REGIONS;
    command c;
    c.type = command::kind::copy;
    c.destination = destination;
    c.source = source;
    c.bytes = size;
    return append(list, std::move(c), signal, wait_count, waits);
}

ze_result_t ZE_APICALL append_memory_fill(ze_command_list_handle_t list, void* destination,
                                          const void* pattern, std::size_t pattern_size, std::size_t size,
                                          ze_event_handle_t signal, std::uint32_t wait_count,
                                          ze_event_handle_t* waits) {
    called();
    if (!destination || !pattern) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // The pattern is a power of two of at most the queue group's maxMemoryFillPatternSize.
    if (pattern_size == 0 || pattern_size > 256 || (pattern_size & (pattern_size - 1)))
        return ZE_RESULT_ERROR_INVALID_SIZE;
    if (size % pattern_size) return ZE_RESULT_ERROR_INVALID_SIZE;
    command c;
    c.type = command::kind::fill;
    c.destination = destination;
    c.bytes = size;
    c.pattern.assign(static_cast<const unsigned char*>(pattern),
                     static_cast<const unsigned char*>(pattern) + pattern_size);
    return append(list, std::move(c), signal, wait_count, waits);
}

ze_result_t ZE_APICALL append_memory_prefetch(ze_command_list_handle_t list, const void* p, std::size_t) {
    called();
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    command c; // host memory is where it is already
    return append(list, std::move(c), nullptr, 0, nullptr);
}

ze_result_t ZE_APICALL append_mem_advise(ze_command_list_handle_t list, ze_device_handle_t device,
                                         const void* p, std::size_t, ze_memory_advice_t advice) {
    called();
    if (!as<device_object>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (advice > ZE_MEMORY_ADVICE_BIAS_UNCACHED) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    command c;
    return append(list, std::move(c), nullptr, 0, nullptr);
}

ze_result_t ZE_APICALL append_signal_event(ze_command_list_handle_t list, ze_event_handle_t event) {
    called();
    if (!as<event_object>(event)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    command c;
    c.type = command::kind::signal;
    return append(list, std::move(c), event, 0, nullptr);
}

ze_result_t ZE_APICALL append_wait_on_events(ze_command_list_handle_t list, std::uint32_t count,
                                             ze_event_handle_t* events) {
    called();
    if (!events) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    command c;
    c.type = command::kind::wait;
    return append(list, std::move(c), nullptr, count, events);
}

ze_result_t ZE_APICALL append_event_reset(ze_command_list_handle_t list, ze_event_handle_t event) {
    called();
    auto* e = as<event_object>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    command c;
    c.type = command::kind::reset;
    c.events.push_back(e);
    return append(list, std::move(c), nullptr, 0, nullptr);
}

ze_result_t ZE_APICALL append_query_kernel_timestamps(ze_command_list_handle_t list, std::uint32_t count,
                                                      ze_event_handle_t* events, void* destination,
                                                      const std::size_t* offsets, ze_event_handle_t signal,
                                                      std::uint32_t wait_count, ze_event_handle_t* waits) {
    called();
    if (!events || !destination) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (offsets) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE; // results are written packed only
    command c;
    c.type = command::kind::timestamps;
    c.destination = destination;
    for (std::uint32_t i = 0; i < count; ++i) {
        auto* e = as<event_object>(events[i]);
        if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        if (!(e->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
        c.events.push_back(e);
    }
    return append(list, std::move(c), signal, wait_count, waits);
}

ze_result_t ZE_APICALL append_launch_kernel(ze_command_list_handle_t list, ze_kernel_handle_t kernel,
                                            const ze_group_count_t* groups, ze_event_handle_t signal,
                                            std::uint32_t wait_count, ze_event_handle_t* waits) {
    called();
    auto* k = as<kernel_object>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!groups) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    for (bool set : k->set)
        if (!set) return ZE_RESULT_ERROR_INVALID_ARGUMENT; // every argument must have a value
    command c;
    c.type = command::kind::launch;
    c.entry = k->info->entry;
    c.arguments = k->arguments;
    c.local_sizes = k->local_sizes;
    c.group_size = k->group_size;
    c.group_count = {groups->groupCountX, groups->groupCountY, groups->groupCountZ};
    return append(list, std::move(c), signal, wait_count, waits);
}

// --- fences ---

ze_result_t ZE_APICALL fence_create(ze_command_queue_handle_t queue, const ze_fence_desc_t* desc,
                                    ze_fence_handle_t* out) {
    called();
    auto* q = as<command_queue_object>(queue);
    if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    auto* f = new fence_object();
    f->queue = q;
    f->signaled = desc->flags & ZE_FENCE_FLAG_SIGNALED;
    *out = reinterpret_cast<ze_fence_handle_t>(f);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fence_destroy(ze_fence_handle_t fence) {
    called();
    auto* f = as<fence_object>(fence);
    if (!f) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    delete f;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fence_host_synchronize(ze_fence_handle_t fence, std::uint64_t timeout) {
    called();
    auto* f = as<fence_object>(fence);
    if (!f) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return host_wait(timeout, [f] { return f->signaled; });
}

ze_result_t ZE_APICALL fence_query_status(ze_fence_handle_t fence) {
    called();
    auto* f = as<fence_object>(fence);
    if (!f) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    std::lock_guard lock(state().mutex);
    return f->signaled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL fence_reset(ze_fence_handle_t fence) {
    called();
    auto* f = as<fence_object>(fence);
    if (!f) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    std::lock_guard lock(state().mutex);
    f->signaled = false;
    return ZE_RESULT_SUCCESS;
}

// --- events ---

ze_result_t ZE_APICALL event_pool_create(ze_context_handle_t context, const ze_event_pool_desc_t* desc,
                                         std::uint32_t, ze_device_handle_t*, ze_event_pool_handle_t* out) {
    called();
    auto* c = as<context_object>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    auto* p = new event_pool_object();
    p->context = c;
    p->flags = desc->flags;
    p->slots.assign(desc->count, nullptr);
    count(&encore_ze_driver_counters::event_pools);
    *out = reinterpret_cast<ze_event_pool_handle_t>(p);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_pool_destroy(ze_event_pool_handle_t pool) {
    called();
    auto* p = as<event_pool_object>(pool);
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    for (event_object* e : p->slots)
        if (e) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE; // its events must be destroyed first
    delete p;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_create(ze_event_pool_handle_t pool, const ze_event_desc_t* desc,
                                    ze_event_handle_t* out) {
    called();
    auto* p = as<event_pool_object>(pool);
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    std::lock_guard lock(state().mutex);
    if (desc->index >= p->slots.size() || p->slots[desc->index]) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    auto* e = new event_object();
    e->pool = p;
    e->index = desc->index;
    p->slots[desc->index] = e;
    count(&encore_ze_driver_counters::events);
    *out = reinterpret_cast<ze_event_handle_t>(e);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_destroy(ze_event_handle_t event) {
    called();
    auto* e = as<event_object>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    std::lock_guard lock(state().mutex);
    e->pool->slots[e->index] = nullptr;
    delete e;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_host_signal(ze_event_handle_t event) {
    called();
    auto* e = as<event_object>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    count(&encore_ze_driver_counters::host_signals);
    const std::uint64_t t = now_ns();
    signal_event(e, t, t);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_host_synchronize(ze_event_handle_t event, std::uint64_t timeout) {
    called();
    auto* e = as<event_object>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return host_wait(timeout, [e] { return e->signaled; });
}

ze_result_t ZE_APICALL event_query_status(ze_event_handle_t event) {
    called();
    auto* e = as<event_object>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    std::lock_guard lock(state().mutex);
    return e->signaled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL event_host_reset(ze_event_handle_t event) {
    called();
    auto* e = as<event_object>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    std::lock_guard lock(state().mutex);
    e->signaled = false;
    e->start_ns = e->end_ns = 0;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_query_kernel_timestamp(ze_event_handle_t event,
                                                    ze_kernel_timestamp_result_t* out) {
    called();
    auto* e = as<event_object>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!(e->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    std::lock_guard lock(state().mutex);
    if (!e->signaled) return ZE_RESULT_NOT_READY;
    out->global.kernelStart = out->context.kernelStart = e->start_ns;
    out->global.kernelEnd = out->context.kernelEnd = e->end_ns;
    return ZE_RESULT_SUCCESS;
}

// --- modules and kernels ---

namespace {

ze_result_t fail_build(ze_module_build_log_handle_t* log, std::string text, ze_result_t result) {
    if (log) {
        auto* l = new build_log_object();
        l->text = std::move(text);
        *log = reinterpret_cast<ze_module_build_log_handle_t>(l);
    }
    return result;
}

} // namespace

ze_result_t ZE_APICALL module_create(ze_context_handle_t context, ze_device_handle_t device,
                                     const ze_module_desc_t* desc, ze_module_handle_t* out,
                                     ze_module_build_log_handle_t* log) {
    called();
    if (!as<context_object>(context) || !as<device_object>(device))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out || !desc->pInputModule) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->inputSize == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    if (desc->format == ZE_MODULE_FORMAT_IL_SPIRV) {
        std::uint32_t magic = 0;
        if (desc->inputSize >= 4) std::memcpy(&magic, desc->pInputModule, 4);
        if (magic != 0x07230203u)
            return fail_build(log,
                              "error: the input is not a SPIR-V module (its first word is not 0x07230203)",
                              ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
        return fail_build(
            log,
            "error: the Encore Level Zero test driver runs kernels as host code and has no SPIR-V "
            "compiler; build a native binary (tests/level_zero/driver/kernel_abi.h)",
            ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    }
    if (desc->format != ZE_MODULE_FORMAT_NATIVE) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (desc->inputSize < 4 || std::memcmp(desc->pInputModule,
                                           "\x7f"
                                           "ELF",
                                           4) != 0)
        return fail_build(log, "error: a native binary for this driver is a host shared object (ELF)",
                          ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    auto m = std::make_unique<module_object>();
    m->binary.assign(desc->pInputModule, desc->pInputModule + desc->inputSize);
    m->memfd = memfd_create("encore-ze-module", MFD_CLOEXEC);
    if (m->memfd < 0 ||
        write(m->memfd, m->binary.data(), m->binary.size()) != static_cast<ssize_t>(m->binary.size()))
        return fail_build(log, "error: could not stage the module in memory",
                          ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    const std::string path = "/proc/self/fd/" + std::to_string(m->memfd);
    m->library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!m->library) {
        const char* why = dlerror();
        return fail_build(log, std::string("error: the native binary does not load: ") + (why ? why : "?"),
                          ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    }
    m->table = static_cast<const encore_ze_kernel_table*>(dlsym(m->library, ENCORE_ZE_KERNEL_TABLE_SYMBOL));
    if (!m->table || m->table->abi_version != ENCORE_ZE_KERNEL_ABI_VERSION)
        return fail_build(log,
                          std::string("error: the native binary exports no ") +
                              ENCORE_ZE_KERNEL_TABLE_SYMBOL + " table of ABI version " +
                              std::to_string(ENCORE_ZE_KERNEL_ABI_VERSION),
                          ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    if (log) *log = reinterpret_cast<ze_module_build_log_handle_t>(new build_log_object());
    *out = reinterpret_cast<ze_module_handle_t>(m.release());
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_destroy(ze_module_handle_t module) {
    called();
    auto* m = as<module_object>(module);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    delete m;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_get_native_binary(ze_module_handle_t module, std::size_t* size,
                                                std::uint8_t* out) {
    called();
    auto* m = as<module_object>(module);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (out) {
        if (*size < m->binary.size()) return ZE_RESULT_ERROR_INVALID_SIZE;
        std::memcpy(out, m->binary.data(), m->binary.size());
    }
    *size = m->binary.size();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_get_kernel_names(ze_module_handle_t module, std::uint32_t* count,
                                               const char** names) {
    called();
    auto* m = as<module_object>(module);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !names) {
        *count = m->table->kernel_count;
        return ZE_RESULT_SUCCESS;
    }
    const std::uint32_t n = std::min(*count, m->table->kernel_count);
    for (std::uint32_t i = 0; i < n; ++i)
        names[i] = m->table->kernels[i].name;
    *count = n;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL build_log_destroy(ze_module_build_log_handle_t log) {
    called();
    auto* l = as<build_log_object>(log);
    if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    delete l;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL build_log_get_string(ze_module_build_log_handle_t log, std::size_t* size, char* out) {
    called();
    auto* l = as<build_log_object>(log);
    if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (out) {
        if (*size < l->text.size() + 1) return ZE_RESULT_ERROR_INVALID_SIZE;
        std::memcpy(out, l->text.c_str(), l->text.size() + 1);
    }
    *size = l->text.size() + 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_create(ze_module_handle_t module, const ze_kernel_desc_t* desc,
                                     ze_kernel_handle_t* out) {
    called();
    auto* m = as<module_object>(module);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !out || !desc->pKernelName) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    for (std::uint32_t i = 0; i < m->table->kernel_count; ++i) {
        const encore_ze_kernel_info& info = m->table->kernels[i];
        if (std::strcmp(info.name, desc->pKernelName) != 0) continue;
        auto* k = new kernel_object();
        k->module = m;
        k->info = &info;
        k->arguments.resize(info.argument_count);
        k->local_sizes.assign(info.argument_count, 0);
        k->set.assign(info.argument_count, false);
        *out = reinterpret_cast<ze_kernel_handle_t>(k);
        return ZE_RESULT_SUCCESS;
    }
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
}

ze_result_t ZE_APICALL kernel_destroy(ze_kernel_handle_t kernel) {
    called();
    auto* k = as<kernel_object>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    delete k;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_set_group_size(ze_kernel_handle_t kernel, std::uint32_t x, std::uint32_t y,
                                             std::uint32_t z) {
    called();
    auto* k = as<kernel_object>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (x == 0 || y == 0 || z == 0 || std::uint64_t(x) * y * z > max_group_size)
        return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    k->group_size = {x, y, z};
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_suggest_group_size(ze_kernel_handle_t kernel, std::uint32_t x, std::uint32_t y,
                                                 std::uint32_t z, std::uint32_t* gx, std::uint32_t* gy,
                                                 std::uint32_t* gz) {
    called();
    if (!as<kernel_object>(kernel)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!gx || !gy || !gz) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (x == 0 || y == 0 || z == 0) return ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION;
    // The largest divisors of the global sizes within 256 work-items in all: groups that tile the range
    // exactly.
    auto divisor = [](std::uint32_t global, std::uint32_t limit) {
        for (std::uint32_t d = std::min(global, std::max(limit, 1u)); d > 1; --d)
            if (global % d == 0) return d;
        return 1u;
    };
    *gx = divisor(x, 256);
    *gy = divisor(y, 256 / *gx);
    *gz = divisor(z, 256 / (*gx * *gy));
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_set_argument_value(ze_kernel_handle_t kernel, std::uint32_t index,
                                                 std::size_t size, const void* value) {
    called();
    auto* k = as<kernel_object>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (index >= k->info->argument_count) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
    const std::uint32_t expected = k->info->argument_sizes[index];
    if (!value) { // local memory of `size` bytes per group
        if (expected != 0 || size == 0) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        k->arguments[index].clear();
        k->local_sizes[index] = size;
    } else {
        if (expected != 0 && size != expected) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        const auto* bytes = static_cast<const unsigned char*>(value);
        k->arguments[index].assign(bytes, bytes + size);
        k->local_sizes[index] = 0;
    }
    k->set[index] = true;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_get_properties(ze_kernel_handle_t kernel, ze_kernel_properties_t* p) {
    called();
    auto* k = as<kernel_object>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    p->numKernelArgs = k->info->argument_count;
    p->requiredGroupSizeX = p->requiredGroupSizeY = p->requiredGroupSizeZ = 0;
    p->requiredNumSubGroups = p->requiredSubgroupSize = 0;
    p->maxSubgroupSize = p->maxNumSubgroups = 1;
    p->localMemSize = p->privateMemSize = p->spillMemSize = 0;
    std::memset(&p->uuid, 0, sizeof p->uuid);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_get_name(ze_kernel_handle_t kernel, std::size_t* size, char* name) {
    called();
    auto* k = as<kernel_object>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const std::size_t n = std::strlen(k->info->name) + 1;
    if (name) {
        if (*size < n) return ZE_RESULT_ERROR_INVALID_SIZE;
        std::memcpy(name, k->info->name, n);
    }
    *size = n;
    return ZE_RESULT_SUCCESS;
}

} // namespace encore_ze_driver

extern "C" __attribute__((visibility("default"))) void
encore_ze_test_driver_counters(encore_ze_driver_counters* out) {
    auto& s = encore_ze_driver::state();
    std::lock_guard lock(s.counters_mutex);
    if (out) *out = s.counters;
}

// --- the tables the loader asks for (ze_ddi.h, zet_ddi.h, zes_ddi.h) ---
//
// The loader (and the validation layer in front of it) calls each zeGet*ProcAddrTable the driver exports and
// routes every API call through the table it got back. Entries left null answer
// ZE_RESULT_ERROR_UNSUPPORTED_FEATURE / UNINITIALIZED in the loader. The loader 1.8 also asks for the tools
// (zet) and sysman (zes) tables: they are exported empty, which it accepts.

namespace {

ze_result_t check_version(ze_api_version_t version, const void* table) {
    if (!table) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT) ||
        ZE_MINOR_VERSION(version) > ZE_MINOR_VERSION(ZE_API_VERSION_CURRENT))
        return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
    return ZE_RESULT_SUCCESS;
}

} // namespace

#define ENCORE_ZE_EXPORT_C extern "C" __attribute__((visibility("default")))

using namespace encore_ze_driver;

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetGlobalProcAddrTable(ze_api_version_t v,
                                                                   ze_global_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnInit = init;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetDriverProcAddrTable(ze_api_version_t v,
                                                                   ze_driver_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnGet = driver_get;
    t->pfnGetApiVersion = driver_get_api_version;
    t->pfnGetProperties = driver_get_properties;
    t->pfnGetExtensionProperties = driver_get_extension_properties;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(ze_api_version_t v,
                                                                   ze_device_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnGet = device_get;
    t->pfnGetSubDevices = device_get_sub_devices;
    t->pfnGetProperties = device_get_properties;
    t->pfnGetComputeProperties = device_get_compute_properties;
    t->pfnGetModuleProperties = device_get_module_properties;
    t->pfnGetCommandQueueGroupProperties = device_get_command_queue_group_properties;
    t->pfnGetMemoryProperties = device_get_memory_properties;
    t->pfnGetGlobalTimestamps = device_get_global_timestamps;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetContextProcAddrTable(ze_api_version_t v,
                                                                    ze_context_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = context_create;
    t->pfnDestroy = context_destroy;
    t->pfnGetStatus = context_get_status;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetCommandQueueProcAddrTable(ze_api_version_t v,
                                                                         ze_command_queue_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = command_queue_create;
    t->pfnDestroy = command_queue_destroy;
    t->pfnExecuteCommandLists = command_queue_execute;
    t->pfnSynchronize = command_queue_synchronize;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetCommandListProcAddrTable(ze_api_version_t v,
                                                                        ze_command_list_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = command_list_create;
    t->pfnCreateImmediate = command_list_create_immediate;
    t->pfnDestroy = command_list_destroy;
    t->pfnClose = command_list_close;
    t->pfnReset = command_list_reset;
    t->pfnAppendBarrier = append_barrier;
    t->pfnAppendMemoryRangesBarrier = append_memory_ranges_barrier;
    t->pfnAppendMemoryCopy = append_memory_copy;
    t->pfnAppendMemoryFill = append_memory_fill;
    t->pfnAppendMemoryPrefetch = append_memory_prefetch;
    t->pfnAppendMemAdvise = append_mem_advise;
    t->pfnAppendSignalEvent = append_signal_event;
    t->pfnAppendWaitOnEvents = append_wait_on_events;
    t->pfnAppendEventReset = append_event_reset;
    t->pfnAppendQueryKernelTimestamps = append_query_kernel_timestamps;
    t->pfnAppendLaunchKernel = append_launch_kernel;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetFenceProcAddrTable(ze_api_version_t v,
                                                                  ze_fence_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = fence_create;
    t->pfnDestroy = fence_destroy;
    t->pfnHostSynchronize = fence_host_synchronize;
    t->pfnQueryStatus = fence_query_status;
    t->pfnReset = fence_reset;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetEventPoolProcAddrTable(ze_api_version_t v,
                                                                      ze_event_pool_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = event_pool_create;
    t->pfnDestroy = event_pool_destroy;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetEventProcAddrTable(ze_api_version_t v,
                                                                  ze_event_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = event_create;
    t->pfnDestroy = event_destroy;
    t->pfnHostSignal = event_host_signal;
    t->pfnHostSynchronize = event_host_synchronize;
    t->pfnQueryStatus = event_query_status;
    t->pfnHostReset = event_host_reset;
    t->pfnQueryKernelTimestamp = event_query_kernel_timestamp;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetModuleProcAddrTable(ze_api_version_t v,
                                                                   ze_module_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = module_create;
    t->pfnDestroy = module_destroy;
    t->pfnGetNativeBinary = module_get_native_binary;
    t->pfnGetKernelNames = module_get_kernel_names;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL
zeGetModuleBuildLogProcAddrTable(ze_api_version_t v, ze_module_build_log_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnDestroy = build_log_destroy;
    t->pfnGetString = build_log_get_string;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetKernelProcAddrTable(ze_api_version_t v,
                                                                   ze_kernel_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = kernel_create;
    t->pfnDestroy = kernel_destroy;
    t->pfnSetGroupSize = kernel_set_group_size;
    t->pfnSuggestGroupSize = kernel_suggest_group_size;
    t->pfnSetArgumentValue = kernel_set_argument_value;
    t->pfnGetProperties = kernel_get_properties;
    t->pfnGetName = kernel_get_name;
    return ZE_RESULT_SUCCESS;
}

ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL zeGetMemProcAddrTable(ze_api_version_t v, ze_mem_dditable_t* t) {
    if (auto r = check_version(v, t); r != ZE_RESULT_SUCCESS) return r;
    t->pfnAllocShared = mem_alloc_shared;
    t->pfnAllocDevice = mem_alloc_device;
    t->pfnAllocHost = mem_alloc_host;
    t->pfnFree = mem_free;
    t->pfnGetAllocProperties = mem_get_alloc_properties;
    return ZE_RESULT_SUCCESS;
}

// Tables of what this driver does not offer (images, samplers, virtual memory, fabric, experimental calls):
// exported so that the loader accepts the driver, left empty.
#define ENCORE_ZE_EMPTY_TABLE(function, table)                                                               \
    ENCORE_ZE_EXPORT_C ze_result_t ZE_APICALL function(ze_api_version_t v, table* t) {                       \
        return check_version(v, t);                                                                          \
    }
ENCORE_ZE_EMPTY_TABLE(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zeGetImageProcAddrTable, ze_image_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zeGetKernelExpProcAddrTable, ze_kernel_exp_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zeGetSamplerProcAddrTable, ze_sampler_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zeGetPhysicalMemProcAddrTable, ze_physical_mem_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zeGetVirtualMemProcAddrTable, ze_virtual_mem_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zeGetFabricVertexExpProcAddrTable, ze_fabric_vertex_exp_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zeGetFabricEdgeExpProcAddrTable, ze_fabric_edge_exp_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetDeviceProcAddrTable, zet_device_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetContextProcAddrTable, zet_context_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetCommandListProcAddrTable, zet_command_list_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetModuleProcAddrTable, zet_module_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetKernelProcAddrTable, zet_kernel_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetMetricGroupExpProcAddrTable, zet_metric_group_exp_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetMetricProcAddrTable, zet_metric_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetMetricStreamerProcAddrTable, zet_metric_streamer_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetMetricQueryPoolProcAddrTable, zet_metric_query_pool_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zetGetDebugProcAddrTable, zet_debug_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetDriverProcAddrTable, zes_driver_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetDeviceProcAddrTable, zes_device_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetPerformanceFactorProcAddrTable, zes_performance_factor_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetPowerProcAddrTable, zes_power_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetEngineProcAddrTable, zes_engine_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetStandbyProcAddrTable, zes_standby_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetMemoryProcAddrTable, zes_memory_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetPsuProcAddrTable, zes_psu_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetFanProcAddrTable, zes_fan_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetLedProcAddrTable, zes_led_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetRasProcAddrTable, zes_ras_dditable_t)
ENCORE_ZE_EMPTY_TABLE(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t)

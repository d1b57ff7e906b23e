#include "native_backend.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include <oneapi/tbb/info.h>
#include <oneapi/tbb/version.h>

#include "encore/backends/native/native_queue.hpp"
#include "encore/backends/native/task_list.hpp"
#include "encore/graph/error.hpp"

namespace encore::native {

namespace {

// "model name" and "vendor_id" from /proc/cpuinfo, with plain fallbacks elsewhere.
std::string cpuinfo_field(const std::string& key, std::string fallback) {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
        if (line.rfind(key, 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
        }
    return fallback;
}

device_properties cpu_properties() {
    device_properties p;
    p.name = cpuinfo_field("model name", "host CPU");
    p.vendor = cpuinfo_field("vendor_id", "unknown vendor");
    p.driver_version = "Encore native (oneTBB " + std::to_string(TBB_VERSION_MAJOR) + "." +
                       std::to_string(TBB_VERSION_MINOR) + ")";
    p.type = device_type::cpu;
    p.compute_units = static_cast<std::uint32_t>(tbb::info::default_concurrency());
    p.global_memory_bytes = static_cast<std::size_t>(::sysconf(_SC_PHYS_PAGES)) *
                            static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    p.local_memory_bytes = std::size_t(1)
                           << 20; // heap memory per group: any size works, this is what we promise
    p.max_work_group_size = 4096; // each item may need a fiber stack (work_group.hpp)
    p.allocation_alignment = 64;
    p.profiling = true;
    p.native_graphs = true;
    p.host_kernels = true;
    p.graph_lowering = "native task list";
    p.sub_group_sizes = {static_cast<std::uint32_t>(sub_group_width)}; // work_group.hpp
    return p;
}

// More than 4 hardware threads, unless ENCORE_NATIVE_LAUNCH_STARTER=on|off says (tests force it on; other values
// leave the default, as ENCORE_NATIVE_SCHEDULE does).
bool wants_launch_starter() {
    if (const char* forced = std::getenv("ENCORE_NATIVE_LAUNCH_STARTER")) {
        if (std::strcmp(forced, "on") == 0) return true;
        if (std::strcmp(forced, "off") == 0) return false;
    }
    return tbb::info::default_concurrency() > 4;
}

} // namespace

native_backend::native_backend()
    : properties_(cpu_properties()),
      parallelism_(tbb::global_control::max_allowed_parallelism, tbb::info::default_concurrency() + 1),
      arena_(tbb::info::default_concurrency() + 1, 1),
      launch_starter_(wants_launch_starter() ? std::make_unique<detail::launch_starter>() : nullptr) {}

native_backend::~native_backend() {
    // A launch whose waiter drove it still has its task queued in the arena; that task only releases the launch's
    // claim and event. Give the workers a moment to run what is queued (bounded: at exit, never hang on it).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    // Likewise an eager command whose event a waiter already saw complete may still be running its callbacks,
    // which enqueue successors into the arena (detail::completions_in_flight).
    while ((enqueued_launches_->load(std::memory_order_acquire) != 0 || detail::completions_in_flight() != 0) &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    std::lock_guard lock(allocations_mutex_);
    for (auto& [pointer, bytes] : allocations_)
        std::free(pointer); // what the program forgot to free
}

std::uint32_t native_backend::trace_process(encore::detail::trace_session& session) {
    std::lock_guard lock(trace_mutex_);
    if (traced_in_ != &session) {
        trace_process_ = session.device_process(name(), 0, properties_.name);
        traced_in_ = &session;
    }
    return trace_process_;
}

void native_backend::check_device(std::uint32_t device) const {
    if (device != 0)
        throw error(errc::invalid_argument, "native backend has one device (0); device " +
                                                std::to_string(device) + " does not exist");
}

const device_properties& native_backend::properties(std::uint32_t device) const {
    check_device(device);
    return properties_;
}

void* native_backend::allocate(std::uint32_t device, memory_kind kind, std::size_t bytes,
                               std::size_t alignment) {
    check_device(device);
    static_cast<void>(kind); // all kinds are host memory here
    if (bytes == 0) return nullptr;
    if (alignment == 0) alignment = properties_.allocation_alignment;
    if ((alignment & (alignment - 1)) != 0)
        throw error(errc::invalid_argument,
                    "native allocation: alignment " + std::to_string(alignment) + " is not a power of two");
    alignment = std::max(alignment, properties_.allocation_alignment);
    // aligned_alloc's rule: a multiple of the alignment. Rounding a size near SIZE_MAX up would wrap to 0, and
    // aligned_alloc(alignment, 0) may succeed, so such a size fails here.
    const std::size_t rounded = bytes > SIZE_MAX - alignment ? 0 : (bytes + alignment - 1) / alignment * alignment;
    // More than the machine's memory cannot succeed: refused without asking the allocator (which, under a
    // sanitizer, may abort the program for such a size instead of returning null).
    const bool impossible = properties_.global_memory_bytes && rounded > properties_.global_memory_bytes;
    void* p = rounded == 0 || impossible ? nullptr : std::aligned_alloc(alignment, rounded);
    if (!p)
        throw error(errc::backend_failure, "native allocation of " + std::to_string(bytes) + " bytes of " +
                                               std::string(to_string(kind)) + " memory failed");
    std::lock_guard lock(allocations_mutex_);
    allocations_.emplace(p, bytes);
    return p;
}

void native_backend::deallocate(std::uint32_t device, void* pointer) {
    check_device(device);
    if (!pointer) return;
    {
        std::lock_guard lock(allocations_mutex_);
        if (allocations_.erase(pointer) == 0)
            throw error(errc::invalid_argument,
                        "free: the pointer was not allocated by the native backend (or was freed already)");
    }
    std::free(pointer);
}

std::unique_ptr<backend_queue> native_backend::create_queue(std::uint32_t device,
                                                            const queue_properties& properties,
                                                            std::shared_ptr<error_sink> errors) {
    check_device(device);
    return std::make_unique<native_queue>(*this, properties, std::move(errors));
}

std::unique_ptr<backend_executable> native_backend::lower(std::uint32_t device, const graph& g,
                                                          const partition& p) {
    check_device(device);
    return std::make_unique<task_list>(*this, g, p);
}

std::unique_ptr<backend> make_backend() {
    return std::make_unique<native_backend>();
}

} // namespace encore::native

#include "level_zero_commands.hpp"

#include <cstring>
#include <span>
#include <variant>
#include <vector>

#include "encore/runtime/buffer.hpp"
#include "encore/backends/level_zero/device_code.hpp"
#include "encore/backends/level_zero/level_zero_backend.hpp"
#include "encore/backends/opencl/spir_entry_arguments.hpp"
#include "encore/graph/error.hpp"

namespace encore::level_zero {

using detail::check;

namespace {

ze_event_handle_t* wait_data(std::span<ze_event_handle_t> waits) {
    return waits.empty() ? nullptr : waits.data();
}

std::uint32_t wait_count(std::span<ze_event_handle_t> waits) {
    return static_cast<std::uint32_t>(waits.size());
}

std::uint32_t narrow(std::size_t value, const std::string& what) {
    if (value > UINT32_MAX)
        throw error(errc::feature_not_supported,
                    what + ": " + std::to_string(value) + " exceeds Level Zero's 32 bits");
    return static_cast<std::uint32_t>(value);
}

void append_kernel(level_zero_backend& backend, std::uint32_t device, ze_command_list_handle_t list,
                   const kernel_command& k, ze_event_handle_t signal, std::span<ze_event_handle_t> waits) {
    if (!k.kernel) throw error(errc::invalid_argument, "level_zero: a kernel command without a kernel");
    const std::string what = "kernel '" + k.kernel->name() + "'";
    // An entry encore++ outlined takes its object, its geometry (the offset included) and its local memory.
    const auto* code = static_cast<const device_code*>(k.kernel->device_code("level_zero"));
    const bool outlined = code && code->outlined.geometry_dimensions != 0;
    std::vector<kernel_argument> made;
    if (outlined) made = opencl::spir_entry_arguments(code->outlined, k, "level_zero");
    const std::span<const kernel_argument> arguments = outlined ? std::span<const kernel_argument>(made) : k.arguments;
    if (!outlined && k.range.offset != std::array<std::size_t, 3>{0, 0, 0})
        throw error(errc::feature_not_supported,
                    what +
                        ": global offsets need zeKernelSetGlobalOffsetExp, which the level_zero backend does "
                        "not use yet");
    const auto& ze = backend.ze();
    shared_kernel& sk = backend.kernel_of(device, *k.kernel);
    // SYCL's last dimension is the fastest, Level Zero's x (as in DPC++).
    const int dims = k.range.dimensions;
    std::array<std::uint32_t, 3> global{1, 1, 1}, local{1, 1, 1};
    for (int d = 0; d < dims; ++d) {
        global[dims - 1 - d] = narrow(k.range.global[d], what + " global size");
        if (k.range.has_local_size())
            local[dims - 1 - d] = narrow(k.range.local[d], what + " work-group size");
    }
    std::lock_guard lock(sk.mutex);
    ze_kernel_handle_t h = sk.handle.get();
    for (std::uint32_t i = 0; i < arguments.size(); ++i) {
        const kernel_argument& a = arguments[i];
        const std::string arg = what + " argument " + std::to_string(i);
        switch (a.type) {
        case kernel_argument::kind::scalar:
        case kernel_argument::kind::pointer:
            check(ze.zeKernelSetArgumentValue(h, i, a.bytes.size(), a.bytes.data()),
                  "zeKernelSetArgumentValue", arg);
            break;
        case kernel_argument::kind::local_memory:
            check(ze.zeKernelSetArgumentValue(h, i, a.local_bytes, nullptr), "zeKernelSetArgumentValue",
                  arg + " (local memory)");
            break;
        case kernel_argument::kind::memory_object:
            throw error(
                errc::feature_not_supported,
                arg + ": memory-object arguments are not supported by the level_zero backend (pass the USM "
                      "pointer; SYCL accessors do)");
        }
    }
    if (!k.range.has_local_size())
        check(
            ze.zeKernelSuggestGroupSize(h, global[0], global[1], global[2], &local[0], &local[1], &local[2]),
            "zeKernelSuggestGroupSize", what);
    for (int d = 0; d < 3; ++d)
        if (local[d] == 0 || global[d] % local[d] != 0)
            throw error(errc::invalid_argument, what + ": the global size " + std::to_string(global[d]) +
                                                    " is not a multiple of the work-group size " +
                                                    std::to_string(local[d]));
    check(ze.zeKernelSetGroupSize(h, local[0], local[1], local[2]), "zeKernelSetGroupSize", what);
    const ze_group_count_t groups{global[0] / local[0], global[1] / local[1], global[2] / local[2]};
    check(ze.zeCommandListAppendLaunchKernel(list, h, &groups, signal, wait_count(waits), wait_data(waits)),
          "zeCommandListAppendLaunchKernel", what);
}

// A staging buffer in host USM, freed when the last holder lets go.
std::shared_ptr<void> host_staging(level_zero_backend& backend, std::uint32_t device, std::size_t bytes) {
    void* p = backend.allocate(device, memory_kind::host, bytes, 64);
    return std::shared_ptr<void>(p, [&backend, device](void* q) {
        try {
            backend.deallocate(device, q);
        } catch (...) { // a failed free at teardown: nothing to do
        }
    });
}

std::shared_ptr<void> append_fill(level_zero_backend& backend, std::uint32_t device,
                                  ze_command_list_handle_t list, void* destination, const std::byte* pattern,
                                  std::size_t pattern_bytes, std::size_t total, ze_event_handle_t signal,
                                  std::span<ze_event_handle_t> waits) {
    const auto& ze = backend.ze();
    if (total == 0 || pattern_bytes == 0) {
        check(ze.zeCommandListAppendBarrier(list, signal, wait_count(waits), wait_data(waits)),
              "zeCommandListAppendBarrier");
        return nullptr;
    }
    if ((pattern_bytes & (pattern_bytes - 1)) == 0 && pattern_bytes <= 256) {
        check(ze.zeCommandListAppendMemoryFill(list, destination, pattern, pattern_bytes, total, signal,
                                               wait_count(waits), wait_data(waits)),
              "zeCommandListAppendMemoryFill");
        return nullptr;
    }
    auto staging = host_staging(backend, device, total);
    auto* out = static_cast<std::byte*>(staging.get());
    for (std::size_t i = 0; i < total; i += pattern_bytes)
        std::memcpy(out + i, pattern, std::min(pattern_bytes, total - i));
    check(ze.zeCommandListAppendMemoryCopy(list, destination, out, total, signal, wait_count(waits),
                                           wait_data(waits)),
          "zeCommandListAppendMemoryCopy",
          "a fill with a " + std::to_string(pattern_bytes) + "-byte pattern");
    return staging;
}

} // namespace

std::shared_ptr<void> append_command(level_zero_backend& backend, std::uint32_t device,
                                     ze_command_list_handle_t list, const command& c,
                                     ze_event_handle_t signal, std::span<ze_event_handle_t> waits) {
    const auto& ze = backend.ze();
    auto barrier = [&] {
        check(ze.zeCommandListAppendBarrier(list, signal, wait_count(waits), wait_data(waits)),
              "zeCommandListAppendBarrier");
    };
    switch (kind_of(c)) {
    case command_kind::kernel:
        append_kernel(backend, device, list, std::get<kernel_command>(c), signal, waits);
        return nullptr;
    case command_kind::memcpy: {
        const auto& m = std::get<memcpy_command>(c);
        if (m.bytes == 0) {
            barrier();
            return nullptr;
        }
        check(ze.zeCommandListAppendMemoryCopy(list, m.destination, m.source, m.bytes, signal,
                                               wait_count(waits), wait_data(waits)),
              "zeCommandListAppendMemoryCopy");
        return nullptr;
    }
    case command_kind::copy: {
        const auto& k = std::get<copy_command>(c);
        auto* from = dynamic_cast<buffer*>(k.source.get());
        auto* to = dynamic_cast<buffer*>(k.destination.get());
        if (!from || !to)
            throw error(
                errc::feature_not_supported,
                "copy: the level_zero backend copies between encore::buffers only (memory objects with host "
                "storage)");
        if (k.bytes == 0) {
            barrier();
            return nullptr;
        }
        // Buffer storage is host memory, which Level Zero copies reach.
        check(ze.zeCommandListAppendMemoryCopy(list, to->data() + k.destination_offset,
                                               from->data() + k.source_offset, k.bytes, signal,
                                               wait_count(waits), wait_data(waits)),
              "zeCommandListAppendMemoryCopy", "a buffer copy");
        return nullptr;
    }
    case command_kind::fill: {
        const auto& f = std::get<fill_command>(c);
        return append_fill(backend, device, list, f.destination, f.pattern.data(), f.pattern.size(),
                           f.pattern.size() * f.count, signal, waits);
    }
    case command_kind::memset: {
        const auto& m = std::get<memset_command>(c);
        const std::byte value = static_cast<std::byte>(static_cast<unsigned char>(m.value));
        return append_fill(backend, device, list, m.destination, &value, 1, m.bytes, signal, waits);
    }
    case command_kind::prefetch: {
        const auto& p = std::get<prefetch_command>(c);
        if (p.bytes && p.pointer) {
            check(ze.zeCommandListAppendBarrier(list, nullptr, wait_count(waits), wait_data(waits)),
                  "zeCommandListAppendBarrier");
            check(ze.zeCommandListAppendMemoryPrefetch(list, p.pointer, p.bytes),
                  "zeCommandListAppendMemoryPrefetch");
            check(ze.zeCommandListAppendBarrier(list, signal, 0, nullptr), "zeCommandListAppendBarrier");
            return nullptr;
        }
        barrier();
        return nullptr;
    }
    case command_kind::mem_advise: // a hint; SYCL's advice values are backend-specific
    case command_kind::barrier:
    case command_kind::empty:
        barrier();
        return nullptr;
    case command_kind::host_task:
    case command_kind::subgraph:
        throw error(errc::invalid_argument,
                    "level_zero: host tasks and subgraphs are the runtime's to run, not a backend's");
    case command_kind::native_graph:
        throw error(errc::feature_not_supported,
                    "level_zero: a native graph of another backend cannot run on a Level Zero device");
    }
    throw error(errc::invalid_argument, "level_zero: unknown command kind");
}

} // namespace encore::level_zero

// encore::gpu::local_memory — how a launch of an outlined kernel lays out its work-group local memory and binds
// the local accessors its kernel object holds: each allocation at a 16-byte boundary of one block (a GPU's dynamic
// shared memory, an OpenCL kernel's local-memory argument), and each accessor's local_binding given the offset of
// its allocation there. Shared by the GPU layer (gpu_kernel_launch.cpp) and the OpenCL backend's spir64 entries
// (opencl_commands.cpp), whose device sides read the same bytes (backends/cuda/device_work_item.hpp,
// backends/opencl/spir_work_item.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>

#include "encore/backends/gpu/device_code.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

class local_memory_layout {
public:
    // `kernel` names the kernel in errors; `backend` the backend that launches it.
    local_memory_layout(std::string_view backend, const std::string& kernel) : backend_(backend), kernel_(kernel) {}

    // Places the next allocation (a local accessor's bytes).
    void place(std::size_t bytes) {
        if (layout_.count == max_local_allocations)
            throw error(errc::feature_not_supported,
                        "kernel '" + kernel_ + "': more than " + std::to_string(max_local_allocations) +
                            " local allocations; the " + std::string(backend_) + " backend maps up to " +
                            std::to_string(max_local_allocations));
        total_ = (total_ + 15) / 16 * 16;
        layout_.offset[layout_.count++] = static_cast<std::uint32_t>(total_);
        total_ += bytes;
    }
    const local_layout& layout() const { return layout_; }
    std::size_t total_bytes() const { return total_; }

    // Writes where its allocation starts into the local accessor at byte `at` of a launch's copy of a kernel
    // object. An accessor of no allocation of this launch is an empty one (no memory: its kernel must not touch
    // it) or one made for another command group, which the kernel cannot use.
    void bind(std::span<std::byte> object, std::uint32_t at) const {
        local_binding binding;
        if (at + sizeof binding > object.size())
            throw error(errc::invalid_argument, "kernel '" + kernel_ + "': a local accessor at byte " +
                                                    std::to_string(at) + " is past the end of its " +
                                                    std::to_string(object.size()) + "-byte kernel object");
        std::memcpy(&binding, object.data() + at, sizeof binding);
        if (binding.allocation == std::numeric_limits<std::uint32_t>::max()) return; // default-constructed: empty
        if (binding.allocation >= layout_.count)
            throw error(errc::invalid_argument,
                        "kernel '" + kernel_ + "': a local accessor it captured names local allocation " +
                            std::to_string(binding.allocation) + ", and its command group made " +
                            std::to_string(layout_.count) +
                            " (a local_accessor is valid only in the kernel of the command group that made it)");
        binding.offset = layout_.offset[binding.allocation];
        std::memcpy(object.data() + at, &binding, sizeof binding);
    }

private:
    std::string_view backend_;
    const std::string& kernel_;
    local_layout layout_;
    std::size_t total_ = 0;
};

} // namespace encore::gpu

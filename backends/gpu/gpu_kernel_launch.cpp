#include "gpu_kernel_launch.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>

#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/backends/gpu/local_memory.hpp"
#include "encore/graph/error.hpp"

namespace encore::gpu {

std::span<std::byte> kernel_launch::add_parameter(std::span<const std::byte> bytes, std::size_t alignment) {
    alignment = std::max<std::size_t>(alignment, 1);
    const std::size_t offset = (storage_.size() + alignment - 1) / alignment * alignment;
    storage_.resize(offset + bytes.size());
    if (!bytes.empty()) std::memcpy(storage_.data() + offset, bytes.data(), bytes.size());
    offsets_.push_back(offset);
    return {storage_.data() + offset, bytes.size()};
}

void kernel_launch::finish_parameters() {
    pointers_.resize(offsets_.size());
    aim_pointers();
}

void kernel_launch::aim_pointers() noexcept {
    for (std::size_t i = 0; i < pointers_.size(); ++i)
        pointers_[i] = storage_.data() + offsets_[i];
}

kernel_launch::kernel_launch(kernel_launch&& other) noexcept
    : function(other.function), shared_bytes(other.shared_bytes), scratch_bytes(other.scratch_bytes),
      scratch_zero_bytes(other.scratch_zero_bytes),
      owned_scratch(std::move(other.owned_scratch)), finisher(std::move(other.finisher)),
      zero_first(std::move(other.zero_first)), pointers_(std::move(other.pointers_)),
      offsets_(std::move(other.offsets_)), storage_(std::move(other.storage_)),
      scratch_parameter_(other.scratch_parameter_) {
    std::copy(std::begin(other.grid), std::end(other.grid), grid);
    std::copy(std::begin(other.block), std::end(other.block), block);
    aim_pointers();
}

kernel_launch& kernel_launch::operator=(kernel_launch&& other) noexcept {
    if (this != &other) {
        function = other.function;
        shared_bytes = other.shared_bytes;
        scratch_bytes = other.scratch_bytes;
        scratch_zero_bytes = other.scratch_zero_bytes;
        owned_scratch = std::move(other.owned_scratch);
        finisher = std::move(other.finisher);
        zero_first = std::move(other.zero_first);
        scratch_parameter_ = other.scratch_parameter_;
        std::copy(std::begin(other.grid), std::end(other.grid), grid);
        std::copy(std::begin(other.block), std::end(other.block), block);
        storage_ = std::move(other.storage_);
        offsets_ = std::move(other.offsets_);
        pointers_ = std::move(other.pointers_);
        aim_pointers();
    }
    return *this;
}

void kernel_launch::add_scratch_parameter(std::size_t bytes, std::size_t zero_bytes) {
    void* none = nullptr; // set per launch
    scratch_bytes = bytes;
    scratch_zero_bytes = zero_bytes;
    scratch_parameter_ = offsets_.size();
    add_parameter({reinterpret_cast<const std::byte*>(&none), sizeof none}, alignof(void*));
}

void kernel_launch::set_scratch(void* p) noexcept {
    std::memcpy(storage_.data() + offsets_[scratch_parameter_], &p, sizeof p);
    if (finisher) finisher->set_scratch(p);
}

kernel_params kernel_launch::params() const {
    kernel_params p;
    p.entry = function;
    std::copy(std::begin(grid), std::end(grid), p.grid);
    std::copy(std::begin(block), std::end(block), p.block);
    p.shared_bytes = shared_bytes;
    p.arguments = const_cast<void**>(pointers_.data());
    return p;
}

namespace {

// Block sizes per GPU axis (x, y, z) for a range launch; `exact`: each must divide its extent.
void choose_blocks(const nd_range& r, bool exact, unsigned block[3]) {
    static constexpr unsigned preferred[3][3] = {{256, 1, 1}, {32, 8, 1}, {32, 4, 2}};
    unsigned budget = 256;
    for (int axis = 0; axis < r.dimensions; ++axis) {
        const std::size_t extent = r.global[static_cast<std::size_t>(r.dimensions - 1 - axis)];
        unsigned b = std::min<unsigned>(preferred[r.dimensions - 1][axis], budget);
        if (exact) {
            // The largest power of two dividing the extent, within the budget.
            const std::size_t divisor = extent & (~extent + 1);
            b = static_cast<unsigned>(std::min<std::size_t>(divisor, std::bit_floor(budget)));
        } else {
            b = static_cast<unsigned>(std::min<std::size_t>(b, extent));
        }
        block[axis] = std::max(b, 1u);
        budget = std::max(budget / block[axis], 1u);
    }
}

void set_geometry(kernel_launch& launch, const nd_range& r, bool exact, const std::string& name) {
    // CUDA's and HIP's limits alike.
    if (r.has_local_size()) {
        std::size_t items = 1;
        for (int axis = 0; axis < r.dimensions; ++axis) {
            const auto d = static_cast<std::size_t>(r.dimensions - 1 - axis);
            launch.block[axis] = static_cast<unsigned>(r.local[d]);
            items *= r.local[d];
        }
        if (items > 1024)
            throw error(errc::invalid_argument, "kernel '" + name + "': a work-group of " + std::to_string(items) +
                                                    " items is more than the GPU's 1024 threads per block");
    } else {
        choose_blocks(r, exact, launch.block);
    }
    static constexpr std::size_t grid_limit[3] = {std::numeric_limits<std::int32_t>::max(), 65535, 65535};
    for (int axis = 0; axis < r.dimensions; ++axis) {
        const auto d = static_cast<std::size_t>(r.dimensions - 1 - axis);
        const std::size_t blocks = (r.global[d] + launch.block[axis] - 1) / launch.block[axis];
        if (blocks > grid_limit[axis])
            throw error(errc::invalid_argument, "kernel '" + name + "': dimension " + std::to_string(d) +
                                                    " needs " + std::to_string(blocks) +
                                                    " blocks, more than the GPU's grid allows");
        launch.grid[axis] = static_cast<unsigned>(blocks);
    }
}

// The block's dynamic shared memory a launch's local allocations take, checked against the device's.
unsigned shared_bytes(gpu_backend& backend, std::uint32_t device, const local_memory_layout& locals,
                      const std::string& name) {
    const std::size_t total = locals.total_bytes(), limit = backend.properties(device).local_memory_bytes;
    if (total > limit)
        throw error(errc::invalid_argument, "kernel '" + name + "': its local memory needs " + std::to_string(total) +
                                                " bytes of work-group local memory; " + std::string(backend.name()) +
                                                " device " + std::to_string(device) + " has " +
                                                std::to_string(limit) + " per work-group");
    return static_cast<unsigned>(total);
}

// A value parameter's alignment: natural for scalars, up to 8 bytes.
std::size_t natural_alignment(const kernel_argument& a) {
    return std::min<std::size_t>(std::bit_floor(std::max<std::size_t>(a.bytes.size(), 1)), 8);
}

} // namespace

kernel_launch prepare_kernel_launch(gpu_backend& backend, std::uint32_t device, const kernel_command& k) {
    const device_code* code = nullptr;
    kernel_launch launch;
    launch.function = backend.function_of(device, *k.kernel, &code);
    const std::string& name = k.kernel->name();
    const bool work_item = code->convention == calling_convention::work_item;
    for (const auto& a : k.arguments)
        if ((a.type == kernel_argument::kind::local_memory && !work_item && !code->local_layout) ||
            a.type == kernel_argument::kind::memory_object)
            throw error(errc::feature_not_supported,
                        "kernel '" + name + "': " +
                            (a.type == kernel_argument::kind::local_memory ? "local-memory" : "memory-object") +
                            " arguments are not supported by the " + std::string(backend.name()) +
                            " backend for kernels compiled at run time");
    if (work_item) {
        set_geometry(launch, k.range, false, name);
        launch_geometry g;
        g.dimensions = static_cast<std::uint32_t>(k.range.dimensions);
        for (std::size_t d = 0; d < 3; ++d) {
            g.global[d] = k.range.global[d];
            g.offset[d] = k.range.offset[d];
        }
        // The local accessors: the only arguments a single-source kernel takes (its data are its captures).
        local_memory_layout locals(backend.name(), name);
        for (const auto& a : k.arguments) {
            if (a.type != kernel_argument::kind::local_memory)
                throw error(errc::invalid_argument, "kernel '" + name +
                                                        "': a single-source kernel takes its data from its "
                                                        "captures, not from kernel arguments");
            if (!code->local_layout && !code->binds_local_accessors)
                throw error(errc::feature_not_supported,
                            "kernel '" + name + "': local accessors on the " + std::string(backend.name()) +
                                " backend need a kernel built by encore++ (a single-source kernel's entry has no "
                                "local memory layout)");
            locals.place(a.local_bytes);
        }
        launch.shared_bytes = shared_bytes(backend, device, locals, name);
        const std::span<std::byte> functor =
            launch.add_parameter({static_cast<const std::byte*>(code->functor), code->functor_bytes}, 16);
        for (std::size_t i = 0; i < code->local_accessor_count; ++i)
            locals.bind(functor, code->local_accessors[i]);
        if (code->geometry_dimensions != 0) { // geometry<D>: global[D] then offset[D]
            const int d = code->geometry_dimensions;
            if (d != k.range.dimensions)
                throw error(errc::invalid_argument, "kernel '" + name + "': its entry was compiled for " +
                                                        std::to_string(d) + " dimensions, the launch has " +
                                                        std::to_string(k.range.dimensions));
            std::uint64_t compact[6];
            for (int i = 0; i < d; ++i) {
                compact[i] = g.global[i];
                compact[d + i] = g.offset[i];
            }
            launch.add_parameter({reinterpret_cast<const std::byte*>(compact), 2 * d * sizeof(std::uint64_t)},
                                 alignof(std::uint64_t));
        } else {
            launch.add_parameter({reinterpret_cast<const std::byte*>(&g), sizeof g}, alignof(launch_geometry));
        }
        if (code->local_layout)
            launch.add_parameter({reinterpret_cast<const std::byte*>(&locals.layout()), sizeof(local_layout)},
                                 alignof(local_layout));
        const std::size_t blocks = std::size_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
        if (code->scratch_parameter || code->scratch_bytes != 0 || code->scratch_bytes_per_block != 0)
            launch.add_scratch_parameter(code->scratch_bytes + code->scratch_bytes_per_block * blocks,
                                         code->scratch_bytes); // 0 bytes: the parameter is null, nothing is taken
        for (std::size_t i = 0; i < code->zero_first_count; ++i)
            launch.zero_first.push_back({code->zero_first[i].pointer, 0, 1, code->zero_first[i].bytes});
        if (code->finish_entry) {
            // finish(F callable, void* scratch, unsigned groups) on one block of 256 threads.
            auto finisher = std::make_unique<kernel_launch>();
            finisher->function = backend.image_entry(device, *k.kernel, *code, code->finish_entry);
            finisher->block[0] = 256;
            finisher->add_parameter({static_cast<const std::byte*>(code->functor), code->functor_bytes}, 16);
            finisher->add_scratch_parameter(0, 0);
            const auto groups = static_cast<std::uint32_t>(blocks);
            finisher->add_parameter({reinterpret_cast<const std::byte*>(&groups), sizeof groups}, alignof(std::uint32_t));
            finisher->finish_parameters();
            launch.finisher = std::move(finisher);
        }
    } else if (code->local_layout) {
        // A free-function kernel's entry (encore++): each local memory parameter comes as its size in bytes, a
        // local memory argument past the function's parameters (the launch's scratch memory) only in the layout,
        // which follows the parameters.
        set_geometry(launch, k.range, true, name);
        const std::size_t parameters = k.kernel->argument_count().value_or(k.arguments.size());
        local_memory_layout locals(backend.name(), name);
        for (std::size_t i = 0; i < k.arguments.size(); ++i) {
            const kernel_argument& a = k.arguments[i];
            if (a.type == kernel_argument::kind::local_memory) {
                locals.place(a.local_bytes);
                const std::uint64_t bytes = a.local_bytes;
                if (i < parameters)
                    launch.add_parameter({reinterpret_cast<const std::byte*>(&bytes), sizeof bytes}, alignof(std::uint64_t));
            } else {
                launch.add_parameter(a.value(), natural_alignment(a));
            }
        }
        launch.shared_bytes = shared_bytes(backend, device, locals, name);
        launch.add_parameter({reinterpret_cast<const std::byte*>(&locals.layout()), sizeof(local_layout)},
                             alignof(local_layout));
    } else {
        set_geometry(launch, k.range, true, name);
        for (const auto& a : k.arguments)
            launch.add_parameter(a.value(), natural_alignment(a));
    }
    launch.finish_parameters();
    return launch;
}

namespace {
struct fill_pattern {
    unsigned char bytes[256];
};
} // namespace

kernel_launch prepare_fill_launch(gpu_backend& backend, std::uint32_t device, void* destination,
                                  std::span<const std::byte> pattern, std::size_t count) {
    if (pattern.size() > sizeof(fill_pattern))
        throw error(errc::feature_not_supported, "fill: the " + std::string(backend.name()) + " backend fills patterns of up to 256 bytes; " +
                                                     std::to_string(pattern.size()) + " were given");
    kernel_launch launch;
    launch.function = backend.fill_function(device);
    const unsigned long long total = static_cast<unsigned long long>(pattern.size()) * count;
    const unsigned int pattern_bytes = static_cast<unsigned int>(pattern.size());
    fill_pattern p{};
    std::memcpy(p.bytes, pattern.data(), pattern.size());
    launch.add_parameter({reinterpret_cast<const std::byte*>(&destination), sizeof destination}, 8);
    launch.add_parameter({reinterpret_cast<const std::byte*>(&total), sizeof total}, 8);
    launch.add_parameter({reinterpret_cast<const std::byte*>(&pattern_bytes), sizeof pattern_bytes}, 4);
    launch.add_parameter({reinterpret_cast<const std::byte*>(&p), sizeof p}, 8);
    launch.finish_parameters();
    launch.block[0] = 256;
    launch.grid[0] = static_cast<unsigned>(std::clamp<unsigned long long>((total + 255) / 256, 1, 4096));
    return launch;
}

} // namespace encore::gpu

// encore::gpu::kernel_launch — a kernel command turned into what a kernel launch and a kernel graph node take
// (driver.hpp's kernel_params): a function, a grid, a block and the parameter bytes.
//
// SYCL's dimension d-1 (the fastest) is the GPU's x axis. A range launch (no work-group size) of a work_item
// kernel uses blocks of up to 256 items and a grid that covers the range (the entry skips items past its
// end); an argument_list kernel cannot skip items it does not know about, so its block divides the range
// exactly (the largest power of two that does, up to 256 items). An nd_range launch uses the given
// work-group size as the block. A work_item kernel's local-memory arguments (its local accessors) are laid out
// one after the other, 16-byte aligned, in the block's dynamic shared memory, and the launch writes where each
// starts into the local accessors of its copy of the functor (device_code::local_accessors); an argument_list
// kernel's are refused (errc::feature_not_supported) unless encore++ outlined it. A work_item
// kernel that needs scratch memory (a reduction) gets it as a third parameter.
//
//     auto launch = prepare_kernel_launch(backend, 0, std::get<kernel_command>(c));
//     driver.launch_kernel(stream, launch.params());
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include <boost/container/small_vector.hpp>

#include "encore/backends/gpu/driver.hpp"
#include "encore/graph/command.hpp"

namespace encore::gpu {

class gpu_backend;

class kernel_launch {
public:
    kernel_launch() = default;
    // The parameter pointers point into the parameter bytes, which may live inside the object: a move re-aims them.
    kernel_launch(kernel_launch&& other) noexcept;
    kernel_launch& operator=(kernel_launch&& other) noexcept;
    kernel_launch(const kernel_launch&) = delete;
    kernel_launch& operator=(const kernel_launch&) = delete;

    kernel_params params() const;

    gpu::driver_function function = nullptr;
    unsigned grid[3] = {1, 1, 1};
    unsigned block[3] = {1, 1, 1};
    unsigned shared_bytes = 0; // dynamic shared memory per block

    // A kernel with scratch (device_code::scratch_bytes): how much in all for this grid, how much of it starts at
    // zero, and where it is for the next launch. An eager launch takes stream-ordered memory for each launch
    // (driver_command::enqueue); a graph node owns its own, zeroed once, for the life of the node (`owned`).
    std::size_t scratch_bytes = 0;
    std::size_t scratch_zero_bytes = 0;
    // The next parameter: the scratch's address.
    void add_scratch_parameter(std::size_t bytes, std::size_t zero_bytes);
    void set_scratch(void* p) noexcept; // in the finisher's parameters too
    std::shared_ptr<void> owned_scratch;
    // The launch that follows this one (device_code::finish_entry), or null.
    std::unique_ptr<kernel_launch> finisher;
    // Memsets before it (device_code::zero_first).
    boost::container::small_vector<memset_params, 2> zero_first;

    // Appends one parameter of `bytes.size()` bytes at `alignment`; call finish_parameters() after the last.
    // Returns the launch's copy of them, writable until the next parameter is added.
    std::span<std::byte> add_parameter(std::span<const std::byte> bytes, std::size_t alignment);
    void finish_parameters();

private:
    void aim_pointers() noexcept;

    // The parameters of most kernels (a functor and its launch geometry, or a fill's pattern) fit inside the
    // object, so an eager launch allocates nothing for them. pointers_ first: with function, grid and block it
    // is what a launch reads (from another thread's cache, on the launcher).
    boost::container::small_vector<void*, 8> pointers_;
    boost::container::small_vector<std::size_t, 8> offsets_;
    boost::container::small_vector<std::byte, 320> storage_;
    std::size_t scratch_parameter_ = 0; // its index, when scratch_bytes != 0
};

kernel_launch prepare_kernel_launch(gpu_backend& backend, std::uint32_t device, const kernel_command& k);
// The backend's fill kernel writing `count` copies of `pattern` (up to 256 bytes) from `destination`.
kernel_launch prepare_fill_launch(gpu_backend& backend, std::uint32_t device, void* destination,
                                  std::span<const std::byte> pattern, std::size_t count);

} // namespace encore::gpu

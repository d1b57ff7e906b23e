// encore::opencl::spir_entry_arguments — the arguments of an entry encore++ outlined for spir64, as the OpenCL and
// Level Zero backends launch it (docs/compiler.md, "The SPIR-V target"): the kernel object's bytes, its local
// accessors bound to the command's local allocations (backends/gpu/local_memory.hpp); the launch's
// gpu::geometry<D> (the range's extents, then its offsets, in SYCL's order), what spir_work_item.hpp reads; and,
// where the object holds local accessors, the block of local memory their allocations share. The command's own
// kernel_arguments may only be its local allocations (one per local accessor the command group made).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "encore/backends/gpu/device_code.hpp"
#include "encore/backends/gpu/local_memory.hpp"
#include "encore/backends/opencl/device_code.hpp"
#include "encore/graph/command.hpp"
#include "encore/graph/error.hpp"

namespace encore::opencl {

inline std::vector<kernel_argument> spir_entry_arguments(const spir_entry& e, const kernel_command& k,
                                                         std::string_view backend) {
    const std::string& name = k.kernel->name();
    gpu::local_memory_layout locals(backend, name);
    for (const kernel_argument& a : k.arguments) {
        if (a.type != kernel_argument::kind::local_memory)
            throw error(errc::invalid_argument, "kernel '" + name +
                                                    "': a kernel outlined by encore++ takes its data from its "
                                                    "captures, not from kernel arguments");
        if (e.local_accessor_count == 0)
            throw error(errc::invalid_argument, "kernel '" + name + "': its command group made local memory that "
                                                                    "its kernel object holds no accessor of");
        locals.place(a.local_bytes);
    }
    std::vector<kernel_argument> a;
    if (e.local_accessor_count == 0) {
        a.push_back(kernel_argument::from_bytes(e.functor, e.functor_bytes));
    } else {
        std::vector<std::byte> object(e.functor_bytes);
        std::memcpy(object.data(), e.functor, e.functor_bytes);
        for (std::size_t i = 0; i < e.local_accessor_count; ++i)
            locals.bind(object, e.local_accessors[i]);
        a.push_back(kernel_argument::from_bytes(object.data(), object.size()));
    }
    const int d = e.geometry_dimensions;
    std::uint64_t geometry[6] = {};
    for (int i = 0; i < d; ++i) {
        geometry[i] = k.range.global[static_cast<std::size_t>(i)];
        geometry[d + i] = k.range.offset[static_cast<std::size_t>(i)];
    }
    a.push_back(kernel_argument::from_bytes(geometry, 2 * static_cast<std::size_t>(d) * sizeof(std::uint64_t)));
    // A block of no bytes is not a valid local argument: an object whose accessors are all empty gets one of 16.
    if (e.local_accessor_count != 0)
        a.push_back(kernel_argument::local(std::max<std::size_t>(locals.total_bytes(), 16)));
    return a;
}

} // namespace encore::opencl

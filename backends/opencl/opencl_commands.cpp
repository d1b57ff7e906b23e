#include "opencl_commands.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "encore/runtime/buffer.hpp"
#include "encore/backends/opencl/device_code.hpp"
#include "encore/backends/opencl/opencl_backend.hpp"
#include "encore/backends/opencl/spir_entry_arguments.hpp"
#include "encore/graph/error.hpp"

namespace encore::opencl {

using detail::check;

launch_geometry geometry_of(const opencl_backend& backend, std::uint32_t device, const kernel_command& k) {
    const nd_range& r = k.range;
    launch_geometry g;
    g.dimensions = static_cast<cl_uint>(r.dimensions);
    g.has_local = r.has_local_size();
    std::size_t items = 1;
    for (int axis = 0; axis < r.dimensions; ++axis) {
        const auto d = static_cast<std::size_t>(r.dimensions - 1 - axis);
        g.global[static_cast<std::size_t>(axis)] = r.global[d];
        g.offset[static_cast<std::size_t>(axis)] = r.offset[d];
        if (g.has_local) {
            g.local[static_cast<std::size_t>(axis)] = r.local[d];
            items *= r.local[d];
        }
    }
    const std::size_t limit = backend.state(device).properties.max_work_group_size;
    if (g.has_local && items > limit)
        throw error(errc::invalid_argument, "kernel '" + k.kernel->name() + "': a work-group of " +
                                                std::to_string(items) + " items is more than the device's " +
                                                std::to_string(limit));
    return g;
}

namespace {
std::string argument_name(const std::string& kernel_name, std::size_t index) {
    return "kernel '" + kernel_name + "', argument " + std::to_string(index);
}
} // namespace

argument_form form_of(const opencl_backend& backend, const kernel_argument& a, const std::string& kernel_name,
                      std::size_t index) {
    switch (a.type) {
    case kernel_argument::kind::scalar:
        return {nullptr, a.bytes.size(), a.bytes.data()};
    case kernel_argument::kind::local_memory:
        return {nullptr, a.local_bytes, nullptr};
    case kernel_argument::kind::pointer: {
        void* p = a.pointer();
        if (!p) return {nullptr, sizeof(cl_mem), nullptr};
        if (!backend.find_allocation(p))
            throw error(errc::invalid_argument, argument_name(kernel_name, index) +
                                                    ": the pointer is not memory of the opencl backend (kernels "
                                                    "reach USM allocations of their device only)");
        return {p, 0, nullptr};
    }
    case kernel_argument::kind::memory_object:
        break;
    }
    throw error(errc::feature_not_supported,
                argument_name(kernel_name, index) +
                    ": memory-object arguments are not supported by the opencl backend (pass the USM pointer; SYCL "
                    "accessors do)");
}

namespace {

// What the command's kernel takes: its kernel_arguments, or an outlined entry's.
std::span<const kernel_argument> arguments_of(const kernel_command& k, std::vector<kernel_argument>& made) {
    const auto* code = static_cast<const device_code*>(k.kernel->device_code("opencl"));
    if (!code || code->outlined.geometry_dimensions == 0) return k.arguments;
    made = spir_entry_arguments(code->outlined, k, "opencl");
    return made;
}

void set_argument_values(opencl_backend& backend, std::uint32_t device, cl_kernel kernel,
                         const kernel_command& k, std::span<const kernel_argument> arguments, cl_uint expected) {
    const auto& cl = backend.cl();
    const auto& s = backend.state(device);
    const std::string& name = k.kernel->name();
    if (expected != arguments.size())
        throw error(errc::invalid_argument, "kernel '" + name + "' takes " + std::to_string(expected) +
                                                " arguments; " + std::to_string(arguments.size()) +
                                                " were given");
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const kernel_argument& a = arguments[i];
        const auto index = static_cast<cl_uint>(i);
        const argument_form f = form_of(backend, a, name, i);
        // The argument is named only when a call fails: this runs once per eager submission.
        if (f.pointer) {
            const bool intel = s.capabilities.usm == detail::usm_mode::intel;
            const cl_int r = intel ? s.intel_usm.set_kernel_arg(kernel, index, f.pointer)
                                   : cl.clSetKernelArgSVMPointer(kernel, index, f.pointer);
            if (r != CL_SUCCESS)
                detail::fail(r, intel ? "clSetKernelArgMemPointerINTEL" : "clSetKernelArgSVMPointer",
                             argument_name(name, i));
        } else if (const cl_int r = cl.clSetKernelArg(kernel, index, f.size, f.value); r != CL_SUCCESS) {
            const char* what = a.type == kernel_argument::kind::local_memory ? " (local memory)"
                               : a.type == kernel_argument::kind::pointer   ? " (null)"
                                                                             : "";
            detail::fail(r, "clSetKernelArg", argument_name(name, i) + what);
        }
    }
}

cl_uint parameter_count(const detail::api& cl, cl_kernel kernel) {
    cl_uint count = 0;
    check(cl.clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr), "clGetKernelInfo");
    return count;
}

} // namespace

void set_arguments(opencl_backend& backend, std::uint32_t device, cl_kernel kernel, const kernel_command& k) {
    std::vector<kernel_argument> made;
    set_argument_values(backend, device, kernel, k, arguments_of(k, made), parameter_count(backend.cl(), kernel));
}

void set_arguments(opencl_backend& backend, std::uint32_t device, shared_kernel& kernel,
                   const kernel_command& k) {
    if (!kernel.parameters_known) {
        kernel.parameters = parameter_count(backend.cl(), kernel.handle.get());
        kernel.parameters_known = true;
    }
    std::vector<kernel_argument> made;
    const std::span<const kernel_argument> arguments = arguments_of(k, made);
    if (kernel.arguments_set && std::ranges::equal(kernel.last_arguments, arguments)) return;
    kernel.arguments_set = false; // until every one is set
    set_argument_values(backend, device, kernel.handle.get(), k, arguments, kernel.parameters);
    kernel.last_arguments.assign(arguments.begin(), arguments.end());
    kernel.arguments_set = true;
}

void check_fill(std::size_t pattern_bytes, const char* what) {
    if (pattern_bytes == 0 || pattern_bytes > max_fill_pattern)
        throw error(errc::feature_not_supported,
                    std::string(what) + ": the opencl backend fills patterns of 1 to " +
                        std::to_string(max_fill_pattern) + " bytes; this one has " +
                        std::to_string(pattern_bytes) + " bytes");
}

bool driver_fills(const void* destination, std::size_t pattern_bytes) noexcept {
    return pattern_bytes > 0 && pattern_bytes <= 128 && std::has_single_bit(pattern_bytes) &&
           reinterpret_cast<std::uintptr_t>(destination) % pattern_bytes == 0;
}

launch_geometry prepare_fill_kernel(opencl_backend& backend, std::uint32_t device, cl_kernel kernel,
                                    void* destination, std::span<const std::byte> pattern,
                                    std::size_t bytes) {
    const auto& cl = backend.cl();
    const auto& s = backend.state(device);
    struct {
        unsigned char bytes[max_fill_pattern];
    } value{};
    std::memcpy(value.bytes, pattern.data(), pattern.size());
    const cl_ulong total = bytes;
    const cl_uint pattern_bytes = static_cast<cl_uint>(pattern.size());
    if (s.capabilities.usm == detail::usm_mode::intel)
        check(s.intel_usm.set_kernel_arg(kernel, 0, destination), "clSetKernelArgMemPointerINTEL",
              "encore_fill");
    else
        check(cl.clSetKernelArgSVMPointer(kernel, 0, destination), "clSetKernelArgSVMPointer", "encore_fill");
    check(cl.clSetKernelArg(kernel, 1, sizeof total, &total), "clSetKernelArg", "encore_fill");
    check(cl.clSetKernelArg(kernel, 2, sizeof pattern_bytes, &pattern_bytes), "clSetKernelArg",
          "encore_fill");
    check(cl.clSetKernelArg(kernel, 3, sizeof value, &value), "clSetKernelArg", "encore_fill");
    launch_geometry g;
    g.global[0] = std::min<std::size_t>(bytes, std::size_t{1} << 16); // each item strides over the rest
    return g;
}

namespace {

void check_usm(opencl_backend& backend, const void* p, std::size_t bytes, const char* what) {
    if (!backend.find_allocation(p, bytes))
        throw error(errc::invalid_argument, std::string(what) + ": [" + std::to_string(bytes) +
                                                " bytes] is not inside memory of the opencl backend");
}

std::pair<buffer*, buffer*> buffers_of(const copy_command& c) {
    auto* from = dynamic_cast<buffer*>(c.source.get());
    auto* to = dynamic_cast<buffer*>(c.destination.get());
    if (!from || !to)
        throw error(errc::feature_not_supported,
                    "copy: the opencl backend copies between encore::buffers only "
                    "(memory objects with host storage)");
    return {from, to};
}

} // namespace

cl_event enqueue_kernel(opencl_backend& backend, std::uint32_t device, cl_command_queue queue,
                        const kernel_command& k, std::span<const cl_event> waits) {
    shared_kernel& sk = backend.kernel_of(device, *k.kernel);
    const launch_geometry g = geometry_of(backend, device, k);
    std::lock_guard lock(sk.mutex);
    set_arguments(backend, device, sk, k);
    cl_event e = nullptr;
    const cl_int r = backend.cl().clEnqueueNDRangeKernel(
        queue, sk.handle.get(), g.dimensions, g.offset_or_null(), g.global.data(), g.local_or_null(),
        static_cast<cl_uint>(waits.size()), waits.empty() ? nullptr : waits.data(), &e);
    if (r != CL_SUCCESS) detail::fail(r, "clEnqueueNDRangeKernel", "kernel '" + k.kernel->name() + "'");
    return e;
}

cl_event enqueue(opencl_backend& backend, std::uint32_t device, cl_command_queue queue, const command& c,
                 std::span<const cl_event> waits) {
    const auto& cl = backend.cl();
    const auto& s = backend.state(device);
    const auto n = static_cast<cl_uint>(waits.size());
    const cl_event* list = waits.empty() ? nullptr : waits.data();
    const bool intel = s.capabilities.usm == detail::usm_mode::intel;
    cl_event e = nullptr;
    auto marker = [&]() -> cl_event {
        if (waits.empty()) return nullptr;
        check(cl.clEnqueueMarkerWithWaitList(queue, n, list, &e), "clEnqueueMarkerWithWaitList");
        return e;
    };
    switch (kind_of(c)) {
    case command_kind::kernel:
        return enqueue_kernel(backend, device, queue, std::get<kernel_command>(c), waits);
    case command_kind::memcpy: {
        const auto& m = std::get<memcpy_command>(c);
        if (m.bytes == 0) return marker();
        if (intel)
            check(s.intel_usm.memcpy(queue, CL_FALSE, m.destination, m.source, m.bytes, n, list, &e),
                  "clEnqueueMemcpyINTEL");
        else
            check(cl.clEnqueueSVMMemcpy(queue, CL_FALSE, m.destination, m.source, m.bytes, n, list, &e),
                  "clEnqueueSVMMemcpy");
        return e;
    }
    case command_kind::memset:
    case command_kind::fill: {
        void* destination = nullptr;
        std::byte byte{};
        const void* pattern = &byte;
        std::size_t pattern_bytes = 1, bytes = 0;
        if (kind_of(c) == command_kind::memset) {
            const auto& m = std::get<memset_command>(c);
            destination = m.destination;
            byte = static_cast<std::byte>(m.value);
            bytes = m.bytes;
        } else {
            const auto& f = std::get<fill_command>(c);
            destination = f.destination;
            pattern = f.pattern.data();
            pattern_bytes = f.pattern.size();
            bytes = f.pattern.size() * f.count;
            check_fill(pattern_bytes, "fill");
        }
        if (bytes == 0) return marker();
        check_usm(backend, destination, bytes, kind_of(c) == command_kind::memset ? "memset" : "fill");
        if (!driver_fills(destination, pattern_bytes)) {
            shared_kernel& fill = backend.fill_kernel(device);
            std::lock_guard lock(fill.mutex);
            fill.arguments_set = false; // the shared kernel's argument cache does not cover these
            const launch_geometry g =
                prepare_fill_kernel(backend, device, fill.handle.get(), destination,
                                    {static_cast<const std::byte*>(pattern), pattern_bytes}, bytes);
            check(cl.clEnqueueNDRangeKernel(queue, fill.handle.get(), 1, nullptr, g.global.data(), nullptr, n,
                                            list, &e),
                  "clEnqueueNDRangeKernel", "the fill kernel");
            return e;
        }
        if (intel)
            check(s.intel_usm.fill(queue, destination, pattern, pattern_bytes, bytes, n, list, &e),
                  "clEnqueueMemFillINTEL");
        else
            check(cl.clEnqueueSVMMemFill(queue, destination, pattern, pattern_bytes, bytes, n, list, &e),
                  "clEnqueueSVMMemFill");
        return e;
    }
    case command_kind::copy: {
        const auto& k = std::get<copy_command>(c);
        auto [from, to] = buffers_of(k);
        if (k.bytes == 0) return marker();
        check(cl.clEnqueueSVMMemcpy(queue, CL_FALSE, to->data() + k.destination_offset,
                                    from->data() + k.source_offset, k.bytes, n, list, &e),
              "clEnqueueSVMMemcpy", "a copy between buffers");
        return e;
    }
    case command_kind::prefetch:
    case command_kind::mem_advise:
    case command_kind::barrier:
    case command_kind::empty:
        return marker();
    case command_kind::native_graph:
        throw error(
            errc::feature_not_supported,
            "the opencl backend has no native recording: a native graph runs only on the backend that "
            "captured it");
    case command_kind::host_task:
    case command_kind::subgraph:
        throw error(errc::invalid_argument, "opencl: host tasks and subgraphs are the runtime's to run");
    }
    return marker();
}

void check_for_graph(opencl_backend& backend, std::uint32_t device, const command& c) {
    switch (kind_of(c)) {
    case command_kind::kernel: {
        const auto& k = std::get<kernel_command>(c);
        static_cast<void>(backend.kernel_of(device, *k.kernel)); // kernel_not_supported first
        static_cast<void>(geometry_of(backend, device, k));
        for (const auto& a : k.arguments)
            if (a.type == kernel_argument::kind::memory_object)
                throw error(errc::feature_not_supported,
                            "kernel '" + k.kernel->name() +
                                "': memory-object arguments are not supported by the "
                                "opencl backend");
        break;
    }
    case command_kind::fill: {
        const auto& f = std::get<fill_command>(c);
        check_fill(f.pattern.size(), "fill");
        if (!driver_fills(f.destination, f.pattern.size())) static_cast<void>(backend.fill_kernel(device));
        break;
    }
    case command_kind::copy:
        static_cast<void>(buffers_of(std::get<copy_command>(c)));
        break;
    case command_kind::native_graph:
        throw error(
            errc::feature_not_supported,
            "the opencl backend has no native recording: a native graph cannot be a node of its graphs");
    case command_kind::host_task:
    case command_kind::subgraph:
        throw error(errc::invalid_argument, "opencl: host tasks and subgraphs are the runtime's to run");
    default:
        break;
    }
}

} // namespace encore::opencl

#include "opencl_command_buffer.hpp"

#include <algorithm>
#include <array>
#include <mutex>

#include "encore/runtime/buffer.hpp"
#include "encore/backends/opencl/opencl_backend.hpp"
#include "encore/backends/opencl/opencl_commands.hpp"
#include "encore/backends/opencl/opencl_queue.hpp"
#include "encore/graph/error.hpp"

namespace encore::opencl {

using detail::check;

command_buffer_executable::command_buffer_executable(opencl_backend& backend, std::uint32_t device,
                                                     const graph& g, const partition& p)
    : backend_(backend), device_(device), graph_(g), partition_(p) {
    const auto count = static_cast<std::uint32_t>(p.nodes.size());
    local_of_.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i)
        local_of_.emplace_back(p.nodes[i], i);
    std::sort(local_of_.begin(), local_of_.end());
    const auto& s = backend.state(device);
    out_of_order_ =
        (s.capabilities.command_buffer_capabilities & CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR) != 0;
    simultaneous_use_ =
        (s.capabilities.command_buffer_capabilities & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR) != 0;
    plain_.link = std::make_shared<queue_link>();
    plain_.link->queue = backend.new_queue(device, out_of_order_, false);
    plain_.link->context = s.context.get();
    record(plain_);
}

command_buffer_executable::~command_buffer_executable() {
    release(plain_);
    release(profiled_);
}

void command_buffer_executable::release(recording& r) noexcept {
    if (r.buffer) backend_.state(device_).command_buffers.release(std::exchange(r.buffer, nullptr));
    r.host_views.clear();
    r.kernels.clear();
    r.mutable_of.clear();
    r.last_launch.reset();
}

std::uint32_t command_buffer_executable::local(std::uint32_t node) const {
    auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{node, std::uint32_t{0}});
    if (it == local_of_.end() || it->first != node)
        throw error(errc::invalid_argument,
                    "opencl update: node " + std::to_string(node) + " is not in this partition");
    return it->second;
}

std::pair<cl_mem, std::size_t> command_buffer_executable::view_for(recording& rec, const void* p,
                                                                   std::size_t bytes, const char* what) {
    if (auto view = backend_.view_of(p, bytes)) return *view;
    const auto& s = backend_.state(device_);
    if (backend_.find_allocation(p, bytes)) // intel USM: no cl_mem form, and the SVM commands are missing
        throw error(errc::feature_not_supported,
                    std::string(what) +
                        " in an OpenCL command buffer: cl_intel_unified_shared_memory allocations "
                        "need clCommandSVMMemcpyKHR/clCommandSVMMemFillKHR (cl_khr_command_buffer "
                        "0.9.4 or later); the device reports " +
                        detail::version_string(s.capabilities.command_buffer));
    if (!s.capabilities.host_unified_memory)
        throw error(errc::feature_not_supported,
                    std::string(what) +
                        " in an OpenCL command buffer: memory the opencl backend did not allocate "
                        "(host memory, encore::buffer storage) can be recorded only on devices with "
                        "host-unified memory; '" +
                        s.properties.name + "' has none (copy eagerly)");
    cl_int r = CL_SUCCESS;
    detail::mem_handle view(backend_.cl().clCreateBuffer(
        s.context.get(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, const_cast<void*>(p), &r));
    check(r, "clCreateBuffer", std::string(what) + ": a view of host memory");
    rec.host_views.push_back(std::move(view));
    return {rec.host_views.back().get(), 0};
}

// Nodes in partition order, each waiting for its in-partition predecessors' sync points: O(V + E).
void command_buffer_executable::record(recording& rec) {
    const auto& cl = backend_.cl();
    const auto& s = backend_.state(device_);
    const auto& f = s.command_buffers;
    const bool svm_commands = f.has_svm_commands();
    cl_command_queue q = rec.link->queue.get();
    cl_int r = CL_SUCCESS;
    // Simultaneous use lets a launch be enqueued while the previous one waits or runs (the runtime enqueues
    // launches of one executable back to back, each waiting for the one before).
    const cl_command_buffer_flags_khr flags = (simultaneous_use_ ? CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR : 0) |
                                              (s.use_mutable_dispatch ? CL_COMMAND_BUFFER_MUTABLE_KHR : 0);
    const cl_command_buffer_properties_khr buffer_properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR, flags, 0};
    rec.buffer = f.create(1, &q, flags ? buffer_properties : nullptr, &r);
    cl_command_buffer_khr cb = rec.buffer;
    check(r, "clCreateCommandBufferKHR", s.properties.name);

    const auto count = partition_.nodes.size();
    // Kernel nodes of a mutable command buffer: the fields this device can update.
    const cl_ndrange_kernel_command_properties_khr updatable[] = {
        CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
        s.capabilities.mutable_fields & (CL_MUTABLE_DISPATCH_ARGUMENTS_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
                                         CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR),
        0};
    rec.mutable_of.assign(count, nullptr);
    std::vector<cl_sync_point_khr> sync(count, 0);
    std::vector<char> has_sync(count, 0);
    std::vector<cl_sync_point_khr> waits;
    const graph::storage& storage = graph_.boost_graph();
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t v = partition_.nodes[i];
        waits.clear();
        for (auto [e, end] = boost::in_edges(v, storage); e != end; ++e) {
            const auto u = static_cast<std::uint32_t>(boost::source(*e, storage));
            auto it = std::lower_bound(local_of_.begin(), local_of_.end(), std::pair{u, std::uint32_t{0}});
            if (it != local_of_.end() && it->first == u && has_sync[it->second])
                waits.push_back(sync[it->second]);
        }
        const auto n = static_cast<cl_uint>(waits.size());
        const cl_sync_point_khr* list = waits.empty() ? nullptr : waits.data();
        cl_sync_point_khr* out = &sync[i];
        const command& c = storage[v].command;
        try {
            auto ordering_only = [&] {
                if (waits.empty()) return; // nothing to wait for: successors need not wait for it either
                check(f.barrier(cb, n, list, out), "clCommandBarrierWithWaitListKHR");
                has_sync[i] = 1;
            };
            switch (kind_of(c)) {
            case command_kind::kernel: {
                const auto& k = std::get<kernel_command>(c);
                // A cl_kernel per node: PoCL 3.1 reads a recorded kernel's arguments when the buffer runs,
                // not when it is recorded, so nodes must not share one whose arguments change.
                rec.kernels.push_back(backend_.new_kernel_object(device_, *k.kernel));
                cl_kernel kernel = rec.kernels.back().get();
                const launch_geometry g = geometry_of(backend_, device_, k);
                set_arguments(backend_, device_, kernel, k);
                check(f.ndrange(cb, nullptr, s.use_mutable_dispatch ? updatable : nullptr, kernel, g.dimensions,
                                g.offset_or_null(), g.global.data(), g.local_or_null(), n, list, out,
                                s.use_mutable_dispatch ? &rec.mutable_of[i] : nullptr),
                      "clCommandNDRangeKernelKHR");
                has_sync[i] = 1;
                break;
            }
            case command_kind::memcpy: {
                const auto& m = std::get<memcpy_command>(c);
                if (m.bytes == 0) {
                    ordering_only();
                    break;
                }
                if (svm_commands) {
                    check(f.svm_memcpy(cb, m.destination, m.source, m.bytes, n, list, out),
                          "clCommandSVMMemcpyKHR");
                } else {
                    auto [from, from_offset] = view_for(rec, m.source, m.bytes, "memcpy");
                    auto [to, to_offset] = view_for(rec, m.destination, m.bytes, "memcpy");
                    check(f.copy_buffer(cb, from, to, from_offset, to_offset, m.bytes, n, list, out),
                          "clCommandCopyBufferKHR");
                }
                has_sync[i] = 1;
                break;
            }
            case command_kind::memset:
            case command_kind::fill: {
                void* destination = nullptr;
                std::array<std::byte, max_fill_pattern> pattern{};
                std::size_t pattern_bytes = 1, bytes = 0;
                if (kind_of(c) == command_kind::memset) {
                    const auto& m = std::get<memset_command>(c);
                    destination = m.destination;
                    pattern[0] = static_cast<std::byte>(m.value);
                    bytes = m.bytes;
                } else {
                    const auto& fc = std::get<fill_command>(c);
                    check_fill(fc.pattern.size(), "fill");
                    destination = fc.destination;
                    std::copy(fc.pattern.begin(), fc.pattern.end(), pattern.begin());
                    pattern_bytes = fc.pattern.size();
                    bytes = fc.pattern.size() * fc.count;
                }
                if (bytes == 0) {
                    ordering_only();
                    break;
                }
                if (!backend_.find_allocation(destination, bytes))
                    throw error(errc::invalid_argument,
                                "fill: the destination is not inside memory of the opencl "
                                "backend");
                if (!driver_fills(destination, pattern_bytes)) { // the fill kernel, a node of its own
                    rec.kernels.push_back(backend_.new_fill_kernel(device_));
                    const launch_geometry g =
                        prepare_fill_kernel(backend_, device_, rec.kernels.back().get(), destination,
                                            {pattern.data(), pattern_bytes}, bytes);
                    check(f.ndrange(cb, nullptr, nullptr, rec.kernels.back().get(), 1, nullptr,
                                    g.global.data(), nullptr, n, list, out, nullptr),
                          "clCommandNDRangeKernelKHR", "the fill kernel");
                } else if (svm_commands) {
                    check(f.svm_fill(cb, destination, pattern.data(), pattern_bytes, bytes, n, list, out),
                          "clCommandSVMMemFillKHR");
                } else {
                    auto [view, offset] = view_for(rec, destination, bytes, "fill");
                    check(f.fill_buffer(cb, view, pattern.data(), pattern_bytes, offset, bytes, n, list, out),
                          "clCommandFillBufferKHR");
                }
                has_sync[i] = 1;
                break;
            }
            case command_kind::copy: {
                const auto& k = std::get<copy_command>(c);
                auto* from = dynamic_cast<buffer*>(k.source.get());
                auto* to = dynamic_cast<buffer*>(k.destination.get());
                if (!from || !to)
                    throw error(errc::feature_not_supported,
                                "copy: the opencl backend copies between encore::buffers "
                                "only");
                if (k.bytes == 0) {
                    ordering_only();
                    break;
                }
                auto [source, source_offset] = view_for(rec, from->data() + k.source_offset, k.bytes, "copy");
                auto [target, target_offset] =
                    view_for(rec, to->data() + k.destination_offset, k.bytes, "copy");
                check(f.copy_buffer(cb, source, target, source_offset, target_offset, k.bytes, n, list, out),
                      "clCommandCopyBufferKHR");
                has_sync[i] = 1;
                break;
            }
            case command_kind::prefetch:
            case command_kind::mem_advise:
            case command_kind::barrier:
            case command_kind::empty:
                ordering_only();
                break;
            default:
                check_for_graph(backend_, device_, c); // throws for what a command buffer cannot hold
            }
        } catch (const error& e) {
            release(rec);
            throw error(e.code(), "opencl lowering of " + graph_.describe(v) + ": " + e.what());
        }
    }
    rec.holds_nothing = std::find(has_sync.begin(), has_sync.end(), 1) == has_sync.end();
    r = f.finalize(cb);
    if (r != CL_SUCCESS) {
        release(rec);
        check(r, "clFinalizeCommandBufferKHR", s.properties.name);
    }
    static_cast<void>(cl);
}

event_ptr command_buffer_executable::launch(backend_queue& queue, std::span<const event_ptr> wait_list) {
    opencl_queue& q =
        as_opencl_queue(queue, backend_, device_, "an executable graph finalized for an opencl device");
    recording& rec = q.profiling() ? profiled_ : plain_;
    if (!rec.link) { // the first launch from a profiling queue
        rec.link = std::make_shared<queue_link>();
        rec.link->queue = backend_.new_queue(device_, out_of_order_, true);
        rec.link->context = backend_.state(device_).context.get();
        rec.stale = true;
    }
    if (rec.stale || !rec.buffer) {
        if (rec.buffer)
            backend_.trace(rec.why_stale + ": the command buffer of its partition (" +
                           std::to_string(partition_.nodes.size()) + " nodes) is recorded again");
        release(rec);
        record(rec);
        rec.stale = false;
    }
    const auto& f = backend_.state(device_).command_buffers;
    if (!simultaneous_use_ && rec.last_launch && rec.last_launch->status() != event_status::complete)
        rec.last_launch->wait(); // a command buffer without simultaneous use cannot be enqueued while pending
    wait_list_events waits(backend_.cl(), rec.link->context, wait_list);
    const auto events = waits.events();
    cl_event e = nullptr;
    const auto n = static_cast<cl_uint>(events.size());
    const cl_event* list = events.empty() ? nullptr : events.data();
    const std::uint64_t handed = q.profiling_now();
    if (rec.holds_nothing) // PoCL 3.1 completes an empty command buffer without waiting for its wait list
        check(backend_.cl().clEnqueueMarkerWithWaitList(rec.link->queue.get(), n, list, &e),
              "clEnqueueMarkerWithWaitList", "the launch of a partition with no command");
    else
        check(f.enqueue(0, nullptr, rec.buffer, n, list, &e), "clEnqueueCommandBufferKHR");
    event_ptr launched = q.wrap(e, rec.link, handed, handed);
    if (!simultaneous_use_) rec.last_launch = launched;
    return launched;
}

void command_buffer_executable::update(std::uint32_t node, const command& c) {
    const std::uint32_t i = local(node);
    check_for_graph(backend_, device_, c); // refuses before anything changed
    const command& old = graph_.boost_graph()[node].command; // `c` replaces it once this returns (backend.hpp)
    const auto* k = std::get_if<kernel_command>(&c);
    const auto* was = std::get_if<kernel_command>(&old);
    if (k && was && k->kernel == was->kernel && k->arguments.size() != was->arguments.size())
        throw error(errc::invalid_argument, "update of " + graph_.describe(node) + ": kernel '" + k->kernel->name() +
                                                "' takes " + std::to_string(was->arguments.size()) + " arguments; " +
                                                std::to_string(k->arguments.size()) + " were given");
    for (recording* rec : {&plain_, &profiled_}) {
        if (!rec->buffer || rec->stale) continue; // recorded from the graph's commands at its next launch anyway
        if (auto why = update_in_place(*rec, i, was, k); !why.empty()) {
            rec->stale = true;
            rec->why_stale = graph_.describe(node) + " was updated (" + why + ")";
        }
    }
}

std::string command_buffer_executable::update_in_place(recording& rec, std::uint32_t i, const kernel_command* was,
                                                       const kernel_command* k) {
    const auto& s = backend_.state(device_);
    if (!s.use_mutable_dispatch) return "the device has no cl_khr_command_buffer_mutable_dispatch that Encore uses";
    if (!k || !was || !rec.mutable_of[i]) return "mutable dispatch updates kernel nodes only";
    if (k->kernel.get() != was->kernel.get()) return "another kernel: mutable dispatch keeps a node's kernel";
    if (const auto* code = static_cast<const device_code*>(k->kernel->device_code("opencl"));
        code && code->outlined.geometry_dimensions != 0)
        return "an encore++ kernel's range is an argument of its entry, which the update does not set";
    launch_geometry g, before;
    try {
        g = geometry_of(backend_, device_, *k);
        before = geometry_of(backend_, device_, *was);
    } catch (const error& e) {
        return e.what(); // the recording again reports it
    }
    const auto fields = s.capabilities.mutable_fields;
    if (g.dimensions != before.dimensions || g.has_local != before.has_local)
        return "other dimensions, or a work-group size given or dropped";
    if (g.global != before.global && !(fields & CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR))
        return "the device cannot update a global size";
    if (g.local != before.local && !(fields & CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR))
        return "the device cannot update a local size";
    if (g.offset != before.offset && !(fields & CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR))
        return "the device cannot update a global offset";
    std::vector<cl_mutable_dispatch_arg_khr> arguments, svm_arguments;
    for (std::size_t a = 0; a < k->arguments.size(); ++a) {
        argument_form f;
        try {
            f = form_of(backend_, k->arguments[a], k->kernel->name(), a); // as the recording sets them
        } catch (const error& e) {
            return e.what(); // the recording again reports it
        }
        const auto index = static_cast<cl_uint>(a);
        if (f.pointer)
            svm_arguments.push_back({index, sizeof(void*), f.pointer});
        else
            arguments.push_back({index, f.size, f.value});
    }
    dispatch_update u;
    u.command = rec.mutable_of[i];
    u.arguments = arguments;
    u.svm_arguments = svm_arguments;
    u.work_dim = g.dimensions;
    if (fields & CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR) u.global_size = g.global.data();
    if (fields & CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR) u.global_offset = g.offset.data();
    if ((fields & CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR) && g.has_local) u.local_size = g.local.data();
    if (const cl_int r = s.command_buffers.update_dispatch(rec.buffer, u); r != CL_SUCCESS)
        return "clUpdateMutableCommandsKHR: " + detail::describe(r);
    backend_.trace("updated " + graph_.describe(partition_.nodes[i]) +
                   " in place (cl_khr_command_buffer_mutable_dispatch)");
    return {};
}

} // namespace encore::opencl

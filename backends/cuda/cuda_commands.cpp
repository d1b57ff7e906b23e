#include "cuda_commands.hpp"

#include <cstring>

#include "encore/backends/buffer.hpp"
#include "encore/backends/cuda/cuda_backend.hpp"
#include "encore/backends/cuda/cuda_recording.hpp"
#include "encore/graph/error.hpp"

namespace encore::cuda {

using detail::check;

void host_copy::run(void* self) {
    auto& c = *static_cast<host_copy*>(self);
    auto* from = static_cast<buffer*>(c.source.get());
    auto* to = static_cast<buffer*>(c.destination.get());
    std::memmove(to->data() + c.destination_offset, from->data() + c.source_offset, c.bytes);
}

void host_copy::run_once(void* self) {
    std::unique_ptr<host_copy> owned(static_cast<host_copy*>(self));
    run(owned.get());
}

namespace {

CUdeviceptr address(const void* p) {
    return reinterpret_cast<CUdeviceptr>(p);
}

CUDA_MEMSET_NODE_PARAMS memset_params(void* destination, unsigned value, unsigned element_size, std::size_t count) {
    CUDA_MEMSET_NODE_PARAMS p{};
    p.dst = address(destination);
    p.pitch = 0;
    p.value = value;
    p.elementSize = element_size;
    p.width = count;
    p.height = 1;
    return p;
}

void apply_advice(cuda_backend& backend, std::uint32_t device, const mem_advise_command& a) {
    if (backend.kind_of(a.pointer) != memory_kind::shared) return; // only managed memory takes advice
    if (a.advice < CU_MEM_ADVISE_SET_READ_MOSTLY || a.advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY) return;
    CUmemLocation where{};
    where.type = CU_MEM_LOCATION_TYPE_DEVICE;
    where.id = static_cast<int>(backend.device_handle(device));
    detail::context_scope scope(backend.context(device));
    check(cuMemAdvise(address(a.pointer), a.bytes, static_cast<CUmem_advise>(a.advice), where), "cuMemAdvise");
}

} // namespace

driver_command driver_command::from(cuda_backend& backend, std::uint32_t device, const command& c, bool in_graph) {
    driver_command d;
    switch (kind_of(c)) {
    case command_kind::kernel:
        d.form_ = form::kernel;
        d.launch_ = prepare_kernel_launch(backend, device, std::get<kernel_command>(c));
        break;
    case command_kind::memcpy: {
        const auto& m = std::get<memcpy_command>(c);
        d.form_ = form::memcpy;
        d.copy_ = {};
        d.copy_.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
        d.copy_.srcDevice = address(m.source);
        d.copy_.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
        d.copy_.dstDevice = address(m.destination);
        d.copy_.WidthInBytes = m.bytes;
        d.copy_.Height = 1;
        d.copy_.Depth = 1;
        d.bytes_ = m.bytes;
        if (m.bytes == 0) d.form_ = form::nothing;
        break;
    }
    case command_kind::memset: {
        const auto& m = std::get<memset_command>(c);
        if (m.bytes == 0) break;
        if (backend.kind_of(m.destination) == memory_kind::host) {
            const std::byte value{static_cast<unsigned char>(m.value)};
            d.form_ = form::kernel;
            d.launch_ = prepare_fill_launch(backend, device, m.destination, {&value, 1}, m.bytes);
        } else {
            d.form_ = form::memset;
            d.memset_ = memset_params(m.destination, static_cast<unsigned char>(m.value), 1, m.bytes);
        }
        break;
    }
    case command_kind::fill: {
        const auto& f = std::get<fill_command>(c);
        if (f.count == 0) break;
        const std::size_t size = f.pattern.size();
        const bool element = size == 1 || size == 2 || size == 4;
        const bool aligned = reinterpret_cast<std::uintptr_t>(f.destination) % size == 0;
        if (element && aligned && backend.kind_of(f.destination) != memory_kind::host) {
            unsigned value = 0;
            std::memcpy(&value, f.pattern.data(), size); // little-endian: the pattern's bytes in memory order
            d.form_ = form::memset;
            d.memset_ = memset_params(f.destination, value, static_cast<unsigned>(size), f.count);
        } else {
            d.form_ = form::kernel;
            d.launch_ = prepare_fill_launch(backend, device, f.destination, f.pattern, f.count);
        }
        break;
    }
    case command_kind::copy: {
        const auto& k = std::get<copy_command>(c);
        if (!dynamic_cast<buffer*>(k.source.get()) || !dynamic_cast<buffer*>(k.destination.get()))
            throw error(errc::feature_not_supported,
                        "copy: the cuda backend copies between encore::buffers only (memory objects with "
                        "runtime-owned host storage)");
        d.form_ = form::host_copy;
        d.host_copy_ = std::make_unique<host_copy>(
            host_copy{k.source, k.destination, k.source_offset, k.destination_offset, k.bytes});
        break;
    }
    case command_kind::prefetch: {
        const auto& p = std::get<prefetch_command>(c);
        if (!in_graph && p.bytes && backend.kind_of(p.pointer) == memory_kind::shared) {
            d.form_ = form::prefetch;
            d.pointer_ = p.pointer;
            d.bytes_ = p.bytes;
        }
        break;
    }
    case command_kind::mem_advise:
        apply_advice(backend, device, std::get<mem_advise_command>(c)); // now, eagerly and in graphs alike
        break;
    case command_kind::barrier:
    case command_kind::empty:
        break;
    case command_kind::native_graph: {
        const auto& n = std::get<native_graph_command>(c);
        const auto* captured = dynamic_cast<const cuda_native_graph*>(n.graph.get());
        if (!captured)
            throw error(errc::feature_not_supported, "cuda backend: a graph captured natively by the " +
                                                         std::string(n.graph->backend()) +
                                                         " backend runs only on that backend");
        if (captured->device() != device)
            throw error(errc::feature_not_supported, "cuda backend: a graph captured on cuda device " +
                                                         std::to_string(captured->device()) +
                                                         " runs only there, not on device " + std::to_string(device));
        if (!in_graph)
            throw error(errc::feature_not_supported, "cuda backend: a natively captured graph runs as a node of a "
                                                     "graph, not as an eager command");
        d.form_ = form::child_graph;
        d.child_ = std::static_pointer_cast<const cuda_native_graph>(n.graph);
        break;
    }
    case command_kind::host_task:
    case command_kind::subgraph:
        throw error(errc::invalid_argument, std::string("cuda backend: a ") + std::string(to_string(kind_of(c))) +
                                                " command reached the backend; the runtime runs host tasks and "
                                                "inlines subgraphs");
    }
    return d;
}

void driver_command::enqueue(CUstream stream, CUdevice device) {
    switch (form_) {
    case form::kernel:
        launch_.enqueue(stream);
        break;
    case form::memcpy:
        check(cuMemcpyAsync(copy_.dstDevice, copy_.srcDevice, bytes_, stream), "cuMemcpyAsync");
        break;
    case form::memset:
        switch (memset_.elementSize) {
        case 1:
            check(cuMemsetD8Async(memset_.dst, static_cast<unsigned char>(memset_.value), memset_.width, stream),
                  "cuMemsetD8Async");
            break;
        case 2:
            check(cuMemsetD16Async(memset_.dst, static_cast<unsigned short>(memset_.value), memset_.width, stream),
                  "cuMemsetD16Async");
            break;
        default:
            check(cuMemsetD32Async(memset_.dst, memset_.value, memset_.width, stream), "cuMemsetD32Async");
            break;
        }
        break;
    case form::host_copy:
        check(cuLaunchHostFunc(stream, &host_copy::run_once, host_copy_.get()), "cuLaunchHostFunc");
        static_cast<void>(host_copy_.release()); // run_once owns it now
        break;
    case form::prefetch: {
        CUmemLocation where{};
        where.type = CU_MEM_LOCATION_TYPE_DEVICE;
        where.id = static_cast<int>(device);
        check(cuMemPrefetchAsync(address(pointer_), bytes_, where, 0, stream), "cuMemPrefetchAsync");
        break;
    }
    case form::advise:
    case form::nothing:
    case form::child_graph: // from() refuses it eagerly
        break;
    }
}

CUgraphNode driver_command::add_to(CUgraph graph, std::span<const CUgraphNode> dependencies, CUcontext context) {
    CUgraphNode node = nullptr;
    const CUgraphNode* deps = dependencies.empty() ? nullptr : dependencies.data();
    switch (form_) {
    case form::kernel: {
        const auto params = launch_.node_params();
        check(cuGraphAddKernelNode(&node, graph, deps, dependencies.size(), &params), "cuGraphAddKernelNode");
        break;
    }
    case form::memcpy:
        check(cuGraphAddMemcpyNode(&node, graph, deps, dependencies.size(), &copy_, context), "cuGraphAddMemcpyNode");
        break;
    case form::memset:
        check(cuGraphAddMemsetNode(&node, graph, deps, dependencies.size(), &memset_, context), "cuGraphAddMemsetNode");
        break;
    case form::host_copy: {
        CUDA_HOST_NODE_PARAMS params{&host_copy::run, host_copy_.get()};
        check(cuGraphAddHostNode(&node, graph, deps, dependencies.size(), &params), "cuGraphAddHostNode");
        break;
    }
    case form::prefetch:
    case form::advise:
    case form::nothing:
        check(cuGraphAddEmptyNode(&node, graph, deps, dependencies.size()), "cuGraphAddEmptyNode");
        break;
    case form::child_graph:
        node = child_->add_to(graph, dependencies);
        break;
    }
    return node;
}

bool driver_command::set_in(CUgraphNode node, CUgraphExec exec, CUcontext context) {
    switch (form_) {
    case form::kernel: {
        const auto params = launch_.node_params();
        check(cuGraphKernelNodeSetParams(node, &params), "cuGraphKernelNodeSetParams");
        return !exec || cuGraphExecKernelNodeSetParams(exec, node, &params) == CUDA_SUCCESS;
    }
    case form::memcpy:
        check(cuGraphMemcpyNodeSetParams(node, &copy_), "cuGraphMemcpyNodeSetParams");
        return !exec || cuGraphExecMemcpyNodeSetParams(exec, node, &copy_, context) == CUDA_SUCCESS;
    case form::memset:
        check(cuGraphMemsetNodeSetParams(node, &memset_), "cuGraphMemsetNodeSetParams");
        return !exec || cuGraphExecMemsetNodeSetParams(exec, node, &memset_, context) == CUDA_SUCCESS;
    case form::host_copy: {
        CUDA_HOST_NODE_PARAMS params{&host_copy::run, host_copy_.get()};
        check(cuGraphHostNodeSetParams(node, &params), "cuGraphHostNodeSetParams");
        return !exec || cuGraphExecHostNodeSetParams(exec, node, &params) == CUDA_SUCCESS;
    }
    case form::prefetch:
    case form::advise:
    case form::nothing:
        return true;
    case form::child_graph:
        return false;
    }
    return true;
}

} // namespace encore::cuda

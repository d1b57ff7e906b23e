// The CUDA driver API behind encore::gpu::driver (backends/gpu/driver.hpp), and the entry point of the plugin
// libencore-backend-cuda.so: the GPU layer's backend on this driver.
//
// The plugin links the driver stub, so libcuda.so.1 is loaded with the plugin; without it the registry reports
// why the plugin could not be loaded. Handles are CUDA's own pointers behind the layer's opaque types.
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "encore/backends/gpu/driver.hpp"
#include "encore/backends/cuda/nvrtc_program.hpp"
#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/graph/error.hpp"

// The PTX of fill_kernels.cu, embedded at build time (meson.build).
extern const char encore_cuda_fill_ptx[];

namespace encore::cuda {

namespace {

// "CUDA_ERROR_INVALID_VALUE (invalid argument)".
std::string describe(CUresult result) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = "unknown CUresult";
    if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text) text = "no description";
    return std::string(name) + " (" + text + ")";
}

void check(CUresult result, const char* call, const std::string& what = {}) {
    if (result == CUDA_SUCCESS) return;
    std::string message = std::string(call) + ": " + describe(result);
    if (!what.empty()) message += " [" + what + "]";
    throw error(errc::backend_failure, message);
}

// The layer's opaque handles are CUDA's pointers.
template <typename To, typename From> To as(From handle) noexcept {
    return reinterpret_cast<To>(handle);
}

CUdeviceptr address(const void* p) noexcept {
    return reinterpret_cast<CUdeviceptr>(p);
}

// Dependencies as the driver takes them: a pointer (null when there are none) and a count.
const CUgraphNode* nodes(std::span<const gpu::driver_graph_node> after) noexcept {
    return after.empty() ? nullptr : reinterpret_cast<const CUgraphNode*>(after.data());
}

CUDA_KERNEL_NODE_PARAMS kernel_node(const gpu::kernel_params& p) {
    CUDA_KERNEL_NODE_PARAMS k{};
    k.func = as<CUfunction>(p.entry);
    k.gridDimX = p.grid[0];
    k.gridDimY = p.grid[1];
    k.gridDimZ = p.grid[2];
    k.blockDimX = p.block[0];
    k.blockDimY = p.block[1];
    k.blockDimZ = p.block[2];
    k.sharedMemBytes = p.shared_bytes;
    k.kernelParams = p.arguments;
    return k;
}

CUDA_MEMCPY3D copy_node(const gpu::memcpy_params& p) {
    CUDA_MEMCPY3D c{};
    c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
    c.srcDevice = address(p.source);
    c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    c.dstDevice = address(p.destination);
    c.WidthInBytes = p.bytes;
    c.Height = 1;
    c.Depth = 1;
    return c;
}

CUDA_MEMSET_NODE_PARAMS set_node(const gpu::memset_params& p) {
    CUDA_MEMSET_NODE_PARAMS m{};
    m.dst = address(p.destination);
    m.value = p.value;
    m.elementSize = p.element_size;
    m.width = p.count;
    m.height = 1;
    return m;
}

int attribute(CUdevice d, CUdevice_attribute a) {
    int value = 0;
    check(cuDeviceGetAttribute(&value, a, d), "cuDeviceGetAttribute");
    return value;
}

class cuda_driver final : public gpu::driver {
public:
    std::string_view name() const noexcept override { return "cuda"; }

    std::uint32_t device_count() override {
        int count = 0;
        check(cuDeviceGetCount(&count), "cuDeviceGetCount");
        return static_cast<std::uint32_t>(count);
    }

    device_properties properties(std::uint32_t device) override {
        const CUdevice d = handle(device);
        device_properties p;
        char name[256] = {};
        check(cuDeviceGetName(name, sizeof name, d), "cuDeviceGetName");
        p.name = name;
        p.vendor = "NVIDIA Corporation";
        int driver = 0;
        check(cuDriverGetVersion(&driver), "cuDriverGetVersion");
        const int major = attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
        const int minor = attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        p.driver_version = "CUDA " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10) +
                           " (compute capability " + std::to_string(major) + "." + std::to_string(minor) + ")";
        p.architecture = "sm_" + std::to_string(major) + std::to_string(minor);
        p.type = device_type::gpu;
        p.compute_units = static_cast<std::uint32_t>(attribute(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
        std::size_t bytes = 0;
        check(cuDeviceTotalMem(&bytes, d), "cuDeviceTotalMem");
        p.global_memory_bytes = bytes;
        p.local_memory_bytes = static_cast<std::size_t>(attribute(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
        p.max_work_group_size = static_cast<std::size_t>(attribute(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
        p.allocation_alignment = 256; // cuMemAlloc's guarantee
        p.profiling = true;
        p.native_graphs = true;
        p.native_recording = true;
        p.graph_lowering = "CUDA graph";
        // Encore's sub-groups are warps on CUDA (sycl/sub_group.hpp).
        p.sub_group_sizes = {static_cast<std::uint32_t>(attribute(d, CU_DEVICE_ATTRIBUTE_WARP_SIZE))};
        return p;
    }

    gpu::driver_context retain_context(std::uint32_t device) override {
        CUcontext c = nullptr;
        check(cuDevicePrimaryCtxRetain(&c, handle(device)), "cuDevicePrimaryCtxRetain");
        return as<gpu::driver_context>(c);
    }
    void release_context(std::uint32_t device) noexcept override {
        CUdevice d = 0;
        if (cuDeviceGet(&d, static_cast<int>(device)) == CUDA_SUCCESS) static_cast<void>(cuDevicePrimaryCtxRelease(d));
    }
    bool enable_peer_access(std::uint32_t device, std::uint32_t peer, gpu::driver_context peer_context) override {
        int can = 0;
        check(cuDeviceCanAccessPeer(&can, handle(device), handle(peer)), "cuDeviceCanAccessPeer");
        if (!can) return false;
        const CUresult r = cuCtxEnablePeerAccess(as<CUcontext>(peer_context), 0);
        if (r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) return true;
        check(r, "cuCtxEnablePeerAccess");
        return true;
    }
    gpu::driver_context current_context() override {
        CUcontext c = nullptr;
        check(cuCtxGetCurrent(&c), "cuCtxGetCurrent");
        return as<gpu::driver_context>(c);
    }
    void set_current_context(gpu::driver_context c) override {
        check(cuCtxSetCurrent(as<CUcontext>(c)), "cuCtxSetCurrent");
    }

    void* allocate(memory_kind kind, std::size_t bytes, const std::string& what) override {
        switch (kind) {
        case memory_kind::device: {
            CUdeviceptr p = 0;
            check(cuMemAlloc(&p, bytes), "cuMemAlloc", what);
            return reinterpret_cast<void*>(p);
        }
        case memory_kind::host: {
            void* p = nullptr;
            check(cuMemAllocHost(&p, bytes), "cuMemAllocHost", what);
            return p;
        }
        case memory_kind::shared: {
            CUdeviceptr p = 0;
            check(cuMemAllocManaged(&p, bytes, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged", what);
            return reinterpret_cast<void*>(p);
        }
        }
        throw error(errc::invalid_argument, "cuda allocation: unknown memory kind");
    }
    void free(memory_kind kind, void* base) override {
        if (kind == memory_kind::host)
            check(cuMemFreeHost(base), "cuMemFreeHost");
        else
            check(cuMemFree(address(base)), "cuMemFree");
    }
    std::string compile_portable(const void* code, std::size_t bytes, const std::string& what) override {
        CUlinkState state = nullptr;
        check(cuLinkCreate(0, nullptr, nullptr, &state), "cuLinkCreate", what);
        struct destroy {
            CUlinkState s;
            ~destroy() { cuLinkDestroy(s); }
        } guard{state};
        // One module per NUL-terminated piece (relocatable PTX of several sources: their device link).
        const char* text = static_cast<const char*>(code);
        for (std::size_t at = 0; at < bytes;) {
            const std::size_t length = std::char_traits<char>::length(text + at);
            if (length > 0)
                check(cuLinkAddData(state, CU_JIT_INPUT_PTX, const_cast<char*>(text + at), length + 1, "kernels.ptx", 0,
                                    nullptr, nullptr),
                      "cuLinkAddData", what);
            at += length + 1;
        }
        void* cubin = nullptr;
        std::size_t size = 0;
        check(cuLinkComplete(state, &cubin, &size), "cuLinkComplete", what);
        return std::string(static_cast<const char*>(cubin), size); // the state owns cubin: copied before destroy
    }
    std::optional<source_language> runtime_language() const noexcept override { return source_language::cuda; }
    // NVRTC (nvrtc_program.hpp); without -arch, for `device`'s architecture: a cubin, which the kernel/program
    // cache keeps, so a later build of the same source pays neither NVRTC nor the driver's PTX compiler.
    gpu::program_binary compile_source(std::uint32_t device, std::string_view source,
                                       std::span<const std::string> options) override {
        std::vector<std::string> effective(options.begin(), options.end());
        const bool has_arch = std::any_of(effective.begin(), effective.end(), [](const std::string& o) {
            return o.rfind("-arch", 0) == 0 || o.rfind("--gpu-architecture", 0) == 0;
        });
        if (!has_arch) effective.push_back("-arch=" + properties(device).architecture);
        return build_program(source, effective, "sycl_kernel_source.cu");
    }
    void zero(void* p, std::size_t bytes) override { check(cuMemsetD8(address(p), 0, bytes), "cuMemsetD8"); }
    void* allocate_async(gpu::driver_stream s, std::size_t bytes) override {
        CUdeviceptr p = 0;
        check(cuMemAllocAsync(&p, bytes, as<CUstream>(s)), "cuMemAllocAsync", std::to_string(bytes) + " bytes of kernel scratch");
        return reinterpret_cast<void*>(p);
    }
    void free_async(gpu::driver_stream s, void* p) override {
        check(cuMemFreeAsync(address(p), as<CUstream>(s)), "cuMemFreeAsync");
    }
    bool advise(const void* pointer, std::size_t bytes, int advice, std::uint32_t device) override {
        if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY) return false;
        CUmemLocation where{};
        where.type = CU_MEM_LOCATION_TYPE_DEVICE;
        where.id = static_cast<int>(handle(device));
        check(cuMemAdvise(address(pointer), bytes, static_cast<CUmem_advise>(advice), where), "cuMemAdvise");
        return true;
    }

    gpu::driver_stream create_stream() override {
        CUstream s = nullptr;
        check(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
        return as<gpu::driver_stream>(s);
    }
    void destroy_stream(gpu::driver_stream s) noexcept override { static_cast<void>(cuStreamDestroy(as<CUstream>(s))); }
    void wait_event(gpu::driver_stream s, gpu::driver_event e) override {
        check(cuStreamWaitEvent(as<CUstream>(s), as<CUevent>(e), 0), "cuStreamWaitEvent");
    }
    void launch_kernel(gpu::driver_stream s, const gpu::kernel_params& p) override {
        check(cuLaunchKernel(as<CUfunction>(p.entry), p.grid[0], p.grid[1], p.grid[2], p.block[0], p.block[1],
                             p.block[2], p.shared_bytes, as<CUstream>(s), p.arguments, nullptr),
              "cuLaunchKernel");
    }
    void copy(gpu::driver_stream s, const gpu::memcpy_params& p) override {
        check(cuMemcpyAsync(address(p.destination), address(p.source), p.bytes, as<CUstream>(s)), "cuMemcpyAsync");
    }
    void set(gpu::driver_stream s, const gpu::memset_params& p) override {
        const CUdeviceptr to = address(p.destination);
        switch (p.element_size) {
        case 1:
            check(cuMemsetD8Async(to, static_cast<unsigned char>(p.value), p.count, as<CUstream>(s)), "cuMemsetD8Async");
            break;
        case 2:
            check(cuMemsetD16Async(to, static_cast<unsigned short>(p.value), p.count, as<CUstream>(s)),
                  "cuMemsetD16Async");
            break;
        default:
            check(cuMemsetD32Async(to, p.value, p.count, as<CUstream>(s)), "cuMemsetD32Async");
            break;
        }
    }
    void prefetch(gpu::driver_stream s, const void* pointer, std::size_t bytes, std::uint32_t device) override {
        CUmemLocation where{};
        where.type = CU_MEM_LOCATION_TYPE_DEVICE;
        where.id = static_cast<int>(handle(device));
        check(cuMemPrefetchAsync(address(pointer), bytes, where, 0, as<CUstream>(s)), "cuMemPrefetchAsync");
    }
    void launch_host_function(gpu::driver_stream s, gpu::host_function f, void* data) override {
        check(cuLaunchHostFunc(as<CUstream>(s), f, data), "cuLaunchHostFunc");
    }

    gpu::driver_event create_event(bool timing) override {
        CUevent e = nullptr;
        check(cuEventCreate(&e, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING), "cuEventCreate");
        return as<gpu::driver_event>(e);
    }
    void destroy_event(gpu::driver_event e) noexcept override { static_cast<void>(cuEventDestroy(as<CUevent>(e))); }
    void record(gpu::driver_event e, gpu::driver_stream s) override {
        check(cuEventRecord(as<CUevent>(e), as<CUstream>(s)), "cuEventRecord");
    }
    bool query(gpu::driver_event e) noexcept override { return cuEventQuery(as<CUevent>(e)) != CUDA_ERROR_NOT_READY; }
    void synchronize(gpu::driver_event e) override { check(cuEventSynchronize(as<CUevent>(e)), "cuEventSynchronize"); }
    float elapsed_ms(gpu::driver_event from, gpu::driver_event to) override {
        float ms = 0;
        check(cuEventElapsedTime(&ms, as<CUevent>(from), as<CUevent>(to)), "cuEventElapsedTime");
        return ms;
    }

    gpu::driver_module load_module(const void* image, const std::string& what) override {
        CUmodule m = nullptr;
        check(cuModuleLoadData(&m, image), "cuModuleLoadData", what);
        return as<gpu::driver_module>(m);
    }
    void unload_module(gpu::driver_module m) noexcept override { static_cast<void>(cuModuleUnload(as<CUmodule>(m))); }
    void* module_global(gpu::driver_module m, const char* name, std::size_t* bytes, const std::string& what) override {
        CUdeviceptr p = 0;
        check(cuModuleGetGlobal(&p, bytes, as<CUmodule>(m), name), "cuModuleGetGlobal", what);
        return reinterpret_cast<void*>(p);
    }
    void read(void* host, const void* device_memory, std::size_t bytes) override {
        check(cuMemcpyDtoH(host, address(device_memory), bytes), "cuMemcpyDtoH");
    }
    gpu::driver_function get_function(gpu::driver_module m, const char* entry, const std::string& what) override {
        CUfunction f = nullptr;
        check(cuModuleGetFunction(&f, as<CUmodule>(m), entry), "cuModuleGetFunction", what);
        return as<gpu::driver_function>(f);
    }
    gpu::driver_module load_fill_module() override { return load_module(encore_cuda_fill_ptx, "the cuda backend's fill kernel"); }

    gpu::driver_graph create_graph() override {
        CUgraph g = nullptr;
        check(cuGraphCreate(&g, 0), "cuGraphCreate");
        return as<gpu::driver_graph>(g);
    }
    void destroy_graph(gpu::driver_graph g) noexcept override { static_cast<void>(cuGraphDestroy(as<CUgraph>(g))); }
    gpu::driver_graph_node add_kernel_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after,
                                    const gpu::kernel_params& p) override {
        const auto params = kernel_node(p);
        CUgraphNode n = nullptr;
        check(cuGraphAddKernelNode(&n, as<CUgraph>(g), nodes(after), after.size(), &params), "cuGraphAddKernelNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_copy_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after, const gpu::memcpy_params& p,
                                  gpu::driver_context c) override {
        const auto params = copy_node(p);
        CUgraphNode n = nullptr;
        check(cuGraphAddMemcpyNode(&n, as<CUgraph>(g), nodes(after), after.size(), &params, as<CUcontext>(c)),
              "cuGraphAddMemcpyNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_set_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after, const gpu::memset_params& p,
                                 gpu::driver_context c) override {
        const auto params = set_node(p);
        CUgraphNode n = nullptr;
        check(cuGraphAddMemsetNode(&n, as<CUgraph>(g), nodes(after), after.size(), &params, as<CUcontext>(c)),
              "cuGraphAddMemsetNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_host_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after, gpu::host_function f,
                                  void* data) override {
        const CUDA_HOST_NODE_PARAMS params{f, data};
        CUgraphNode n = nullptr;
        check(cuGraphAddHostNode(&n, as<CUgraph>(g), nodes(after), after.size(), &params), "cuGraphAddHostNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_empty_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after) override {
        CUgraphNode n = nullptr;
        check(cuGraphAddEmptyNode(&n, as<CUgraph>(g), nodes(after), after.size()), "cuGraphAddEmptyNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_child_graph_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after,
                                         gpu::driver_graph child) override {
        CUgraphNode n = nullptr;
        check(cuGraphAddChildGraphNode(&n, as<CUgraph>(g), nodes(after), after.size(), as<CUgraph>(child)),
              "cuGraphAddChildGraphNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_event_record_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after,
                                                 gpu::driver_event e) override {
        CUgraphNode n = nullptr;
        check(cuGraphAddEventRecordNode(&n, as<CUgraph>(g), nodes(after), after.size(), as<CUevent>(e)),
              "cuGraphAddEventRecordNode");
        return as<gpu::driver_graph_node>(n);
    }
    void set_event_record_node(gpu::driver_graph_exec exec, gpu::driver_graph_node n, gpu::driver_event e) override {
        check(cuGraphExecEventRecordNodeSetEvent(as<CUgraphExec>(exec), as<CUgraphNode>(n), as<CUevent>(e)),
              "cuGraphExecEventRecordNodeSetEvent");
    }
    bool set_kernel_node(gpu::driver_graph_node n, gpu::driver_graph_exec exec, const gpu::kernel_params& p) override {
        const auto params = kernel_node(p);
        check(cuGraphKernelNodeSetParams(as<CUgraphNode>(n), &params), "cuGraphKernelNodeSetParams");
        return !exec ||
               cuGraphExecKernelNodeSetParams(as<CUgraphExec>(exec), as<CUgraphNode>(n), &params) == CUDA_SUCCESS;
    }
    bool set_copy_node(gpu::driver_graph_node n, gpu::driver_graph_exec exec, const gpu::memcpy_params& p, gpu::driver_context c) override {
        const auto params = copy_node(p);
        check(cuGraphMemcpyNodeSetParams(as<CUgraphNode>(n), &params), "cuGraphMemcpyNodeSetParams");
        return !exec || cuGraphExecMemcpyNodeSetParams(as<CUgraphExec>(exec), as<CUgraphNode>(n), &params,
                                                       as<CUcontext>(c)) == CUDA_SUCCESS;
    }
    bool set_set_node(gpu::driver_graph_node n, gpu::driver_graph_exec exec, const gpu::memset_params& p, gpu::driver_context c) override {
        const auto params = set_node(p);
        check(cuGraphMemsetNodeSetParams(as<CUgraphNode>(n), &params), "cuGraphMemsetNodeSetParams");
        return !exec || cuGraphExecMemsetNodeSetParams(as<CUgraphExec>(exec), as<CUgraphNode>(n), &params,
                                                       as<CUcontext>(c)) == CUDA_SUCCESS;
    }
    bool set_host_node(gpu::driver_graph_node n, gpu::driver_graph_exec exec, gpu::host_function f, void* data) override {
        const CUDA_HOST_NODE_PARAMS params{f, data};
        check(cuGraphHostNodeSetParams(as<CUgraphNode>(n), &params), "cuGraphHostNodeSetParams");
        return !exec ||
               cuGraphExecHostNodeSetParams(as<CUgraphExec>(exec), as<CUgraphNode>(n), &params) == CUDA_SUCCESS;
    }
    gpu::driver_graph_exec instantiate(gpu::driver_graph g) override {
        CUgraphExec e = nullptr;
        check(cuGraphInstantiate(&e, as<CUgraph>(g), 0), "cuGraphInstantiate");
        return as<gpu::driver_graph_exec>(e);
    }
    void destroy_exec(gpu::driver_graph_exec e) noexcept override { static_cast<void>(cuGraphExecDestroy(as<CUgraphExec>(e))); }
    bool update_exec(gpu::driver_graph_exec exec, gpu::driver_graph g, std::string& why_not) override {
        CUgraphExecUpdateResultInfo info{};
        const CUresult r = cuGraphExecUpdate(as<CUgraphExec>(exec), as<CUgraph>(g), &info);
        if (r == CUDA_SUCCESS) return true;
        why_not = "cuGraphExecUpdate: " + describe(r) + ", update result " + std::to_string(static_cast<int>(info.result));
        return false;
    }
    void launch_graph(gpu::driver_graph_exec exec, gpu::driver_stream s) override {
        check(cuGraphLaunch(as<CUgraphExec>(exec), as<CUstream>(s)), "cuGraphLaunch");
    }

    void begin_capture(gpu::driver_stream s) override {
        check(cuStreamBeginCapture(as<CUstream>(s), CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture");
    }
    gpu::driver_graph end_capture(gpu::driver_stream s, bool may_fail) override {
        CUgraph g = nullptr;
        const CUresult r = cuStreamEndCapture(as<CUstream>(s), &g);
        if (!may_fail) check(r, "cuStreamEndCapture");
        return as<gpu::driver_graph>(g);
    }
    void set_capture_dependencies(gpu::driver_stream s, std::span<const gpu::driver_graph_node> after) override {
        check(cuStreamUpdateCaptureDependencies(as<CUstream>(s), const_cast<CUgraphNode*>(nodes(after)), nullptr,
                                                after.size(), CU_STREAM_SET_CAPTURE_DEPENDENCIES),
              "cuStreamUpdateCaptureDependencies");
    }
    std::vector<gpu::driver_graph_node> capture_dependencies(gpu::driver_stream s) override {
        CUstreamCaptureStatus status{};
        const CUgraphNode* added = nullptr;
        std::size_t count = 0;
        check(cuStreamGetCaptureInfo(as<CUstream>(s), &status, nullptr, nullptr, &added, nullptr, &count),
              "cuStreamGetCaptureInfo");
        if (status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
            throw error(errc::backend_failure, "cuda native recording: the stream stopped capturing");
        std::vector<gpu::driver_graph_node> tail(count);
        for (std::size_t i = 0; i < count; ++i)
            tail[i] = as<gpu::driver_graph_node>(added[i]);
        return tail;
    }

    std::string missing_code_reason() const override {
        return "has no CUDA code (it was not compiled by nvcc through backends/cuda/single_source.hpp nor built by "
               "NVRTC)";
    }

private:
    static CUdevice handle(std::uint32_t device) {
        CUdevice d = 0;
        check(cuDeviceGet(&d, static_cast<int>(device)), "cuDeviceGet");
        return d;
    }
};

} // namespace

} // namespace encore::cuda

extern "C" ENCORE_BACKEND_EXPORT void encore_backend_entry(encore::backend_plugin_request* request) {
    if (request->interface_version != encore::backend_interface_version) return;
    std::string why_not;
    if (const CUresult r = cuInit(0); r != CUDA_SUCCESS) {
        request->unavailable_reason = "cuInit: " + encore::cuda::describe(r);
        return;
    }
    auto backend = encore::gpu::gpu_backend::create(std::make_unique<encore::cuda::cuda_driver>(), why_not);
    if (!backend) {
        request->unavailable_reason = why_not;
        return;
    }
    request->instance = std::move(backend);
}

// HIP (AMD platform) behind encore::gpu::driver (backends/gpu/driver.hpp), and the entry point of the plugin
// libencore-backend-hip.so: the GPU layer's backend on HIP.
//
// The plugin loads libamdhip64 itself (hip_library.hpp) in its entry point: without it, or without an AMD GPU,
// the registry is told why (hipInit's or hipGetDeviceCount's own error) and the program runs on its other
// backends. HIP's handles are the layer's opaque handles. Contexts are HIP's primary contexts (hipDevicePrimary-
// CtxRetain, hipCtxSetCurrent: deprecated by HIP but present in every ROCm release, and what keeps one code path
// with CUDA). The fill kernel (backends/gpu/fill_kernels.cu) is compiled by hiprtc for the device's architecture
// the first time a fill needs it. What ran where: docs/hip-backend.md.
#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "encore/backends/gpu/driver.hpp"
#include "encore/backends/gpu/gpu_backend.hpp"
#include "encore/backends/gpu/runtime_compiler.hpp"
#include "encore/backends/hip/hip_library.hpp"
#include "encore/graph/error.hpp"

// The source of backends/gpu/fill_kernels.cu, embedded at build time (meson.build).
extern const char encore_hip_fill_source[];

namespace encore::hip {

namespace {

// The entry points the plugin uses: X(name) for those whose type decltype can name, and the overloaded
// allocation calls (the header adds templates of the same names) by their C signatures.
#define ENCORE_HIP_RUNTIME(X)                                                                                         \
    X(hipInit) X(hipGetDevice) X(hipGetErrorName) X(hipGetErrorString) X(hipGetDeviceCount) X(hipDeviceGet)           \
    X(hipDeviceCanAccessPeer) X(hipDeviceEnablePeerAccess)                                                            \
    X(hipGetDeviceProperties) X(hipDriverGetVersion) X(hipDevicePrimaryCtxRetain) X(hipDevicePrimaryCtxRelease)       \
    X(hipCtxGetCurrent) X(hipCtxSetCurrent) X(hipFree) X(hipHostFree) X(hipMemAdvise) X(hipStreamCreateWithFlags)     \
    X(hipStreamDestroy) X(hipStreamWaitEvent) X(hipModuleLaunchKernel) X(hipMemcpyAsync) X(hipMemsetD8Async)          \
    X(hipMemsetD16Async) X(hipMemsetD32Async) X(hipMemPrefetchAsync) X(hipEventCreateWithFlags)  \
    X(hipEventDestroy) X(hipEventRecord) X(hipEventQuery) X(hipEventSynchronize) X(hipEventElapsedTime)               \
    X(hipModuleLoadData) X(hipModuleUnload) X(hipModuleGetFunction) X(hipGraphCreate) X(hipGraphDestroy)              \
    X(hipGraphAddKernelNode) X(hipGraphAddMemcpyNode1D) X(hipGraphAddMemsetNode) X(hipGraphAddHostNode)               \
    X(hipGraphAddEmptyNode) X(hipGraphAddChildGraphNode) X(hipGraphKernelNodeSetParams)                               \
    X(hipGraphAddEventRecordNode) X(hipGraphExecEventRecordNodeSetEvent)                                              \
    X(hipGraphExecKernelNodeSetParams) X(hipGraphMemcpyNodeSetParams1D) X(hipGraphExecMemcpyNodeSetParams1D)          \
    X(hipGraphMemsetNodeSetParams) X(hipGraphExecMemsetNodeSetParams) X(hipGraphHostNodeSetParams)                    \
    X(hipGraphExecHostNodeSetParams) X(hipGraphInstantiate) X(hipGraphExecDestroy) X(hipGraphExecUpdate)              \
    X(hipGraphLaunch) X(hipStreamBeginCapture) X(hipStreamEndCapture) X(hipStreamUpdateCaptureDependencies)           \
    X(hipStreamGetCaptureInfo_v2) X(hipModuleGetGlobal) X(hipMemcpyDtoH)
#define ENCORE_HIP_RTC(X)                                                                                             \
    X(hiprtcGetErrorString) X(hiprtcCreateProgram) X(hiprtcDestroyProgram) X(hiprtcCompileProgram)                    \
    X(hiprtcGetProgramLogSize) X(hiprtcGetProgramLog) X(hiprtcGetCodeSize) X(hiprtcGetCode)

// The context calls are deprecated by HIP (see the top of this file for why they are used): naming their types
// here is what would warn.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
struct hip_api {
    void* library = nullptr;
    std::string missing; // why it cannot be used
#define ENCORE_HIP_MEMBER(name) decltype(&::name) name = nullptr;
    ENCORE_HIP_RUNTIME(ENCORE_HIP_MEMBER)
    ENCORE_HIP_RTC(ENCORE_HIP_MEMBER)
#undef ENCORE_HIP_MEMBER
    decltype(&::hipLaunchHostFunc) hipLaunchHostFunc = nullptr; // optional: ROCm 5.2 does not export it
    hipError_t (*hipMalloc)(void**, std::size_t) = nullptr;
    hipError_t (*hipHostMalloc)(void**, std::size_t, unsigned) = nullptr;
    hipError_t (*hipMallocManaged)(void**, std::size_t, unsigned) = nullptr;
    hipError_t (*hipMemsetD8)(hipDeviceptr_t, unsigned char, std::size_t) = nullptr;
    // Optional (stream-ordered allocation, a kernel's scratch): a runtime without them runs no reduction.
    hipError_t (*hipMallocAsync)(void**, std::size_t, hipStream_t) = nullptr;
    hipError_t (*hipFreeAsync)(void*, hipStream_t) = nullptr;

    // For gpu::run_compiler (the fill kernel).
    using program = hiprtcProgram;
    static constexpr hiprtcResult success = HIPRTC_SUCCESS;
    static constexpr hiprtcResult compilation_error = HIPRTC_ERROR_COMPILATION;
    static constexpr const char* prefix = "hiprtc";
    decltype(&::hiprtcCreateProgram) create_program = nullptr;
    decltype(&::hiprtcDestroyProgram) destroy_program = nullptr;
    decltype(&::hiprtcCompileProgram) compile_program = nullptr;
    decltype(&::hiprtcGetProgramLogSize) get_log_size = nullptr;
    decltype(&::hiprtcGetProgramLog) get_log = nullptr;
    decltype(&::hiprtcGetErrorString) get_error_string = nullptr;
};
#pragma GCC diagnostic pop

std::unique_ptr<hip_api> load_api(std::string& why_not) {
    auto api = std::make_unique<hip_api>();
    api->library = open_hip_library(why_not);
    if (!api->library) return nullptr;
#define ENCORE_HIP_BIND(name) bind_symbol(api->library, api->name, #name, api->missing);
    ENCORE_HIP_RUNTIME(ENCORE_HIP_BIND)
    ENCORE_HIP_RTC(ENCORE_HIP_BIND)
    ENCORE_HIP_BIND(hipMalloc)
    ENCORE_HIP_BIND(hipHostMalloc)
    ENCORE_HIP_BIND(hipMallocManaged)
    ENCORE_HIP_BIND(hipMemsetD8)
#undef ENCORE_HIP_BIND
    if (!api->missing.empty()) {
        why_not = api->missing;
        return nullptr;
    }
    std::string optional;
    bind_symbol(api->library, api->hipLaunchHostFunc, "hipLaunchHostFunc", optional);
    bind_symbol(api->library, api->hipMallocAsync, "hipMallocAsync", optional);
    bind_symbol(api->library, api->hipFreeAsync, "hipFreeAsync", optional);
    api->create_program = api->hiprtcCreateProgram;
    api->destroy_program = api->hiprtcDestroyProgram;
    api->compile_program = api->hiprtcCompileProgram;
    api->get_log_size = api->hiprtcGetProgramLogSize;
    api->get_log = api->hiprtcGetProgramLog;
    api->get_error_string = api->hiprtcGetErrorString;
    return api;
}

template <typename To, typename From> To as(From handle) noexcept {
    return reinterpret_cast<To>(handle);
}

hipGraphNode_t* nodes(std::span<const gpu::driver_graph_node> after) noexcept {
    return after.empty() ? nullptr : const_cast<hipGraphNode_t*>(reinterpret_cast<const hipGraphNode_t*>(after.data()));
}

hipKernelNodeParams kernel_node(const gpu::kernel_params& p) {
    hipKernelNodeParams k{};
    k.func = reinterpret_cast<void*>(p.entry);
    k.gridDim = dim3(p.grid[0], p.grid[1], p.grid[2]);
    k.blockDim = dim3(p.block[0], p.block[1], p.block[2]);
    k.sharedMemBytes = p.shared_bytes;
    k.kernelParams = p.arguments;
    return k;
}

hipMemsetParams set_node(const gpu::memset_params& p) {
    hipMemsetParams m{};
    m.dst = p.destination;
    m.value = p.value;
    m.elementSize = p.element_size;
    m.width = p.count;
    m.height = 1;
    return m;
}

class hip_driver final : public gpu::driver {
public:
    explicit hip_driver(std::unique_ptr<hip_api> api) : api_(std::move(api)) {}

    // "hipErrorNoDevice (no ROCm-capable device is detected)".
    std::string describe(hipError_t result) const {
        const char* name = api_->hipGetErrorName(result);
        const char* text = api_->hipGetErrorString(result);
        return std::string(name ? name : "unknown hipError_t") + " (" + (text ? text : "no description") + ")";
    }
    void check(hipError_t result, const char* call, const std::string& what = {}) const {
        if (result == hipSuccess) return;
        std::string message = std::string(call) + ": " + describe(result);
        if (!what.empty()) message += " [" + what + "]";
        throw error(errc::backend_failure, message);
    }

    hipError_t init() const { return api_->hipInit(0); }

    std::string_view name() const noexcept override { return "hip"; }

    std::uint32_t device_count() override {
        int count = 0;
        check(api_->hipGetDeviceCount(&count), "hipGetDeviceCount");
        return static_cast<std::uint32_t>(count);
    }

    device_properties properties(std::uint32_t device) override {
        hipDeviceProp_t d{};
        check(api_->hipGetDeviceProperties(&d, static_cast<int>(device)), "hipGetDeviceProperties");
        device_properties p;
        p.name = d.name;
        p.vendor = "Advanced Micro Devices, Inc.";
        int version = 0;
        check(api_->hipDriverGetVersion(&version), "hipDriverGetVersion");
        p.architecture = d.gcnArchName; // "gfx90a:sramecc+:xnack-"
        p.driver_version = "HIP " + std::to_string(version) + " (" + p.architecture + ")";
        p.type = device_type::gpu;
        p.compute_units = static_cast<std::uint32_t>(d.multiProcessorCount);
        p.global_memory_bytes = d.totalGlobalMem;
        p.local_memory_bytes = d.sharedMemPerBlock;
        p.max_work_group_size = static_cast<std::size_t>(d.maxThreadsPerBlock);
        p.allocation_alignment = 256;
        p.profiling = true;
        p.native_graphs = true;
        p.native_recording = true;
        p.graph_lowering = "HIP graph";
        p.sub_group_sizes = {static_cast<std::uint32_t>(d.warpSize)}; // hiprtc kernels run in wavefronts
        return p;
    }

    gpu::driver_context retain_context(std::uint32_t device) override {
        hipCtx_t c = nullptr;
        check(api_->hipDevicePrimaryCtxRetain(&c, handle(device)), "hipDevicePrimaryCtxRetain");
        return as<gpu::driver_context>(c);
    }
    void release_context(std::uint32_t device) noexcept override {
        hipDevice_t d = 0;
        if (api_->hipDeviceGet(&d, static_cast<int>(device)) == hipSuccess)
            static_cast<void>(api_->hipDevicePrimaryCtxRelease(d));
    }
    // HIP enables peer access for the current device (the one of the current context, here `device`'s).
    bool enable_peer_access(std::uint32_t device, std::uint32_t peer, gpu::driver_context) override {
        int can = 0;
        check(api_->hipDeviceCanAccessPeer(&can, static_cast<int>(device), static_cast<int>(peer)),
              "hipDeviceCanAccessPeer");
        if (!can) return false;
        const hipError_t r = api_->hipDeviceEnablePeerAccess(static_cast<int>(peer), 0);
        if (r == hipErrorPeerAccessAlreadyEnabled) return true;
        check(r, "hipDeviceEnablePeerAccess");
        return true;
    }
    gpu::driver_context current_context() override {
        hipCtx_t c = nullptr;
        check(api_->hipCtxGetCurrent(&c), "hipCtxGetCurrent");
        return as<gpu::driver_context>(c);
    }
    void set_current_context(gpu::driver_context c) override {
        check(api_->hipCtxSetCurrent(as<hipCtx_t>(c)), "hipCtxSetCurrent");
    }

    void* allocate(memory_kind kind, std::size_t bytes, const std::string& what) override {
        void* p = nullptr;
        switch (kind) {
        case memory_kind::device:
            check(api_->hipMalloc(&p, bytes), "hipMalloc", what);
            return p;
        case memory_kind::host:
            check(api_->hipHostMalloc(&p, bytes, hipHostMallocDefault), "hipHostMalloc", what);
            return p;
        case memory_kind::shared:
            check(api_->hipMallocManaged(&p, bytes, hipMemAttachGlobal), "hipMallocManaged", what);
            return p;
        }
        throw error(errc::invalid_argument, "hip allocation: unknown memory kind");
    }
    void free(memory_kind kind, void* base) override {
        if (kind == memory_kind::host)
            check(api_->hipHostFree(base), "hipHostFree");
        else
            check(api_->hipFree(base), "hipFree");
    }
    std::string compile_portable(const void*, std::size_t, const std::string& what) override {
        throw error(errc::feature_not_supported, "hip backend: " + what + " has no code object for this GPU, and "
                                                 "HIP images carry no portable code to compile");
    }
    void zero(void* p, std::size_t bytes) override {
        check(api_->hipMemsetD8(reinterpret_cast<hipDeviceptr_t>(p), 0, bytes), "hipMemsetD8");
    }
    void* allocate_async(gpu::driver_stream s, std::size_t bytes) override {
        if (!api_->hipMallocAsync || !api_->hipFreeAsync)
            throw error(errc::feature_not_supported, "hip backend: this HIP runtime has no stream-ordered allocation "
                                                     "(hipMallocAsync), which a kernel's scratch (a reduction) needs");
        void* p = nullptr;
        check(api_->hipMallocAsync(&p, bytes, as<hipStream_t>(s)), "hipMallocAsync",
              std::to_string(bytes) + " bytes of kernel scratch");
        return p;
    }
    void free_async(gpu::driver_stream s, void* p) override {
        check(api_->hipFreeAsync(p, as<hipStream_t>(s)), "hipFreeAsync");
    }
    bool advise(const void* pointer, std::size_t bytes, int advice, std::uint32_t device) override {
        // SYCL's advice values are CUDA's (1-6), which HIP shares; AMD's own (100 and up) are not taken.
        if (advice < hipMemAdviseSetReadMostly || advice > hipMemAdviseUnsetAccessedBy) return false;
        check(api_->hipMemAdvise(pointer, bytes, static_cast<hipMemoryAdvise>(advice), static_cast<int>(device)),
              "hipMemAdvise");
        return true;
    }

    gpu::driver_stream create_stream() override {
        hipStream_t s = nullptr;
        check(api_->hipStreamCreateWithFlags(&s, hipStreamNonBlocking), "hipStreamCreateWithFlags");
        return as<gpu::driver_stream>(s);
    }
    void destroy_stream(gpu::driver_stream s) noexcept override {
        static_cast<void>(api_->hipStreamDestroy(as<hipStream_t>(s)));
    }
    void wait_event(gpu::driver_stream s, gpu::driver_event e) override {
        check(api_->hipStreamWaitEvent(as<hipStream_t>(s), as<hipEvent_t>(e), 0), "hipStreamWaitEvent");
    }
    void launch_kernel(gpu::driver_stream s, const gpu::kernel_params& p) override {
        check(api_->hipModuleLaunchKernel(as<hipFunction_t>(p.entry), p.grid[0], p.grid[1], p.grid[2], p.block[0],
                                          p.block[1], p.block[2], p.shared_bytes, as<hipStream_t>(s), p.arguments,
                                          nullptr),
              "hipModuleLaunchKernel");
    }
    void copy(gpu::driver_stream s, const gpu::memcpy_params& p) override {
        check(api_->hipMemcpyAsync(p.destination, p.source, p.bytes, hipMemcpyDefault, as<hipStream_t>(s)),
              "hipMemcpyAsync");
    }
    void set(gpu::driver_stream s, const gpu::memset_params& p) override {
        const auto to = static_cast<hipDeviceptr_t>(p.destination);
        switch (p.element_size) {
        case 1:
            check(api_->hipMemsetD8Async(to, static_cast<unsigned char>(p.value), p.count, as<hipStream_t>(s)),
                  "hipMemsetD8Async");
            break;
        case 2:
            check(api_->hipMemsetD16Async(to, static_cast<unsigned short>(p.value), p.count, as<hipStream_t>(s)),
                  "hipMemsetD16Async");
            break;
        default:
            check(api_->hipMemsetD32Async(to, static_cast<int>(p.value), p.count, as<hipStream_t>(s)),
                  "hipMemsetD32Async");
            break;
        }
    }
    void prefetch(gpu::driver_stream s, const void* pointer, std::size_t bytes, std::uint32_t device) override {
        check(api_->hipMemPrefetchAsync(pointer, bytes, static_cast<int>(device), as<hipStream_t>(s)),
              "hipMemPrefetchAsync");
    }
    void launch_host_function(gpu::driver_stream s, gpu::host_function f, void* data) override {
        if (!api_->hipLaunchHostFunc)
            throw error(errc::feature_not_supported, "hip backend: this HIP runtime has no hipLaunchHostFunc (ROCm 5.3 "
                                                     "added it), so copies between buffers run only in graphs here");
        check(api_->hipLaunchHostFunc(as<hipStream_t>(s), f, data), "hipLaunchHostFunc");
    }

    gpu::driver_event create_event(bool timing) override {
        hipEvent_t e = nullptr;
        check(api_->hipEventCreateWithFlags(&e, timing ? hipEventDefault : hipEventDisableTiming),
              "hipEventCreateWithFlags");
        return as<gpu::driver_event>(e);
    }
    void destroy_event(gpu::driver_event e) noexcept override {
        static_cast<void>(api_->hipEventDestroy(as<hipEvent_t>(e)));
    }
    void record(gpu::driver_event e, gpu::driver_stream s) override {
        check(api_->hipEventRecord(as<hipEvent_t>(e), as<hipStream_t>(s)), "hipEventRecord");
    }
    bool query(gpu::driver_event e) noexcept override {
        return api_->hipEventQuery(as<hipEvent_t>(e)) != hipErrorNotReady;
    }
    void synchronize(gpu::driver_event e) override {
        check(api_->hipEventSynchronize(as<hipEvent_t>(e)), "hipEventSynchronize");
    }
    float elapsed_ms(gpu::driver_event from, gpu::driver_event to) override {
        float ms = 0;
        check(api_->hipEventElapsedTime(&ms, as<hipEvent_t>(from), as<hipEvent_t>(to)), "hipEventElapsedTime");
        return ms;
    }

    gpu::driver_module load_module(const void* image, const std::string& what) override {
        hipModule_t m = nullptr;
        check(api_->hipModuleLoadData(&m, image), "hipModuleLoadData", what);
        return as<gpu::driver_module>(m);
    }
    void unload_module(gpu::driver_module m) noexcept override {
        static_cast<void>(api_->hipModuleUnload(as<hipModule_t>(m)));
    }
    void* module_global(gpu::driver_module m, const char* name, std::size_t* bytes, const std::string& what) override {
        hipDeviceptr_t p = nullptr;
        check(api_->hipModuleGetGlobal(&p, bytes, as<hipModule_t>(m), name), "hipModuleGetGlobal", what);
        return reinterpret_cast<void*>(p);
    }
    void read(void* host, const void* device_memory, std::size_t bytes) override {
        check(api_->hipMemcpyDtoH(host, reinterpret_cast<hipDeviceptr_t>(const_cast<void*>(device_memory)), bytes),
              "hipMemcpyDtoH");
    }
    gpu::driver_function get_function(gpu::driver_module m, const char* entry, const std::string& what) override {
        hipFunction_t f = nullptr;
        check(api_->hipModuleGetFunction(&f, as<hipModule_t>(m), entry), "hipModuleGetFunction", what);
        return as<gpu::driver_function>(f);
    }
    // hiprtc for the current device's architecture, once per load.
    gpu::driver_module load_fill_module() override {
        int device = 0;
        check(api_->hipGetDevice(&device), "hipGetDevice");
        hipDeviceProp_t d{};
        check(api_->hipGetDeviceProperties(&d, device), "hipGetDeviceProperties");
        const std::string arch = std::string("--offload-arch=") + d.gcnArchName;
        auto built = gpu::run_compiler(*api_, encore_hip_fill_source, "encore_fill.hip", {arch.c_str()},
                                       [this](hiprtcProgram p, std::string& payload) {
                                           std::size_t size = 0;
                                           gpu::check_compiler(*api_, api_->hiprtcGetCodeSize(p, &size), "GetCodeSize");
                                           payload.resize(size);
                                           gpu::check_compiler(*api_, api_->hiprtcGetCode(p, payload.data()), "GetCode");
                                       });
        if (built.payload.empty())
            throw error(errc::backend_failure, "hiprtc compiled the fill kernel to an empty code object");
        return load_module(built.payload.data(), "the hip backend's fill kernel");
    }

    gpu::driver_graph create_graph() override {
        hipGraph_t g = nullptr;
        check(api_->hipGraphCreate(&g, 0), "hipGraphCreate");
        return as<gpu::driver_graph>(g);
    }
    void destroy_graph(gpu::driver_graph g) noexcept override {
        static_cast<void>(api_->hipGraphDestroy(as<hipGraph_t>(g)));
    }
    gpu::driver_graph_node add_kernel_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after,
                                           const gpu::kernel_params& p) override {
        const auto params = kernel_node(p);
        hipGraphNode_t n = nullptr;
        check(api_->hipGraphAddKernelNode(&n, as<hipGraph_t>(g), nodes(after), after.size(), &params),
              "hipGraphAddKernelNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_copy_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after,
                                         const gpu::memcpy_params& p, gpu::driver_context) override {
        hipGraphNode_t n = nullptr;
        check(api_->hipGraphAddMemcpyNode1D(&n, as<hipGraph_t>(g), nodes(after), after.size(), p.destination, p.source,
                                            p.bytes, hipMemcpyDefault),
              "hipGraphAddMemcpyNode1D");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_set_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after,
                                        const gpu::memset_params& p, gpu::driver_context) override {
        const auto params = set_node(p);
        hipGraphNode_t n = nullptr;
        check(api_->hipGraphAddMemsetNode(&n, as<hipGraph_t>(g), nodes(after), after.size(), &params),
              "hipGraphAddMemsetNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_host_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after,
                                         gpu::host_function f, void* data) override {
        const hipHostNodeParams params{f, data};
        hipGraphNode_t n = nullptr;
        check(api_->hipGraphAddHostNode(&n, as<hipGraph_t>(g), nodes(after), after.size(), &params),
              "hipGraphAddHostNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_empty_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after) override {
        hipGraphNode_t n = nullptr;
        check(api_->hipGraphAddEmptyNode(&n, as<hipGraph_t>(g), nodes(after), after.size()), "hipGraphAddEmptyNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_child_graph_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after,
                                                gpu::driver_graph child) override {
        hipGraphNode_t n = nullptr;
        check(api_->hipGraphAddChildGraphNode(&n, as<hipGraph_t>(g), nodes(after), after.size(), as<hipGraph_t>(child)),
              "hipGraphAddChildGraphNode");
        return as<gpu::driver_graph_node>(n);
    }
    gpu::driver_graph_node add_event_record_node(gpu::driver_graph g, std::span<const gpu::driver_graph_node> after,
                                                 gpu::driver_event e) override {
        hipGraphNode_t n = nullptr;
        check(api_->hipGraphAddEventRecordNode(&n, as<hipGraph_t>(g), nodes(after), after.size(), as<hipEvent_t>(e)),
              "hipGraphAddEventRecordNode");
        return as<gpu::driver_graph_node>(n);
    }
    void set_event_record_node(gpu::driver_graph_exec exec, gpu::driver_graph_node n, gpu::driver_event e) override {
        check(api_->hipGraphExecEventRecordNodeSetEvent(as<hipGraphExec_t>(exec), as<hipGraphNode_t>(n),
                                                        as<hipEvent_t>(e)),
              "hipGraphExecEventRecordNodeSetEvent");
    }
    bool set_kernel_node(gpu::driver_graph_node n, gpu::driver_graph_exec exec, const gpu::kernel_params& p) override {
        const auto params = kernel_node(p);
        check(api_->hipGraphKernelNodeSetParams(as<hipGraphNode_t>(n), &params), "hipGraphKernelNodeSetParams");
        return !exec || api_->hipGraphExecKernelNodeSetParams(as<hipGraphExec_t>(exec), as<hipGraphNode_t>(n),
                                                              &params) == hipSuccess;
    }
    bool set_copy_node(gpu::driver_graph_node n, gpu::driver_graph_exec exec, const gpu::memcpy_params& p,
                       gpu::driver_context) override {
        check(api_->hipGraphMemcpyNodeSetParams1D(as<hipGraphNode_t>(n), p.destination, p.source, p.bytes,
                                                  hipMemcpyDefault),
              "hipGraphMemcpyNodeSetParams1D");
        return !exec || api_->hipGraphExecMemcpyNodeSetParams1D(as<hipGraphExec_t>(exec), as<hipGraphNode_t>(n),
                                                                p.destination, p.source, p.bytes,
                                                                hipMemcpyDefault) == hipSuccess;
    }
    bool set_set_node(gpu::driver_graph_node n, gpu::driver_graph_exec exec, const gpu::memset_params& p,
                      gpu::driver_context) override {
        const auto params = set_node(p);
        check(api_->hipGraphMemsetNodeSetParams(as<hipGraphNode_t>(n), &params), "hipGraphMemsetNodeSetParams");
        return !exec || api_->hipGraphExecMemsetNodeSetParams(as<hipGraphExec_t>(exec), as<hipGraphNode_t>(n),
                                                              &params) == hipSuccess;
    }
    bool set_host_node(gpu::driver_graph_node n, gpu::driver_graph_exec exec, gpu::host_function f, void* data) override {
        const hipHostNodeParams params{f, data};
        check(api_->hipGraphHostNodeSetParams(as<hipGraphNode_t>(n), &params), "hipGraphHostNodeSetParams");
        return !exec || api_->hipGraphExecHostNodeSetParams(as<hipGraphExec_t>(exec), as<hipGraphNode_t>(n),
                                                            &params) == hipSuccess;
    }
    gpu::driver_graph_exec instantiate(gpu::driver_graph g) override {
        hipGraphExec_t e = nullptr;
        check(api_->hipGraphInstantiate(&e, as<hipGraph_t>(g), nullptr, nullptr, 0), "hipGraphInstantiate");
        return as<gpu::driver_graph_exec>(e);
    }
    void destroy_exec(gpu::driver_graph_exec e) noexcept override {
        static_cast<void>(api_->hipGraphExecDestroy(as<hipGraphExec_t>(e)));
    }
    bool update_exec(gpu::driver_graph_exec exec, gpu::driver_graph g, std::string& why_not) override {
        hipGraphNode_t failed = nullptr;
        hipGraphExecUpdateResult result{};
        const hipError_t r = api_->hipGraphExecUpdate(as<hipGraphExec_t>(exec), as<hipGraph_t>(g), &failed, &result);
        if (r == hipSuccess) return true;
        why_not = "hipGraphExecUpdate: " + describe(r) + ", update result " + std::to_string(static_cast<int>(result));
        return false;
    }
    void launch_graph(gpu::driver_graph_exec exec, gpu::driver_stream s) override {
        check(api_->hipGraphLaunch(as<hipGraphExec_t>(exec), as<hipStream_t>(s)), "hipGraphLaunch");
    }

    void begin_capture(gpu::driver_stream s) override {
        check(api_->hipStreamBeginCapture(as<hipStream_t>(s), hipStreamCaptureModeRelaxed), "hipStreamBeginCapture");
    }
    gpu::driver_graph end_capture(gpu::driver_stream s, bool may_fail) override {
        hipGraph_t g = nullptr;
        const hipError_t r = api_->hipStreamEndCapture(as<hipStream_t>(s), &g);
        if (!may_fail) check(r, "hipStreamEndCapture");
        return as<gpu::driver_graph>(g);
    }
    void set_capture_dependencies(gpu::driver_stream s, std::span<const gpu::driver_graph_node> after) override {
        check(api_->hipStreamUpdateCaptureDependencies(as<hipStream_t>(s), nodes(after), after.size(),
                                                       hipStreamSetCaptureDependencies),
              "hipStreamUpdateCaptureDependencies");
    }
    std::vector<gpu::driver_graph_node> capture_dependencies(gpu::driver_stream s) override {
        hipStreamCaptureStatus status{};
        const hipGraphNode_t* added = nullptr;
        std::size_t count = 0;
        check(api_->hipStreamGetCaptureInfo_v2(as<hipStream_t>(s), &status, nullptr, nullptr, &added, &count),
              "hipStreamGetCaptureInfo_v2");
        if (status != hipStreamCaptureStatusActive)
            throw error(errc::backend_failure, "hip native recording: the stream stopped capturing");
        std::vector<gpu::driver_graph_node> tail(count);
        for (std::size_t i = 0; i < count; ++i)
            tail[i] = as<gpu::driver_graph_node>(added[i]);
        return tail;
    }

    std::string missing_code_reason() const override {
        return "has no HIP code (it was not built by hiprtc, encore::hip::build_program, nor taken from a code "
               "object by encore::hip::get_kernel)";
    }

private:
    hipDevice_t handle(std::uint32_t device) const {
        hipDevice_t d = 0;
        check(api_->hipDeviceGet(&d, static_cast<int>(device)), "hipDeviceGet");
        return d;
    }

    std::unique_ptr<hip_api> api_; // the library stays loaded for the life of the process (no dlclose)
};

// The HIP driver, or nullptr with the reason the library could not be loaded.
std::unique_ptr<hip_driver> make_driver(std::string& why_not) {
    auto api = load_api(why_not);
    if (!api) return nullptr;
    return std::make_unique<hip_driver>(std::move(api));
}

} // namespace

} // namespace encore::hip

extern "C" ENCORE_BACKEND_EXPORT void encore_backend_entry(encore::backend_plugin_request* request) {
    if (request->interface_version != encore::backend_interface_version) return;
    std::string why_not;
    auto driver = encore::hip::make_driver(why_not);
    if (!driver) {
        request->unavailable_reason = why_not;
        return;
    }
    if (const hipError_t r = driver->init(); r != hipSuccess) { // no AMD GPU: HIP's own reason
        request->unavailable_reason = "hipInit: " + driver->describe(r);
        return;
    }
    auto backend = encore::gpu::gpu_backend::create(std::move(driver), why_not);
    if (!backend) {
        request->unavailable_reason = why_not;
        return;
    }
    request->instance = std::move(backend);
}

#include "opencl_backend.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "encore/backends/opencl/detail/build_program.hpp"
#include "encore/backends/opencl/device_code.hpp"
#include "encore/backends/opencl/opencl_command_buffer.hpp"
#include "encore/backends/opencl/opencl_launch_plan.hpp"
#include "encore/backends/opencl/opencl_queue.hpp"
#include "encore/graph/error.hpp"

namespace encore::opencl {

using detail::check;

namespace {

bool env_flag(const char* name, bool fallback) {
    const char* value = std::getenv(name);
    if (!value || !*value) return fallback;
    return std::strcmp(value, "0") != 0;
}

device_properties properties_of(cl_device_id d) {
    device_properties p;
    p.name = detail::device_string(d, CL_DEVICE_NAME);
    p.vendor = detail::device_string(d, CL_DEVICE_VENDOR);
    p.driver_version = detail::device_string(d, CL_DEVICE_VERSION) + " (driver " +
                       detail::device_string(d, CL_DRIVER_VERSION) + ")";
    const auto type = detail::device_value<cl_device_type>(d, CL_DEVICE_TYPE);
    p.type = (type & CL_DEVICE_TYPE_GPU)   ? device_type::gpu
             : (type & CL_DEVICE_TYPE_CPU) ? device_type::cpu
                                           : device_type::accelerator;
    p.compute_units = std::max<cl_uint>(detail::device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS), 1);
    p.global_memory_bytes = detail::device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
    p.local_memory_bytes = detail::device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
    p.max_work_group_size =
        std::max<std::size_t>(detail::device_value<std::size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE), 1);
    // CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits.
    p.allocation_alignment =
        std::max<std::size_t>(detail::device_value<cl_uint>(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8, 64);
    p.host_kernels = false;
    p.native_recording = false;
    return p;
}

} // namespace

std::unique_ptr<opencl_backend> opencl_backend::create(std::string& why_not) {
    const detail::api* cl = detail::api::load(why_not);
    if (!cl) return nullptr;
    std::unique_ptr<opencl_backend> b(new opencl_backend());
    static std::atomic<std::uint64_t> next_id{1};
    b->id_ = next_id.fetch_add(1, std::memory_order_relaxed);
    b->cl_ = cl;
    b->trace_ = env_flag("ENCORE_TRACE", false);
    const bool command_buffers = env_flag("ENCORE_OPENCL_COMMAND_BUFFERS", true);
    try {
        const auto found = detail::enumerate_devices(why_not);
        if (found.empty()) return nullptr;
        for (const auto& pd : found) {
            auto s = std::make_unique<device_state>();
            s->platform = pd.platform;
            s->id = pd.device;
            s->properties = properties_of(pd.device);
            s->capabilities = detail::query_capabilities(pd.device);
            s->properties.profiling = s->capabilities.profiling;
            if (s->capabilities.usm == detail::usm_mode::intel && !s->intel_usm.load(pd.platform))
                s->capabilities.usm = (s->capabilities.svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
                                          ? detail::usm_mode::svm_fine
                                      : s->capabilities.svm ? detail::usm_mode::svm_coarse
                                                            : detail::usm_mode::none;
            // Host and shared memory need memory the host touches in place: USM or fine-grain SVM.
            s->properties.host_memory = s->properties.shared_memory =
                s->capabilities.usm == detail::usm_mode::intel || s->capabilities.usm == detail::usm_mode::svm_fine;
            s->properties.mapped_device_memory = s->capabilities.usm == detail::usm_mode::svm_coarse;
            if (s->capabilities.command_buffer)
                s->use_command_buffers =
                    s->command_buffers.load(pd.platform, s->capabilities.command_buffer) && command_buffers;
            s->properties.native_graphs = s->use_command_buffers;
            s->properties.graph_lowering =
                s->use_command_buffers
                    ? "cl_khr_command_buffer " + detail::version_string(s->capabilities.command_buffer)
                    : "launch plan";
            s->properties.spirv = s->capabilities.il_version.find("SPIR-V") != std::string::npos;
            s->properties.spir = s->capabilities.spir;
            s->properties.sub_group_sizes = s->capabilities.sub_group_sizes;
            s->use_markers = env_flag("ENCORE_OPENCL_MARKERS", s->properties.type != device_type::cpu);
            s->use_mutable_dispatch =
                s->use_command_buffers && detail::updates_kernels_in_place(s->capabilities) &&
                s->command_buffers.load_mutable_dispatch(pd.platform, s->capabilities.mutable_dispatch);
            const cl_context_properties properties[] = {
                CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(pd.platform), 0};
            cl_int r = CL_SUCCESS;
            s->context =
                detail::context_handle(cl->clCreateContext(properties, 1, &pd.device, nullptr, nullptr, &r));
            check(r, "clCreateContext", s->properties.name);
            b->trace("device " + std::to_string(b->devices_.size()) + ": " + s->properties.name + " (" +
                     detail::platform_string(pd.platform, CL_PLATFORM_NAME) +
                     "): " + detail::summary(s->capabilities) + "; graphs lower to " +
                     (s->use_command_buffers
                          ? "command buffers (" +
                                std::string(s->command_buffers.final_signatures
                                                ? "final signatures"
                                                : "provisional 0.9.0-0.9.4 signatures") +
                                "); kernel nodes updated " +
                                (s->use_mutable_dispatch ? "in place (mutable dispatch)"
                                                         : "by recording the command buffer again")
                          : std::string("launch plans") + (s->capabilities.command_buffer && !command_buffers
                                                               ? " (ENCORE_OPENCL_COMMAND_BUFFERS=0)"
                                                               : "")) +
                     "; out-of-order queues " +
                     (s->use_markers ? "enqueue markers" : "ask events their status (no markers)"));
            b->devices_.push_back(std::move(s));
        }
    } catch (const std::exception& e) {
        why_not = e.what();
        return nullptr;
    }
    return b;
}

opencl_backend::~opencl_backend() {
    kernels_.clear();
    programs_.clear();
    outlined_programs_.clear();
    fill_kernels_.clear();
    fill_programs_.clear();
    for (const allocation& a : allocations_.take_all()) {
        if (a.view) cl_->clReleaseMemObject(a.view);
        const device_state& s = *devices_[a.device];
        if (s.capabilities.usm == detail::usm_mode::intel)
            s.intel_usm.blocking_free(s.context.get(), a.base);
        else
            cl_->clSVMFree(s.context.get(), a.base);
    }
}

void opencl_backend::check_device(std::uint32_t device) const {
    if (device >= devices_.size())
        throw error(errc::invalid_argument, "opencl backend: device " + std::to_string(device) +
                                                " does not exist (" + std::to_string(devices_.size()) +
                                                " devices)");
}

const device_properties& opencl_backend::properties(std::uint32_t device) const {
    check_device(device);
    return devices_[device]->properties;
}

void* opencl_backend::allocate(std::uint32_t device, memory_kind kind, std::size_t bytes,
                               std::size_t alignment) {
    check_device(device);
    if (bytes == 0) return nullptr;
    if (alignment != 0 && (alignment & (alignment - 1)) != 0)
        throw error(errc::invalid_argument,
                    "opencl allocation: alignment " + std::to_string(alignment) + " is not a power of two");
    const device_state& s = *devices_[device];
    alignment = std::max(alignment, s.properties.allocation_alignment);
    // The driver is asked for its own alignment at most; larger ones are met by allocating more.
    const std::size_t driver_alignment = std::min<std::size_t>(alignment, 128);
    const std::size_t extra = alignment > driver_alignment ? alignment : 0;
    if (bytes > std::numeric_limits<std::size_t>::max() - extra)
        throw error(errc::invalid_argument,
                    "opencl allocation: " + std::to_string(bytes) + " bytes is too large");
    const std::string what = std::to_string(bytes) + " bytes of " + std::string(to_string(kind)) +
                             " memory on " + s.properties.name;
    if (bytes > s.properties.global_memory_bytes && s.properties.global_memory_bytes != 0)
        throw error(errc::backend_failure, "opencl allocation of " + what + ": more than the device's " +
                                               std::to_string(s.properties.global_memory_bytes) + " bytes");
    void* p = nullptr;
    switch (s.capabilities.usm) {
    case detail::usm_mode::intel: {
        cl_int r = CL_SUCCESS;
        const cl_mem_properties_intel none[] = {0};
        if (kind == memory_kind::host)
            p = s.intel_usm.host_alloc(s.context.get(), none, bytes + extra,
                                       static_cast<cl_uint>(driver_alignment), &r);
        else if (kind == memory_kind::device)
            p = s.intel_usm.device_alloc(s.context.get(), s.id, none, bytes + extra,
                                         static_cast<cl_uint>(driver_alignment), &r);
        else
            p = s.intel_usm.shared_alloc(s.context.get(), s.id, none, bytes + extra,
                                         static_cast<cl_uint>(driver_alignment), &r);
        check(r, "cl*MemAllocINTEL", what);
        break;
    }
    case detail::usm_mode::svm_fine:
    case detail::usm_mode::svm_coarse: {
        const bool fine = s.capabilities.usm == detail::usm_mode::svm_fine;
        if (kind != memory_kind::device && !fine)
            throw error(errc::feature_not_supported,
                        "opencl allocation of " + what +
                            ": the device has coarse-grain SVM only, which the host "
                            "cannot touch without mapping; only device allocations are possible");
        // Device memory: coarse grain (the host never touches it); fine grain where the device has no other.
        cl_svm_mem_flags flags = CL_MEM_READ_WRITE;
        if (kind != memory_kind::device || !(s.capabilities.svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
            flags |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
        p = cl_->clSVMAlloc(s.context.get(), flags, bytes + extra, static_cast<cl_uint>(driver_alignment));
        if (!p) throw error(errc::backend_failure, "clSVMAlloc: no memory for " + what);
        break;
    }
    case detail::usm_mode::none:
        throw error(errc::feature_not_supported,
                    "opencl allocation of " + what +
                        ": the device has neither SVM nor cl_intel_unified_shared_memory");
    }
    if (!p) throw error(errc::backend_failure, "opencl allocation of " + what + " returned no memory");
    void* start = p;
    if (extra) {
        const auto address = reinterpret_cast<std::uintptr_t>(p);
        start = reinterpret_cast<void*>((address + alignment - 1) / alignment * alignment);
    }
    allocations_.insert(start, {p, bytes + extra, start, bytes, device, kind, nullptr});
    return start;
}

void opencl_backend::deallocate(std::uint32_t device, void* pointer) {
    check_device(device);
    if (!pointer) return;
    auto a = allocations_.erase(pointer);
    if (!a)
        throw error(errc::invalid_argument,
                    "free: the pointer was not allocated by the opencl backend (or was freed already)");
    const device_state& s = *devices_[a->device];
    if (a->view) cl_->clReleaseMemObject(a->view);
    if (s.capabilities.usm == detail::usm_mode::intel)
        check(s.intel_usm.blocking_free(s.context.get(), a->base), "clMemBlockingFreeINTEL");
    else
        cl_->clSVMFree(s.context.get(), a->base); // like sycl::free: work using the memory must be complete
}

namespace {
void check_mappable(const opencl_backend& b, const opencl_backend::device_state& s, const void* p, std::size_t bytes,
                    const char* call) {
    if (!s.properties.mapped_device_memory)
        throw error(errc::feature_not_supported, std::string(call) + ": '" + s.properties.name +
                                                     "' has no coarse-grain SVM memory to map (its USM is " +
                                                     std::string(detail::to_string(s.capabilities.usm)) + ")");
    if (!b.find_allocation(p, bytes))
        throw error(errc::invalid_argument, std::string(call) + ": [" + std::to_string(bytes) +
                                                " bytes] is not inside an allocation of the opencl backend");
}
} // namespace

// Coarse-grain SVM: the host may touch the range between a blocking clEnqueueSVMMap and the completion of
// clEnqueueSVMUnmap, on a queue of their own (in order: the unmap follows the map).
void opencl_backend::map_for_host(std::uint32_t device, void* pointer, std::size_t bytes) {
    check_device(device);
    device_state& s = *devices_[device];
    check_mappable(*this, s, pointer, bytes, "map_for_host");
    if (bytes == 0) return; // nothing to map (OpenCL refuses an empty range)
    std::lock_guard lock(s.map_mutex);
    if (!s.map_queue) s.map_queue = new_queue(device, false, false);
    check(cl_->clEnqueueSVMMap(s.map_queue.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, pointer, bytes, 0, nullptr,
                               nullptr),
          "clEnqueueSVMMap", s.properties.name);
}

void opencl_backend::unmap_for_host(std::uint32_t device, void* pointer, std::size_t bytes) {
    check_device(device);
    device_state& s = *devices_[device];
    check_mappable(*this, s, pointer, bytes, "unmap_for_host");
    if (bytes == 0) return;
    std::lock_guard lock(s.map_mutex);
    if (!s.map_queue) s.map_queue = new_queue(device, false, false);
    check(cl_->clEnqueueSVMUnmap(s.map_queue.get(), pointer, 0, nullptr, nullptr), "clEnqueueSVMUnmap",
          s.properties.name);
    check(cl_->clFinish(s.map_queue.get()), "clFinish", "after clEnqueueSVMUnmap");
}

std::optional<std::pair<cl_mem, std::size_t>> opencl_backend::view_of(const void* p, std::size_t bytes) {
    auto found = allocations_.find(p, bytes);
    if (!found) return std::nullopt;
    const device_state& s = *devices_[found->device];
    if (s.capabilities.usm == detail::usm_mode::intel) return std::nullopt;
    return allocations_.view_of(p, bytes, [&](const allocation& a) {
        cl_int r = CL_SUCCESS;
        cl_mem m = cl_->clCreateBuffer(s.context.get(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, a.base_bytes,
                                       a.base, &r);
        check(r, "clCreateBuffer", "the cl_mem view of an SVM allocation");
        return m;
    });
}

detail::queue_handle opencl_backend::new_queue(std::uint32_t device, bool out_of_order, bool profiling) {
    const device_state& s = *devices_.at(device);
    cl_command_queue_properties flags = 0;
    if (out_of_order && s.capabilities.out_of_order) flags |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    if (profiling && s.capabilities.profiling) flags |= CL_QUEUE_PROFILING_ENABLE;
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, flags, 0};
    cl_int r = CL_SUCCESS;
    detail::queue_handle q(cl_->clCreateCommandQueueWithProperties(s.context.get(), s.id, properties, &r));
    check(r, "clCreateCommandQueueWithProperties", s.properties.name);
    return q;
}

std::unique_ptr<backend_queue> opencl_backend::create_queue(std::uint32_t device,
                                                            const queue_properties& properties,
                                                            std::shared_ptr<error_sink> errors) {
    check_device(device);
    if (properties.enable_profiling && !devices_[device]->capabilities.profiling)
        throw error(errc::feature_not_supported,
                    "opencl queue: device '" + devices_[device]->properties.name + "' has no profiling");
    return std::make_unique<opencl_queue>(*this, device, properties, std::move(errors));
}

std::unique_ptr<backend_executable> opencl_backend::lower(std::uint32_t device, const graph& g,
                                                          const partition& p) {
    check_device(device);
    if (devices_[device]->use_command_buffers)
        return std::make_unique<command_buffer_executable>(*this, device, g, p);
    return std::make_unique<launch_plan_executable>(*this, device, g, p);
}

cl_program opencl_backend::program_of(std::uint32_t device, const kernel& k, const char** entry) {
    const auto* code = static_cast<const device_code*>(k.device_code("opencl"));
    if (!code)
        throw error(errc::kernel_not_supported,
                    "kernel '" + k.name() +
                        "' has no OpenCL code (it was not built by encore::opencl::build_program, "
                        "an OpenCL kernel bundle or encore++ -fsycl-targets=spir64); it cannot run on the "
                        "opencl backend");
    const device_state& s = *devices_[device];
    if (code->outlined.geometry_dimensions != 0) { // outlined by encore++: its SPIR-V or SPIR built for this device
        if (!code->entry || (!code->outlined.spirv && !code->spir))
            throw error(errc::invalid_argument, "kernel '" + k.name() + "': encore++ code without an image or entry");
        *entry = code->entry;
        auto& program = outlined_programs_[{code->program_id, device}];
        if (!program) program = build_outlined(device, *code, k.name());
        return program.get();
    }
    if (!code->binary || !code->entry || !code->device_name)
        throw error(errc::invalid_argument,
                    "kernel '" + k.name() + "': OpenCL code without a binary or entry");
    if (s.properties.name != code->device_name)
        throw error(errc::kernel_not_supported, "kernel '" + k.name() + "' was built for OpenCL device '" +
                                                    code->device_name + "', not for '" + s.properties.name +
                                                    "' (build the program for each device it runs on)");
    *entry = code->entry;
    auto& program = programs_[{code->program_id, device}];
    if (!program) {
        const unsigned char* binary = code->binary;
        const std::size_t bytes = code->binary_bytes;
        cl_int status = CL_SUCCESS, r = CL_SUCCESS;
        detail::program_handle made(
            cl_->clCreateProgramWithBinary(s.context.get(), 1, &s.id, &bytes, &binary, &status, &r));
        check(r, "clCreateProgramWithBinary", "kernel '" + k.name() + "'");
        check(status, "clCreateProgramWithBinary", "kernel '" + k.name() + "': the binary");
        check(cl_->clBuildProgram(made.get(), 1, &s.id, "", nullptr, nullptr), "clBuildProgram",
              "kernel '" + k.name() + "' from its binary");
        program = std::move(made);
    }
    return program.get();
}

detail::program_handle opencl_backend::build_outlined(std::uint32_t device, const device_code& code,
                                                      const std::string& kernel_name) {
    const device_state& s = *devices_[device];
    // The SPIR-V where the device takes IL, else the SPIR bitcode where it has cl_khr_spir (PoCL 3.1 here).
    const bool il = code.outlined.spirv && s.capabilities.il_version.find("SPIR-V") != std::string::npos;
    const bool spir = !il && code.spir && s.capabilities.spir;
    if (!il && !spir)
        throw error(errc::kernel_not_supported,
                    "kernel '" + kernel_name + "' has encore++ SPIR-V code, but OpenCL device '" +
                        s.properties.name + "' takes neither SPIR-V (CL_DEVICE_IL_VERSION '" +
                        s.capabilities.il_version + "') nor SPIR bitcode (no cl_khr_spir)");
    const program_source source =
        il ? program_source::spirv(std::vector<unsigned char>(code.outlined.spirv,
                                                              code.outlined.spirv + code.outlined.spirv_bytes))
           : program_source::spir(std::vector<unsigned char>(code.spir, code.spir + code.spir_bytes));
    const program_binary built = detail::build_program({s.platform, s.id}, source); // the kernel/program cache
    const unsigned char* binary = built.bytes.data();
    const std::size_t bytes = built.bytes.size();
    cl_int status = CL_SUCCESS, r = CL_SUCCESS;
    detail::program_handle made(
        cl_->clCreateProgramWithBinary(s.context.get(), 1, &s.id, &bytes, &binary, &status, &r));
    check(r, "clCreateProgramWithBinary", "kernel '" + kernel_name + "'");
    check(status, "clCreateProgramWithBinary", "kernel '" + kernel_name + "': the binary");
    check(cl_->clBuildProgram(made.get(), 1, &s.id, "", nullptr, nullptr), "clBuildProgram",
          "kernel '" + kernel_name + "' from its binary");
    return made;
}

shared_kernel& opencl_backend::kernel_of(std::uint32_t device, const kernel& k) {
    check_device(device);
    // Eager code submits the same kernel again and again: the last lookup of this thread answers without the
    // lock and the map. Keyed by ids never reused (the backend's, the program's) and the entry's name, not by
    // addresses; trivially destructible, so it does not pin the plugin (names of 64 bytes or more: no
    // shortcut).
    struct last_lookup {
        std::uint64_t backend = 0, program = 0;
        std::uint32_t device = 0;
        char entry[64] = {};
        shared_kernel* kernel = nullptr;
    };
    thread_local last_lookup last;
    const auto* code = static_cast<const device_code*>(k.device_code("opencl"));
    const std::string_view entry_name =
        code && code->entry ? std::string_view(code->entry) : std::string_view();
    if (code && last.backend == id_ && last.device == device && last.program == code->program_id &&
        !entry_name.empty() && entry_name == std::string_view(last.entry))
        return *last.kernel;
    std::lock_guard lock(kernels_mutex_);
    const char* entry = nullptr;
    auto remember = [&](shared_kernel& found) -> shared_kernel& {
        if (entry_name.size() < sizeof last.entry) {
            last.backend = id_;
            last.program = code->program_id;
            last.device = device;
            last.entry[entry_name.copy(last.entry, entry_name.size())] = '\0';
            last.kernel = &found;
        }
        return found;
    };
    if (code && code->entry) {
        auto it = kernels_.find(std::tuple(code->program_id, std::string_view(code->entry), device));
        if (it != kernels_.end()) return remember(*it->second);
    }
    cl_program program = program_of(device, k, &entry);
    auto made = std::make_unique<shared_kernel>();
    cl_int r = CL_SUCCESS;
    made->handle = detail::kernel_handle(cl_->clCreateKernel(program, entry, &r));
    check(r, "clCreateKernel", std::string("kernel '") + entry + "'");
    auto& slot = kernels_[std::tuple(code->program_id, std::string(entry), device)];
    slot = std::move(made);
    return remember(*slot);
}

detail::kernel_handle opencl_backend::new_kernel_object(std::uint32_t device, const kernel& k) {
    check_device(device);
    std::lock_guard lock(kernels_mutex_);
    const char* entry = nullptr;
    cl_program program = program_of(device, k, &entry);
    cl_int r = CL_SUCCESS;
    detail::kernel_handle made(cl_->clCreateKernel(program, entry, &r));
    check(r, "clCreateKernel", std::string("kernel '") + entry + "'");
    return made;
}

namespace {
// Fills `total` bytes with a pattern of 1 to 256 bytes; each item strides over the range.
const char* fill_source = R"(
typedef struct { uchar bytes[256]; } encore_pattern;
kernel void encore_fill(global uchar* destination, ulong total, uint pattern_bytes, encore_pattern pattern) {
    for (ulong i = get_global_id(0); i < total; i += get_global_size(0))
        destination[i] = pattern.bytes[i % pattern_bytes];
}
)";
} // namespace

cl_program opencl_backend::fill_program(std::uint32_t device) {
    auto& program = fill_programs_[device];
    if (!program) {
        const device_state& s = *devices_[device];
        cl_int r = CL_SUCCESS;
        const std::size_t length = std::strlen(fill_source);
        detail::program_handle made(
            cl_->clCreateProgramWithSource(s.context.get(), 1, &fill_source, &length, &r));
        check(r, "clCreateProgramWithSource", "the opencl backend's fill kernel");
        check(cl_->clBuildProgram(made.get(), 1, &s.id, "", nullptr, nullptr), "clBuildProgram",
              "the opencl backend's fill kernel on " + s.properties.name);
        program = std::move(made);
    }
    return program.get();
}

shared_kernel& opencl_backend::fill_kernel(std::uint32_t device) {
    check_device(device);
    std::lock_guard lock(kernels_mutex_);
    auto& slot = fill_kernels_[device];
    if (!slot) {
        auto made = std::make_unique<shared_kernel>();
        cl_int r = CL_SUCCESS;
        made->handle = detail::kernel_handle(cl_->clCreateKernel(fill_program(device), "encore_fill", &r));
        check(r, "clCreateKernel", "encore_fill");
        slot = std::move(made);
    }
    return *slot;
}

detail::kernel_handle opencl_backend::new_fill_kernel(std::uint32_t device) {
    check_device(device);
    std::lock_guard lock(kernels_mutex_);
    cl_int r = CL_SUCCESS;
    detail::kernel_handle made(cl_->clCreateKernel(fill_program(device), "encore_fill", &r));
    check(r, "clCreateKernel", "encore_fill");
    return made;
}

void opencl_backend::trace(const std::string& line) const {
    if (trace_) std::fprintf(stderr, "encore: opencl: %s\n", line.c_str());
}

} // namespace encore::opencl

extern "C" ENCORE_BACKEND_EXPORT void encore_backend_entry(encore::backend_plugin_request* request) {
    if (request->interface_version != encore::backend_interface_version) return;
    std::string why_not;
    auto backend = encore::opencl::opencl_backend::create(why_not);
    if (!backend) {
        request->unavailable_reason = why_not.empty() ? "no OpenCL device" : why_not;
        return;
    }
    request->instance = std::move(backend);
}

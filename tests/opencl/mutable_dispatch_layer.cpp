// libencore-test-mutable-dispatch.so — a test layer that gives an OpenCL device with cl_khr_command_buffer
// (0.9.0-0.9.4 signatures: PoCL here) the cl_khr_command_buffer_mutable_dispatch extension, so the OpenCL
// backend's in-place update path runs somewhere: no device on these machines offers the extension.
//
// The backend loads it instead of the ICD loader (ENCORE_OPENCL_LIBRARY=<this library>); it links the loader,
// so every entry point it does not define is the loader's. It defines two:
// - clGetDeviceInfo adds the extension to CL_DEVICE_EXTENSIONS(_WITH_VERSION), with the version named by
//   ENCORE_TEST_MUTABLE_DISPATCH_VERSION ("0.9.0": clUpdateMutableCommandsKHR takes one base configuration
//   holding a linked list; "0.9.2", the default: arrays of configurations), and answers
//   CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR with arguments, global size, local size and global offset.
// - clGetExtensionFunctionAddressForPlatform hands out this layer's command-buffer calls.
//
// A command buffer of the layer records every command into a real one at once (so errors come from the
// driver, at the call, as they would) and keeps what it recorded; a kernel command records a clone of the
// kernel (clCloneKernel), which keeps the arguments it had (PoCL 3.1's clone loses a null buffer argument: the
// layer's clSetKernelArg notes which arguments are null and sets them on the clone again).
// clUpdateMutableCommandsKHR checks the update as the extension specifies (a finalized command buffer made with
// CL_COMMAND_BUFFER_MUTABLE_KHR, commands of this buffer, only the fields the command was recorded with, the same
// number of dimensions), applies it to the clone and to the kept sizes, and the next enqueue records a new real
// command buffer from what is kept: the update holds for every later enqueue, never for one already enqueued. Sync
// points and mutable handles the caller sees are the layer's own and stay valid across those recordings.
//
// For the tests: encore_test_layer_buffers_created() counts clCreateCommandBufferKHR calls made through the
// layer, encore_test_layer_updates() successful clUpdateMutableCommandsKHR calls, and
// encore_test_layer_markers() successful clEnqueueMarkerWithWaitList calls with an empty wait list (what an
// out-of-order queue's markers are; the layer passes the call on).
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "encore/backends/opencl/detail/mutable_dispatch_abi.hpp"

namespace {

// The loader's entry points this layer defines too, so never called by name (the others are: the layer links the
// loader).
struct loader {
    void* handle = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_NOLOAD);
    template <typename F> F get(const char* name) const { return reinterpret_cast<F>(dlsym(handle, name)); }
    decltype(&::clGetDeviceInfo) get_device_info = get<decltype(&::clGetDeviceInfo)>("clGetDeviceInfo");
    decltype(&::clGetExtensionFunctionAddressForPlatform) extension_address =
        get<decltype(&::clGetExtensionFunctionAddressForPlatform)>("clGetExtensionFunctionAddressForPlatform");
    decltype(&::clCloneKernel) clone_kernel = &::clCloneKernel;
    decltype(&::clReleaseKernel) release_kernel = &::clReleaseKernel;
    decltype(&::clSetKernelArg) set_kernel_arg = get<decltype(&::clSetKernelArg)>("clSetKernelArg");
    decltype(&::clSetKernelArgSVMPointer) set_kernel_arg_svm =
        get<decltype(&::clSetKernelArgSVMPointer)>("clSetKernelArgSVMPointer");
    decltype(&::clCreateKernel) create_kernel = get<decltype(&::clCreateKernel)>("clCreateKernel");
    decltype(&::clGetKernelInfo) get_kernel_info = &::clGetKernelInfo;
    decltype(&::clGetCommandQueueInfo) get_queue_info = &::clGetCommandQueueInfo;
    decltype(&::clEnqueueMarkerWithWaitList) enqueue_marker =
        get<decltype(&::clEnqueueMarkerWithWaitList)>("clEnqueueMarkerWithWaitList");
};
const loader& cl() {
    static const loader l;
    return l;
}

// The arguments last set to a null buffer (or a 64-bit 0), per kernel: clSetKernelArg notes them; the other
// setters and clCreateKernel (a handle of a released kernel may come back) forget them.
std::mutex null_arguments_mutex;
std::vector<std::pair<cl_kernel, cl_uint>> null_arguments;

void note_argument(cl_kernel kernel, cl_uint index, bool null_buffer) {
    std::lock_guard lock(null_arguments_mutex);
    const std::pair entry{kernel, index};
    std::erase(null_arguments, entry);
    if (null_buffer) null_arguments.push_back(entry);
}

void forget_kernel(cl_kernel kernel) {
    std::lock_guard lock(null_arguments_mutex);
    std::erase_if(null_arguments, [&](const auto& e) { return e.first == kernel; });
}

using set_pointer_fn = cl_int(CL_API_CALL*)(cl_kernel, cl_uint, const void*);
std::atomic<set_pointer_fn> real_set_usm_pointer{nullptr}; // clSetKernelArgMemPointerINTEL

cl_int CL_API_CALL set_usm_pointer(cl_kernel kernel, cl_uint index, const void* value) {
    const cl_int r = real_set_usm_pointer.load()(kernel, index, value);
    if (r == CL_SUCCESS) note_argument(kernel, index, false);
    return r;
}

cl_version offered_version() {
    const char* v = std::getenv("ENCORE_TEST_MUTABLE_DISPATCH_VERSION");
    if (v && std::strcmp(v, "0.9.0") == 0) return CL_MAKE_VERSION(0, 9, 0);
    return CL_MAKE_VERSION(0, 9, 2);
}
constexpr cl_mutable_dispatch_fields_khr offered_fields = CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
                                                          CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
                                                          CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR |
                                                          CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR;
using encore::opencl::detail::base_config_linked;
using encore::opencl::detail::dispatch_config;
using encore::opencl::detail::structure_base_config;
using encore::opencl::detail::structure_dispatch_config;

// The underlying device's cl_khr_command_buffer version; 0: none (the layer then offers nothing).
cl_version command_buffer_version(cl_device_id d) {
    std::size_t bytes = 0;
    if (cl().get_device_info(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &bytes) != CL_SUCCESS) return 0;
    std::vector<cl_name_version> list(bytes / sizeof(cl_name_version));
    if (cl().get_device_info(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, bytes, list.data(), nullptr) != CL_SUCCESS)
        return 0;
    for (const auto& e : list)
        if (std::strcmp(e.name, "cl_khr_command_buffer") == 0) return e.version;
    return 0;
}
bool emulated_on(cl_device_id d) {
    const cl_version v = command_buffer_version(d);
    return v != 0 && v < CL_MAKE_VERSION(0, 9, 5);
}

cl_int answer(const void* data, std::size_t bytes, std::size_t size, void* value, std::size_t* size_ret) {
    if (value && size < bytes) return CL_INVALID_VALUE;
    if (value) std::memcpy(value, data, bytes);
    if (size_ret) *size_ret = bytes;
    return CL_SUCCESS;
}

// The provisional (0.9.0-0.9.4) recording calls of the driver.
using create_fn = clCreateCommandBufferKHR_fn;
using finalize_fn = clFinalizeCommandBufferKHR_fn;
using retain_fn = clRetainCommandBufferKHR_fn;
using release_fn = clReleaseCommandBufferKHR_fn;
using enqueue_fn = clEnqueueCommandBufferKHR_fn;
using ndrange_fn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, const cl_properties*, cl_kernel,
                                        cl_uint, const size_t*, const size_t*, const size_t*, cl_uint,
                                        const cl_sync_point_khr*, cl_sync_point_khr*, cl_mutable_command_khr*);
using barrier_fn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, cl_uint, const cl_sync_point_khr*,
                                        cl_sync_point_khr*, cl_mutable_command_khr*);
using copy_fn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, cl_mem, cl_mem, size_t, size_t,
                                     size_t, cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                     cl_mutable_command_khr*);
using fill_fn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, cl_mem, const void*, size_t, size_t,
                                     size_t, cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                     cl_mutable_command_khr*);
using svm_memcpy_fn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, void*, const void*, size_t,
                                           cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                           cl_mutable_command_khr*);
using svm_fill_fn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, void*, const void*, size_t,
                                         size_t, cl_uint, const cl_sync_point_khr*, cl_sync_point_khr*,
                                         cl_mutable_command_khr*);
struct driver {
    create_fn create = nullptr;
    finalize_fn finalize = nullptr;
    retain_fn retain = nullptr;
    release_fn release = nullptr;
    enqueue_fn enqueue = nullptr;
    ndrange_fn ndrange = nullptr;
    barrier_fn barrier = nullptr;
    copy_fn copy = nullptr;
    fill_fn fill = nullptr;
    svm_memcpy_fn svm_memcpy = nullptr;
    svm_fill_fn svm_fill = nullptr;
};

struct layer_buffer;

// One recorded command, as the layer keeps it.
struct kept_command {
    enum class kind { ndrange, barrier, copy, fill, svm_memcpy, svm_fill } type;
    layer_buffer* owner = nullptr;
    std::vector<cl_sync_point_khr> waits; // the caller's sync points
    cl_sync_point_khr sync = 0;           // the caller's
    // ndrange
    cl_kernel kernel = nullptr; // the clone
    cl_uint dimensions = 0;
    size_t offset[3]{}, global[3]{}, local[3]{};
    bool has_offset = false, has_local = false;
    cl_mutable_dispatch_fields_khr updatable = 0;
    // copies and fills
    cl_mem source = nullptr, destination = nullptr;
    void* svm_destination = nullptr;
    const void* svm_source = nullptr;
    size_t source_offset = 0, destination_offset = 0, bytes = 0;
    std::vector<unsigned char> pattern;

    explicit kept_command(kind k) : type(k) {}
    kept_command(const kept_command&) = delete;
    kept_command& operator=(const kept_command&) = delete;
    ~kept_command();
};

struct layer_buffer {
    driver d;
    cl_command_queue queue = nullptr;
    std::vector<cl_command_buffer_properties_khr> properties; // for the driver: without the mutable flag
    bool is_mutable = false, finalized = false, stale = false;
    std::atomic<int> references{1};
    cl_command_buffer_khr real = nullptr;
    std::vector<cl_sync_point_khr> real_sync; // per command (the caller's sync point - 1): the real buffer's
    std::vector<std::unique_ptr<kept_command>> commands;
    cl_sync_point_khr next_sync = 1;
};

std::mutex layer_mutex;
std::vector<layer_buffer*> live_buffers;
std::atomic<unsigned> buffers_created{0}, updates_applied{0}, markers_enqueued{0};

layer_buffer* find(cl_command_buffer_khr cb) {
    auto* b = reinterpret_cast<layer_buffer*>(cb);
    return std::find(live_buffers.begin(), live_buffers.end(), b) != live_buffers.end() ? b : nullptr;
}

// Records `c` into `real`, its waits translated through `to_real` (the caller's sync point - 1 -> the real
// buffer's).
cl_int record(const driver& d, cl_command_buffer_khr real, const kept_command& c,
              const std::vector<cl_sync_point_khr>& to_real, cl_sync_point_khr* out) {
    std::vector<cl_sync_point_khr> waits;
    for (auto w : c.waits) waits.push_back(to_real[w - 1]);
    const auto n = static_cast<cl_uint>(waits.size());
    const cl_sync_point_khr* list = waits.empty() ? nullptr : waits.data();
    switch (c.type) {
    case kept_command::kind::ndrange:
        return d.ndrange(real, nullptr, nullptr, c.kernel, c.dimensions, c.has_offset ? c.offset : nullptr, c.global,
                         c.has_local ? c.local : nullptr, n, list, out, nullptr);
    case kept_command::kind::barrier:
        return d.barrier(real, nullptr, n, list, out, nullptr);
    case kept_command::kind::copy:
        return d.copy(real, nullptr, c.source, c.destination, c.source_offset, c.destination_offset, c.bytes, n,
                      list, out, nullptr);
    case kept_command::kind::fill:
        return d.fill(real, nullptr, c.destination, c.pattern.data(), c.pattern.size(), c.destination_offset,
                      c.bytes, n, list, out, nullptr);
    case kept_command::kind::svm_memcpy:
        return d.svm_memcpy(real, nullptr, c.svm_destination, c.svm_source, c.bytes, n, list, out, nullptr);
    case kept_command::kind::svm_fill:
        return d.svm_fill(real, nullptr, c.svm_destination, c.pattern.data(), c.pattern.size(), c.bytes, n, list,
                          out, nullptr);
    }
    return CL_INVALID_VALUE;
}

// Adds `c` to `b`: recorded into the real buffer now, kept when the driver took it.
cl_int add(layer_buffer* b, std::unique_ptr<kept_command> c, cl_uint waits, const cl_sync_point_khr* wait_list,
           cl_sync_point_khr* sync_point, cl_mutable_command_khr* handle) {
    if (b->finalized) return CL_INVALID_OPERATION;
    if ((waits == 0) != (wait_list == nullptr)) return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
    for (cl_uint i = 0; i < waits; ++i)
        if (wait_list[i] == 0 || wait_list[i] >= b->next_sync) return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
    c->owner = b;
    c->waits.assign(wait_list, wait_list + waits);
    cl_sync_point_khr real_sync = 0;
    if (cl_int r = record(b->d, b->real, *c, b->real_sync, &real_sync); r != CL_SUCCESS) return r;
    c->sync = b->next_sync++; // the caller's sync points number the commands 1, 2, ...
    b->real_sync.push_back(real_sync);
    if (sync_point) *sync_point = c->sync;
    if (handle) *handle = reinterpret_cast<cl_mutable_command_khr>(c.get());
    b->commands.push_back(std::move(c));
    return CL_SUCCESS;
}

// A new real command buffer recorded from what `b` keeps.
cl_int rerecord(layer_buffer* b) {
    cl_int r = CL_SUCCESS;
    cl_command_buffer_khr real = b->d.create(1, &b->queue, b->properties.data(), &r);
    if (r != CL_SUCCESS) return r;
    std::vector<cl_sync_point_khr> to_real(b->commands.size());
    for (std::size_t i = 0; i < b->commands.size(); ++i) {
        r = record(b->d, real, *b->commands[i], to_real, &to_real[i]);
        if (r != CL_SUCCESS) break;
    }
    if (r == CL_SUCCESS) r = b->d.finalize(real);
    if (r != CL_SUCCESS) {
        b->d.release(real);
        return r;
    }
    b->d.release(b->real);
    b->real = real;
    b->real_sync = std::move(to_real);
    b->stale = false;
    return CL_SUCCESS;
}

kept_command::~kept_command() {
    if (kernel) cl().release_kernel(kernel);
}

void destroy(layer_buffer* b) {
    if (b->real) b->d.release(b->real);
    delete b;
}

driver driver_of(cl_platform_id platform) {
    auto get = [&](const char* name) { return cl().extension_address(platform, name); };
    driver d;
    d.create = reinterpret_cast<create_fn>(get("clCreateCommandBufferKHR"));
    d.finalize = reinterpret_cast<finalize_fn>(get("clFinalizeCommandBufferKHR"));
    d.retain = reinterpret_cast<retain_fn>(get("clRetainCommandBufferKHR"));
    d.release = reinterpret_cast<release_fn>(get("clReleaseCommandBufferKHR"));
    d.enqueue = reinterpret_cast<enqueue_fn>(get("clEnqueueCommandBufferKHR"));
    d.ndrange = reinterpret_cast<ndrange_fn>(get("clCommandNDRangeKernelKHR"));
    d.barrier = reinterpret_cast<barrier_fn>(get("clCommandBarrierWithWaitListKHR"));
    d.copy = reinterpret_cast<copy_fn>(get("clCommandCopyBufferKHR"));
    d.fill = reinterpret_cast<fill_fn>(get("clCommandFillBufferKHR"));
    d.svm_memcpy = reinterpret_cast<svm_memcpy_fn>(get("clCommandSVMMemcpyKHR"));
    d.svm_fill = reinterpret_cast<svm_fill_fn>(get("clCommandSVMMemFillKHR"));
    return d;
}

cl_platform_id platform_of(cl_command_queue q) {
    cl_device_id device = nullptr;
    cl_platform_id platform = nullptr;
    if (cl().get_queue_info(q, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) != CL_SUCCESS) return nullptr;
    if (cl().get_device_info(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) != CL_SUCCESS)
        return nullptr;
    return platform;
}

// --- the layer's cl_khr_command_buffer calls (0.9.0-0.9.4 signatures) ---------------------------------------

cl_command_buffer_khr CL_API_CALL create(cl_uint num_queues, const cl_command_queue* queues,
                                         const cl_command_buffer_properties_khr* properties, cl_int* error) {
    auto fail = [&](cl_int r) {
        if (error) *error = r;
        return static_cast<cl_command_buffer_khr>(nullptr);
    };
    if (num_queues != 1 || !queues || !queues[0]) return fail(CL_INVALID_VALUE);
    auto b = std::make_unique<layer_buffer>();
    b->d = driver_of(platform_of(queues[0]));
    if (!b->d.create) return fail(CL_INVALID_OPERATION);
    b->queue = queues[0];
    for (const auto* p = properties; p && *p; p += 2) {
        cl_command_buffer_properties_khr value = p[1];
        if (p[0] == CL_COMMAND_BUFFER_FLAGS_KHR) {
            b->is_mutable = (value & CL_COMMAND_BUFFER_MUTABLE_KHR) != 0;
            value &= ~static_cast<cl_command_buffer_properties_khr>(CL_COMMAND_BUFFER_MUTABLE_KHR);
        }
        b->properties.insert(b->properties.end(), {p[0], value});
    }
    b->properties.push_back(0);
    cl_int r = CL_SUCCESS;
    b->real = b->d.create(1, queues, b->properties.data(), &r);
    if (r != CL_SUCCESS) return fail(r);
    std::lock_guard lock(layer_mutex);
    live_buffers.push_back(b.get());
    buffers_created.fetch_add(1);
    if (error) *error = CL_SUCCESS;
    return reinterpret_cast<cl_command_buffer_khr>(b.release());
}

cl_int CL_API_CALL finalize(cl_command_buffer_khr cb) {
    std::lock_guard lock(layer_mutex);
    layer_buffer* b = find(cb);
    if (!b) return CL_INVALID_COMMAND_BUFFER_KHR;
    if (b->finalized) return CL_INVALID_OPERATION;
    const cl_int r = b->d.finalize(b->real);
    if (r == CL_SUCCESS) b->finalized = true;
    return r;
}

cl_int CL_API_CALL retain(cl_command_buffer_khr cb) {
    std::lock_guard lock(layer_mutex);
    layer_buffer* b = find(cb);
    if (!b) return CL_INVALID_COMMAND_BUFFER_KHR;
    b->references.fetch_add(1);
    return CL_SUCCESS;
}

cl_int CL_API_CALL release(cl_command_buffer_khr cb) {
    std::lock_guard lock(layer_mutex);
    layer_buffer* b = find(cb);
    if (!b) return CL_INVALID_COMMAND_BUFFER_KHR;
    if (b->references.fetch_sub(1) == 1) {
        live_buffers.erase(std::find(live_buffers.begin(), live_buffers.end(), b));
        destroy(b);
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL enqueue(cl_uint num_queues, cl_command_queue* queues, cl_command_buffer_khr cb,
                           cl_uint num_events, const cl_event* wait_list, cl_event* event) {
    std::lock_guard lock(layer_mutex);
    layer_buffer* b = find(cb);
    if (!b) return CL_INVALID_COMMAND_BUFFER_KHR;
    if (!b->finalized) return CL_INVALID_OPERATION;
    if (b->stale)
        if (cl_int r = rerecord(b); r != CL_SUCCESS) return r;
    return b->d.enqueue(num_queues, queues, b->real, num_events, wait_list, event);
}

// What every recording call checks, then add().
cl_int recorded(cl_command_buffer_khr cb, cl_command_queue queue, std::unique_ptr<kept_command> c, cl_uint waits,
                const cl_sync_point_khr* wait_list, cl_sync_point_khr* sync_point, cl_mutable_command_khr* handle) {
    std::lock_guard lock(layer_mutex);
    layer_buffer* b = find(cb);
    if (!b) return CL_INVALID_COMMAND_BUFFER_KHR;
    if (queue) return CL_INVALID_COMMAND_QUEUE;
    if (handle && c->type != kept_command::kind::ndrange) return CL_INVALID_VALUE; // only kernels are mutable
    if (c->updatable && !b->is_mutable) return CL_INVALID_OPERATION;
    return add(b, std::move(c), waits, wait_list, sync_point, handle);
}

std::vector<unsigned char> bytes_of(const void* pattern, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(pattern);
    return {p, p + bytes};
}

cl_int CL_API_CALL ndrange(cl_command_buffer_khr cb, cl_command_queue queue, const cl_properties* properties,
                           cl_kernel kernel, cl_uint dims, const size_t* offset, const size_t* global,
                           const size_t* local, cl_uint waits, const cl_sync_point_khr* wait_list,
                           cl_sync_point_khr* sync_point, cl_mutable_command_khr* handle) {
    if (!kernel) return CL_INVALID_KERNEL;
    if (dims < 1 || dims > 3 || !global) return CL_INVALID_WORK_DIMENSION;
    auto c = std::make_unique<kept_command>(kept_command::kind::ndrange);
    for (const auto* p = properties; p && *p; p += 2) {
        if (p[0] != CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR || (p[1] & ~offered_fields)) return CL_INVALID_VALUE;
        c->updatable = p[1];
    }
    cl_int r = CL_SUCCESS;
    c->kernel = cl().clone_kernel(kernel, &r); // keeps the arguments set now
    if (r != CL_SUCCESS) return r;
    {
        const cl_mem none = nullptr;
        std::lock_guard lock(null_arguments_mutex);
        for (const auto& [k, index] : null_arguments)
            if (k == kernel && (r = cl().set_kernel_arg(c->kernel, index, sizeof none, &none)) != CL_SUCCESS)
                return r;
    }
    c->dimensions = dims;
    for (cl_uint i = 0; i < dims; ++i) {
        c->global[i] = global[i];
        c->offset[i] = offset ? offset[i] : 0;
        c->local[i] = local ? local[i] : 0;
    }
    c->has_offset = offset != nullptr;
    c->has_local = local != nullptr;
    return recorded(cb, queue, std::move(c), waits, wait_list, sync_point, handle);
}

cl_int CL_API_CALL barrier(cl_command_buffer_khr cb, cl_command_queue queue, cl_uint waits,
                           const cl_sync_point_khr* wait_list, cl_sync_point_khr* sync_point,
                           cl_mutable_command_khr* handle) {
    return recorded(cb, queue, std::make_unique<kept_command>(kept_command::kind::barrier), waits, wait_list,
                    sync_point, handle);
}

cl_int CL_API_CALL copy(cl_command_buffer_khr cb, cl_command_queue queue, cl_mem source, cl_mem destination,
                        size_t source_offset, size_t destination_offset, size_t bytes, cl_uint waits,
                        const cl_sync_point_khr* wait_list, cl_sync_point_khr* sync_point,
                        cl_mutable_command_khr* handle) {
    auto c = std::make_unique<kept_command>(kept_command::kind::copy);
    c->source = source;
    c->destination = destination;
    c->source_offset = source_offset;
    c->destination_offset = destination_offset;
    c->bytes = bytes;
    return recorded(cb, queue, std::move(c), waits, wait_list, sync_point, handle);
}

cl_int CL_API_CALL fill(cl_command_buffer_khr cb, cl_command_queue queue, cl_mem buffer, const void* pattern,
                        size_t pattern_bytes, size_t offset, size_t bytes, cl_uint waits,
                        const cl_sync_point_khr* wait_list, cl_sync_point_khr* sync_point,
                        cl_mutable_command_khr* handle) {
    if (!pattern) return CL_INVALID_VALUE;
    auto c = std::make_unique<kept_command>(kept_command::kind::fill);
    c->destination = buffer;
    c->pattern = bytes_of(pattern, pattern_bytes);
    c->destination_offset = offset;
    c->bytes = bytes;
    return recorded(cb, queue, std::move(c), waits, wait_list, sync_point, handle);
}

cl_int CL_API_CALL svm_memcpy(cl_command_buffer_khr cb, cl_command_queue queue, void* destination,
                              const void* source, size_t bytes, cl_uint waits, const cl_sync_point_khr* wait_list,
                              cl_sync_point_khr* sync_point, cl_mutable_command_khr* handle) {
    auto c = std::make_unique<kept_command>(kept_command::kind::svm_memcpy);
    c->svm_destination = destination;
    c->svm_source = source;
    c->bytes = bytes;
    return recorded(cb, queue, std::move(c), waits, wait_list, sync_point, handle);
}

cl_int CL_API_CALL svm_fill(cl_command_buffer_khr cb, cl_command_queue queue, void* destination,
                            const void* pattern, size_t pattern_bytes, size_t bytes, cl_uint waits,
                            const cl_sync_point_khr* wait_list, cl_sync_point_khr* sync_point,
                            cl_mutable_command_khr* handle) {
    if (!pattern) return CL_INVALID_VALUE;
    auto c = std::make_unique<kept_command>(kept_command::kind::svm_fill);
    c->svm_destination = destination;
    c->pattern = bytes_of(pattern, pattern_bytes);
    c->bytes = bytes;
    return recorded(cb, queue, std::move(c), waits, wait_list, sync_point, handle);
}

// --- cl_khr_command_buffer_mutable_dispatch -----------------------------------------------------------------

// Checks every configuration first (what the extension names as errors), then applies them all; an argument the
// driver still refuses (clSetKernelArg: a wrong size) leaves the ones before it applied, unlike the extension.
cl_int update(cl_command_buffer_khr cb, const std::vector<dispatch_config>& configs) {
    std::lock_guard lock(layer_mutex);
    layer_buffer* b = find(cb);
    if (!b) return CL_INVALID_COMMAND_BUFFER_KHR;
    if (!b->finalized || !b->is_mutable) return CL_INVALID_OPERATION;
    for (const auto& u : configs) {
        auto* c = reinterpret_cast<kept_command*>(u.command);
        const bool ours = std::any_of(b->commands.begin(), b->commands.end(),
                                      [&](const auto& kept) { return kept.get() == c; });
        if (!ours || c->type != kept_command::kind::ndrange) return CL_INVALID_MUTABLE_COMMAND_KHR;
        if (u.num_exec_infos) return CL_INVALID_VALUE;
        if ((u.num_args || u.num_svm_args) && !(c->updatable & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR))
            return CL_INVALID_VALUE;
        if ((u.num_args && !u.arg_list) || (u.num_svm_args && !u.arg_svm_list)) return CL_INVALID_VALUE;
        if (u.work_dim && u.work_dim != c->dimensions) return CL_INVALID_VALUE;
        if (u.global_work_size && !(c->updatable & CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR)) return CL_INVALID_VALUE;
        if (u.local_work_size && !(c->updatable & CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR)) return CL_INVALID_VALUE;
        if (u.global_work_offset && !(c->updatable & CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR)) return CL_INVALID_VALUE;
        cl_uint parameters = 0;
        if (cl_int r = cl().get_kernel_info(c->kernel, CL_KERNEL_NUM_ARGS, sizeof parameters, &parameters, nullptr);
            r != CL_SUCCESS)
            return r;
        for (cl_uint i = 0; i < u.num_args; ++i)
            if (u.arg_list[i].arg_index >= parameters) return CL_INVALID_ARG_INDEX;
        for (cl_uint i = 0; i < u.num_svm_args; ++i)
            if (u.arg_svm_list[i].arg_index >= parameters) return CL_INVALID_ARG_INDEX;
    }
    for (const auto& u : configs) {
        auto* c = reinterpret_cast<kept_command*>(u.command);
        for (cl_uint i = 0; i < u.num_args; ++i) {
            const auto& a = u.arg_list[i];
            if (cl_int r = cl().set_kernel_arg(c->kernel, a.arg_index, a.arg_size, a.arg_value); r != CL_SUCCESS)
                return r;
        }
        for (cl_uint i = 0; i < u.num_svm_args; ++i) {
            const auto& a = u.arg_svm_list[i];
            if (cl_int r = cl().set_kernel_arg_svm(c->kernel, a.arg_index, a.arg_value); r != CL_SUCCESS) return r;
        }
        for (cl_uint d = 0; d < c->dimensions; ++d) {
            if (u.global_work_size) c->global[d] = u.global_work_size[d];
            if (u.local_work_size) c->local[d] = u.local_work_size[d];
            if (u.global_work_offset) c->offset[d] = u.global_work_offset[d];
        }
        c->has_local = c->has_local || u.local_work_size;
        c->has_offset = c->has_offset || u.global_work_offset;
    }
    b->stale = true; // the next enqueue records the updated commands
    updates_applied.fetch_add(1);
    return CL_SUCCESS;
}

cl_int CL_API_CALL update_linked(cl_command_buffer_khr cb, const base_config_linked* base) {
    if (!base || base->type != structure_base_config) return CL_INVALID_VALUE;
    if (base->num_mutable_dispatch && !base->mutable_dispatch_list) return CL_INVALID_VALUE;
    std::vector<dispatch_config> configs;
    for (cl_uint i = 0; i < base->num_mutable_dispatch; ++i) {
        if (base->mutable_dispatch_list[i].type != structure_dispatch_config) return CL_INVALID_VALUE;
        configs.push_back(base->mutable_dispatch_list[i].config);
    }
    return update(cb, configs);
}

cl_int CL_API_CALL update_array(cl_command_buffer_khr cb, cl_uint count, const cl_uint* types,
                                const void** configs) {
    if (count == 0 || !types || !configs) return CL_INVALID_VALUE;
    std::vector<dispatch_config> list;
    for (cl_uint i = 0; i < count; ++i) {
        if (types[i] != structure_dispatch_config || !configs[i]) return CL_INVALID_VALUE;
        list.push_back(*static_cast<const dispatch_config*>(configs[i]));
    }
    return update(cb, list);
}

cl_int CL_API_CALL mutable_command_info(cl_mutable_command_khr command, cl_uint name, size_t size, void* value,
                                        size_t* size_ret) {
    std::lock_guard lock(layer_mutex);
    auto* c = reinterpret_cast<kept_command*>(command);
    const bool live = std::any_of(live_buffers.begin(), live_buffers.end(), [&](layer_buffer* b) {
        return std::any_of(b->commands.begin(), b->commands.end(), [&](const auto& kept) { return kept.get() == c; });
    });
    if (!live) return CL_INVALID_MUTABLE_COMMAND_KHR;
    switch (name) {
    case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR: {
        auto cb = reinterpret_cast<cl_command_buffer_khr>(c->owner);
        return answer(&cb, sizeof cb, size, value, size_ret);
    }
    case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
        return answer(&c->dimensions, sizeof c->dimensions, size, value, size_ret);
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR:
        return answer(c->global, c->dimensions * sizeof(size_t), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) unsigned encore_test_layer_buffers_created() { return buffers_created.load(); }
__attribute__((visibility("default"))) unsigned encore_test_layer_updates() { return updates_applied.load(); }
__attribute__((visibility("default"))) unsigned encore_test_layer_markers() { return markers_enqueued.load(); }

// Pass on; count markers after everything enqueued before them (an empty wait list).
__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint count, const cl_event* wait_list, cl_event* event) {
    const cl_int r = cl().enqueue_marker(queue, count, wait_list, event);
    if (r == CL_SUCCESS && count == 0) markers_enqueued.fetch_add(1);
    return r;
}

// Pass on; note which arguments are set to a null buffer (see the top).
__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void* value) {
    const cl_int r = cl().set_kernel_arg(kernel, index, size, value);
    if (r != CL_SUCCESS) return r;
    // A 64-bit scalar 0 looks the same; setting it again as a pointer to a null cl_mem gives both their value.
    const bool null_buffer = size == sizeof(cl_mem) && (!value || !*static_cast<const cl_mem*>(value));
    note_argument(kernel, index, null_buffer);
    return r;
}

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint index, const void* value) {
    const cl_int r = cl().set_kernel_arg_svm(kernel, index, value);
    if (r == CL_SUCCESS) note_argument(kernel, index, false);
    return r;
}

__attribute__((visibility("default"))) CL_API_ENTRY cl_kernel CL_API_CALL
clCreateKernel(cl_program program, const char* name, cl_int* result) {
    cl_kernel k = cl().create_kernel(program, name, result);
    if (k) forget_kernel(k);
    return k;
}

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceInfo(cl_device_id device, cl_device_info name, size_t size, void* value, size_t* size_ret) {
    if (name != CL_DEVICE_EXTENSIONS && name != CL_DEVICE_EXTENSIONS_WITH_VERSION &&
        name != CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR)
        return cl().get_device_info(device, name, size, value, size_ret);
    if (!emulated_on(device)) return cl().get_device_info(device, name, size, value, size_ret);
    if (name == CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR)
        return answer(&offered_fields, sizeof offered_fields, size, value, size_ret);
    std::size_t bytes = 0;
    if (cl_int r = cl().get_device_info(device, name, 0, nullptr, &bytes); r != CL_SUCCESS) return r;
    std::vector<char> own(bytes);
    if (cl_int r = cl().get_device_info(device, name, bytes, own.data(), nullptr); r != CL_SUCCESS) return r;
    if (name == CL_DEVICE_EXTENSIONS) {
        std::string list(own.data());
        list += (list.empty() || list.back() == ' ' ? "" : " ");
        list += "cl_khr_command_buffer_mutable_dispatch";
        return answer(list.c_str(), list.size() + 1, size, value, size_ret);
    }
    cl_name_version added{};
    added.version = offered_version();
    std::strcpy(added.name, "cl_khr_command_buffer_mutable_dispatch");
    const auto* added_bytes = reinterpret_cast<const char*>(&added);
    own.insert(own.end(), added_bytes, added_bytes + sizeof added);
    return answer(own.data(), own.size(), size, value, size_ret);
}

__attribute__((visibility("default"))) CL_API_ENTRY void* CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* name) {
    void* real = cl().extension_address(platform, name);
    if (!name) return real;
    const std::string n = name;
    if (n == "clUpdateMutableCommandsKHR")
        return offered_version() >= encore::opencl::detail::first_array_update ? reinterpret_cast<void*>(&update_array)
                                                              : reinterpret_cast<void*>(&update_linked);
    if (n == "clGetMutableCommandInfoKHR") return reinterpret_cast<void*>(&mutable_command_info);
    if (!real) return nullptr; // the driver lacks the call: so does the layer
    if (n == "clSetKernelArgMemPointerINTEL") {
        real_set_usm_pointer = reinterpret_cast<set_pointer_fn>(real);
        return reinterpret_cast<void*>(&set_usm_pointer);
    }
    if (n == "clCreateCommandBufferKHR") return reinterpret_cast<void*>(&create);
    if (n == "clFinalizeCommandBufferKHR") return reinterpret_cast<void*>(&finalize);
    if (n == "clRetainCommandBufferKHR") return reinterpret_cast<void*>(&retain);
    if (n == "clReleaseCommandBufferKHR") return reinterpret_cast<void*>(&release);
    if (n == "clEnqueueCommandBufferKHR") return reinterpret_cast<void*>(&enqueue);
    if (n == "clCommandNDRangeKernelKHR") return reinterpret_cast<void*>(&ndrange);
    if (n == "clCommandBarrierWithWaitListKHR") return reinterpret_cast<void*>(&barrier);
    if (n == "clCommandCopyBufferKHR") return reinterpret_cast<void*>(&copy);
    if (n == "clCommandFillBufferKHR") return reinterpret_cast<void*>(&fill);
    if (n == "clCommandSVMMemcpyKHR") return reinterpret_cast<void*>(&svm_memcpy);
    if (n == "clCommandSVMMemFillKHR") return reinterpret_cast<void*>(&svm_fill);
    if (n == "clGetCommandBufferInfoKHR") return nullptr; // not emulated: it would answer for the real buffer
    return real;
}

} // extern "C"

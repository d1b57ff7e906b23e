#include "opencl_command_buffer_api.hpp"

#include "encore/backends/opencl/detail/mutable_dispatch_abi.hpp"

namespace encore::opencl {

namespace {

using properties = const cl_properties*;

// Up to 0.9.4: no properties on barrier, copy, fill and the SVM commands.
using barrier_provisional = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, cl_uint,
                                                 const cl_sync_point_khr*, cl_sync_point_khr*,
                                                 cl_mutable_command_khr*);
using copy_provisional = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, cl_mem, cl_mem, size_t,
                                              size_t, size_t, cl_uint, const cl_sync_point_khr*,
                                              cl_sync_point_khr*, cl_mutable_command_khr*);
using fill_provisional = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, cl_mem, const void*,
                                              size_t, size_t, size_t, cl_uint, const cl_sync_point_khr*,
                                              cl_sync_point_khr*, cl_mutable_command_khr*);
using svm_memcpy_provisional = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, void*,
                                                    const void*, size_t, cl_uint, const cl_sync_point_khr*,
                                                    cl_sync_point_khr*, cl_mutable_command_khr*);
using svm_fill_provisional = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, void*, const void*,
                                                  size_t, size_t, cl_uint, const cl_sync_point_khr*,
                                                  cl_sync_point_khr*, cl_mutable_command_khr*);
// 0.9.5 and 1.0: a properties list after the queue.
using barrier_final = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, properties, cl_uint,
                                           const cl_sync_point_khr*, cl_sync_point_khr*,
                                           cl_mutable_command_khr*);
using copy_final = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, properties, cl_mem, cl_mem,
                                        size_t, size_t, size_t, cl_uint, const cl_sync_point_khr*,
                                        cl_sync_point_khr*, cl_mutable_command_khr*);
using fill_final = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, properties, cl_mem,
                                        const void*, size_t, size_t, size_t, cl_uint,
                                        const cl_sync_point_khr*, cl_sync_point_khr*,
                                        cl_mutable_command_khr*);
using svm_memcpy_final = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, properties, void*,
                                              const void*, size_t, cl_uint, const cl_sync_point_khr*,
                                              cl_sync_point_khr*, cl_mutable_command_khr*);
using svm_fill_final = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_command_queue, properties, void*,
                                            const void*, size_t, size_t, cl_uint, const cl_sync_point_khr*,
                                            cl_sync_point_khr*, cl_mutable_command_khr*);

} // namespace

bool command_buffer_functions::load_mutable_dispatch(cl_platform_id platform, cl_version reported) {
    const auto& cl = detail::api::get();
    mutable_version_ = reported;
    update_ = reported ? cl.clGetExtensionFunctionAddressForPlatform(platform, "clUpdateMutableCommandsKHR")
                       : nullptr;
    return update_ != nullptr;
}

cl_int command_buffer_functions::update_dispatch(cl_command_buffer_khr cb, const dispatch_update& u) const {
    const detail::dispatch_config config{u.command,
                                         static_cast<cl_uint>(u.arguments.size()),
                                         static_cast<cl_uint>(u.svm_arguments.size()),
                                         0,
                                         u.work_dim,
                                         u.arguments.empty() ? nullptr : u.arguments.data(),
                                         u.svm_arguments.empty() ? nullptr : u.svm_arguments.data(),
                                         nullptr,
                                         u.global_offset,
                                         u.global_size,
                                         u.local_size};
    if (mutable_version_ >= detail::first_array_update) {
        const cl_uint type = detail::structure_dispatch_config;
        const void* configs[] = {&config};
        return reinterpret_cast<detail::update_array_fn>(update_)(cb, 1, &type, configs);
    }
    const detail::dispatch_config_linked linked{detail::structure_dispatch_config, nullptr, config};
    const detail::base_config_linked base{detail::structure_base_config, nullptr, 1, &linked};
    return reinterpret_cast<detail::update_linked_fn>(update_)(cb, &base);
}

bool command_buffer_functions::load(cl_platform_id platform, cl_version reported) {
    const auto& cl = detail::api::get();
    auto get = [&](const char* name) { return cl.clGetExtensionFunctionAddressForPlatform(platform, name); };
    version = reported;
    final_signatures = reported >= CL_MAKE_VERSION(0, 9, 5);
    create = reinterpret_cast<clCreateCommandBufferKHR_fn>(get("clCreateCommandBufferKHR"));
    finalize = reinterpret_cast<clFinalizeCommandBufferKHR_fn>(get("clFinalizeCommandBufferKHR"));
    release = reinterpret_cast<clReleaseCommandBufferKHR_fn>(get("clReleaseCommandBufferKHR"));
    enqueue = reinterpret_cast<clEnqueueCommandBufferKHR_fn>(get("clEnqueueCommandBufferKHR"));
    ndrange = reinterpret_cast<clCommandNDRangeKernelKHR_fn>(get("clCommandNDRangeKernelKHR"));
    barrier_ = get("clCommandBarrierWithWaitListKHR");
    copy_ = get("clCommandCopyBufferKHR");
    fill_ = get("clCommandFillBufferKHR");
    if (reported >= CL_MAKE_VERSION(0, 9, 4)) {
        svm_memcpy_ = get("clCommandSVMMemcpyKHR");
        svm_fill_ = get("clCommandSVMMemFillKHR");
    }
    return create && finalize && release && enqueue && ndrange && barrier_ && copy_ && fill_;
}

cl_int command_buffer_functions::barrier(cl_command_buffer_khr cb, cl_uint waits,
                                         const cl_sync_point_khr* wait_list,
                                         cl_sync_point_khr* sync_point) const {
    if (final_signatures)
        return reinterpret_cast<barrier_final>(barrier_)(cb, nullptr, nullptr, waits, wait_list, sync_point,
                                                         nullptr);
    return reinterpret_cast<barrier_provisional>(barrier_)(cb, nullptr, waits, wait_list, sync_point,
                                                           nullptr);
}

cl_int command_buffer_functions::copy_buffer(cl_command_buffer_khr cb, cl_mem source, cl_mem destination,
                                             std::size_t source_offset, std::size_t destination_offset,
                                             std::size_t bytes, cl_uint waits,
                                             const cl_sync_point_khr* wait_list,
                                             cl_sync_point_khr* sync_point) const {
    if (final_signatures)
        return reinterpret_cast<copy_final>(copy_)(cb, nullptr, nullptr, source, destination, source_offset,
                                                   destination_offset, bytes, waits, wait_list, sync_point,
                                                   nullptr);
    return reinterpret_cast<copy_provisional>(copy_)(cb, nullptr, source, destination, source_offset,
                                                     destination_offset, bytes, waits, wait_list, sync_point,
                                                     nullptr);
}

cl_int command_buffer_functions::fill_buffer(cl_command_buffer_khr cb, cl_mem buffer, const void* pattern,
                                             std::size_t pattern_bytes, std::size_t offset, std::size_t bytes,
                                             cl_uint waits, const cl_sync_point_khr* wait_list,
                                             cl_sync_point_khr* sync_point) const {
    if (final_signatures)
        return reinterpret_cast<fill_final>(fill_)(cb, nullptr, nullptr, buffer, pattern, pattern_bytes,
                                                   offset, bytes, waits, wait_list, sync_point, nullptr);
    return reinterpret_cast<fill_provisional>(fill_)(cb, nullptr, buffer, pattern, pattern_bytes, offset,
                                                     bytes, waits, wait_list, sync_point, nullptr);
}

cl_int command_buffer_functions::svm_memcpy(cl_command_buffer_khr cb, void* destination, const void* source,
                                            std::size_t bytes, cl_uint waits,
                                            const cl_sync_point_khr* wait_list,
                                            cl_sync_point_khr* sync_point) const {
    if (final_signatures)
        return reinterpret_cast<svm_memcpy_final>(svm_memcpy_)(cb, nullptr, nullptr, destination, source,
                                                               bytes, waits, wait_list, sync_point, nullptr);
    return reinterpret_cast<svm_memcpy_provisional>(svm_memcpy_)(cb, nullptr, destination, source, bytes,
                                                                 waits, wait_list, sync_point, nullptr);
}

cl_int command_buffer_functions::svm_fill(cl_command_buffer_khr cb, void* destination, const void* pattern,
                                          std::size_t pattern_bytes, std::size_t bytes, cl_uint waits,
                                          const cl_sync_point_khr* wait_list,
                                          cl_sync_point_khr* sync_point) const {
    if (final_signatures)
        return reinterpret_cast<svm_fill_final>(svm_fill_)(cb, nullptr, nullptr, destination, pattern,
                                                           pattern_bytes, bytes, waits, wait_list, sync_point,
                                                           nullptr);
    return reinterpret_cast<svm_fill_provisional>(svm_fill_)(cb, nullptr, destination, pattern, pattern_bytes,
                                                             bytes, waits, wait_list, sync_point, nullptr);
}

} // namespace encore::opencl

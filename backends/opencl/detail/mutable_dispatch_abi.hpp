// The configurations clUpdateMutableCommandsKHR (cl_khr_command_buffer_mutable_dispatch) takes, in the two forms
// the extension gave them while provisional: up to 0.9.1 one base configuration whose list holds the dispatch
// configurations, each led by a structure type and a `next` pointer; from 0.9.2 on arrays of configuration
// types and configurations, a dispatch configuration without those two fields. Declared here, not taken from
// the CL header, so that the layout of the version a device reports is used whatever header Encore was built
// with (the OpenCL backend, and the test layer that emulates the extension).
#pragma once

#include <cstddef>

#include "encore/backends/opencl/detail/api.hpp"

namespace encore::opencl::detail {

struct dispatch_config {
    cl_mutable_command_khr command;
    cl_uint num_args, num_svm_args, num_exec_infos, work_dim;
    const cl_mutable_dispatch_arg_khr* arg_list;
    const cl_mutable_dispatch_arg_khr* arg_svm_list;
    const void* exec_info_list;
    const std::size_t* global_work_offset;
    const std::size_t* global_work_size;
    const std::size_t* local_work_size;
};

// Up to 0.9.1.
struct dispatch_config_linked {
    cl_uint type; // structure_dispatch_config
    const void* next;
    dispatch_config config;
};
struct base_config_linked {
    cl_uint type; // structure_base_config
    const void* next;
    cl_uint num_mutable_dispatch;
    const dispatch_config_linked* mutable_dispatch_list;
};
using update_linked_fn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, const base_config_linked*);
// From 0.9.2: configs[i] points to a dispatch_config when types[i] is structure_dispatch_config.
using update_array_fn = cl_int(CL_API_CALL*)(cl_command_buffer_khr, cl_uint count, const cl_uint* types,
                                             const void** configs);

inline constexpr cl_uint structure_base_config = 0, structure_dispatch_config = 1; // the extension's values
inline constexpr cl_version first_array_update = CL_MAKE_VERSION(0, 9, 2);

} // namespace encore::opencl::detail

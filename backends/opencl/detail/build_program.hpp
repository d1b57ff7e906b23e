// encore::opencl::detail::build_program — build_program (opencl_program.hpp) for a device named by its OpenCL
// handles rather than by an encore::device: what the backend itself calls to build the SPIR-V or SPIR code of a
// kernel encore++ outlined, for the device a queue runs on (through the same kernel/program cache).
#pragma once

#include <span>
#include <string>

#include "encore/backends/opencl/detail/api.hpp"
#include "encore/backends/opencl/opencl_program.hpp"

namespace encore::opencl::detail {

program_binary build_program(const platform_device& pd, const program_source& source,
                             std::span<const std::string> options = {});

} // namespace encore::opencl::detail

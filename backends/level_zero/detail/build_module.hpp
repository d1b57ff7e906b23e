// encore::level_zero::detail::build_module — build_module (level_zero_module.hpp) for a driver's device given by its
// handles: what the backend calls for the SPIR-V of kernels encore++ outlined, through the kernel/program cache.
#pragma once

#include <span>
#include <string>

#include "encore/backends/level_zero/detail/api.hpp"
#include "encore/backends/level_zero/level_zero_module.hpp"

namespace encore::level_zero::detail {

module_binary build_module(const driver_device& dd, const module_source& source,
                           std::span<const std::string> options = {});

} // namespace encore::level_zero::detail

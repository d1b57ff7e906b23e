// DPC++ installs <sycl/ext/oneapi/experimental/graph/command_graph.hpp> (part of sycl_ext_oneapi_graph).
// Encore defines it in <sycl/ext/oneapi/experimental/graph.hpp>.
#pragma once

#include "sycl/ext/oneapi/experimental/graph.hpp"

// DPC++ installs <sycl/backend_types.hpp> (sycl::backend).
// Encore defines it in <sycl/info.hpp>.
#pragma once

#include "sycl/info.hpp"

// DPC++ installs <sycl/context.hpp> (sycl::context).
// Encore defines it in <sycl/device.hpp>.
#pragma once

#include "sycl/device.hpp"

// DPC++ installs <sycl/platform.hpp> (sycl::platform).
// Encore defines it in <sycl/device.hpp>.
#pragma once

#include "sycl/device.hpp"

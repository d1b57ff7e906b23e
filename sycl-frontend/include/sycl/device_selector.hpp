// DPC++ installs <sycl/device_selector.hpp> (the device selectors).
// Encore defines it in <sycl/device.hpp>.
#pragma once

#include "sycl/device.hpp"

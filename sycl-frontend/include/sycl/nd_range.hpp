// DPC++ installs <sycl/nd_range.hpp> (sycl::nd_range).
// Encore defines it in <sycl/item.hpp>.
#pragma once

#include "sycl/item.hpp"

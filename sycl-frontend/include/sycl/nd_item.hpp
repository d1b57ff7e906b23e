// DPC++ installs <sycl/nd_item.hpp> (sycl::nd_item).
// Encore defines it in <sycl/item.hpp>.
#pragma once

#include "sycl/item.hpp"

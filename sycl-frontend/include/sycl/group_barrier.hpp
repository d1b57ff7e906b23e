// DPC++ installs <sycl/group_barrier.hpp> (sycl::group_barrier).
// Encore defines it in <sycl/item.hpp>.
#pragma once

#include "sycl/item.hpp"

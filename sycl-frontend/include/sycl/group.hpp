// DPC++ installs <sycl/group.hpp> (sycl::group).
// Encore defines it in <sycl/item.hpp>.
#pragma once

#include "sycl/item.hpp"

// DPC++ installs <sycl/usm/usm_allocator.hpp> (sycl::usm_allocator).
// Encore defines it in <sycl/usm.hpp>.
#pragma once

#include "sycl/usm.hpp"

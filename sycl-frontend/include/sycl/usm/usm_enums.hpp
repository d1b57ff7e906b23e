// DPC++ installs <sycl/usm/usm_enums.hpp> (sycl::usm::alloc).
// Encore defines it in <sycl/usm.hpp>.
#pragma once

#include "sycl/usm.hpp"

// DPC++ installs <sycl/id.hpp> (sycl::id).
// Encore defines it in <sycl/range.hpp>.
#pragma once

#include "sycl/range.hpp"

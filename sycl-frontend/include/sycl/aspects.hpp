// DPC++ installs <sycl/aspects.hpp> (sycl::aspect).
// Encore defines it in <sycl/info.hpp>.
#pragma once

#include "sycl/info.hpp"

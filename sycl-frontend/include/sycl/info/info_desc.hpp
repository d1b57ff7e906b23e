// DPC++ installs <sycl/info/info_desc.hpp> (the info descriptors).
// Encore defines it in <sycl/info.hpp>.
#pragma once

#include "sycl/info.hpp"

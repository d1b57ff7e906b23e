// DPC++ installs <sycl/access/access.hpp> (sycl::access_mode, sycl::target and the access namespace).
// Encore defines it in <sycl/buffer.hpp>.
#pragma once

#include "sycl/buffer.hpp"

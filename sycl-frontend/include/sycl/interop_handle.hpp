// DPC++ installs <sycl/interop_handle.hpp> (sycl::interop_handle).
// Encore defines it in <sycl/handler.hpp>.
#pragma once

#include "sycl/handler.hpp"

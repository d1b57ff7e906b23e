// DPC++ installs <sycl/exception_list.hpp> (sycl::exception_list).
// Encore defines it in <sycl/exception.hpp>.
#pragma once

#include "sycl/exception.hpp"

// DPC++ installs <sycl/detail/core.hpp>, the core of <sycl/sycl.hpp> that its own tests and some programs include
// to compile faster; in Encore it is all of <sycl/sycl.hpp>.
#pragma once

#include "sycl/sycl.hpp"

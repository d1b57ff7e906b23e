// DPC++ installs <sycl/h_item.hpp> (sycl::h_item).
// Encore defines it in <sycl/item.hpp>.
#pragma once

#include "sycl/item.hpp"

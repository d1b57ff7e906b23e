// DPC++ installs <sycl/detail/host_task_impl.hpp> (host tasks; an internal header some programs include).
// Encore defines it in <sycl/handler.hpp>.
#pragma once

#include "sycl/handler.hpp"

// A user header for diag_device_global.cpp: functions (marked for the device or not) and a device_global.
#pragma once

#include <sycl/sycl.hpp>

inline int helper(int x) { return x + 1; }
ENCORE_HOST_DEVICE inline int marked_helper(int x) { return x + 2; }
// A device_global of another file, for diag_device_global.cpp.
inline sycl::ext::oneapi::experimental::device_global<int> header_global;

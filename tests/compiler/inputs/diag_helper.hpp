// A user header for diag_user_header.cpp: one function marked for the device, one not.
#pragma once

#include <sycl/sycl.hpp>

inline int helper(int x) { return x + 1; }
ENCORE_HOST_DEVICE inline int marked_helper(int x) { return x + 2; }

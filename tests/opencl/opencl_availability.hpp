// Whether the OpenCL backend is there to test: the check the OpenCL suite's main makes before anything runs.
#pragma once

#include "support/backend_availability.hpp"

namespace encore::opencl_testing {

// 0 when the opencl backend loaded with a device; 77 (skipped) without OpenCL; 1 when the plugin failed otherwise.
inline int opencl_unavailable_status() {
    return encore::testing::backend_unavailable_status("opencl");
}

} // namespace encore::opencl_testing

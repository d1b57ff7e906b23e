// sycl::ext::encore — OpenCL C and SPIR-V (source_language::opencl and spirv, for OpenCL devices): kept for the programs that include
// it. The kernel compiler (kernel_compiler.hpp) now builds every language through the backend of the context's
// devices, so this header adds nothing, and programs no longer link a library for it.
#pragma once

#include "sycl/ext/encore/kernel_compiler.hpp"

// sycl::ext::encore — CUDA C++ (source_language::cuda, through NVRTC, for CUDA devices): kept for the programs that include
// it. The kernel compiler (kernel_compiler.hpp) now builds every language through the backend of the context's
// devices, so this header adds nothing, and programs no longer link a library for it.
#pragma once

#include "sycl/ext/encore/kernel_compiler.hpp"

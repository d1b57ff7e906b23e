// encore::note_program_device_code — which backends this program carries compiled device code for.
//
// A kernel written as C++ and compiled by g++ exists only as host code: it runs on backends that run host code
// (the native backend, device_properties::host_kernels) and nowhere else. A program whose kernels were also
// compiled for a device — nvcc single source today (backends/cuda/single_source.hpp registers "cuda" when a
// translation unit includes it), the compiler module's embedded device images later — says so here, once per
// backend, usually from a static initializer. The default device is chosen from this (device::default_device,
// sycl::default_selector_v): a GPU is the default only for a program that carries code for it.
//
// Kernels built at run time (NVRTC source, modules loaded by name) are not counted: a program using them asks
// for its device explicitly (a selector, ONEAPI_DEVICE_SELECTOR or ENCORE_BACKENDS).
//
//     static const bool registered = (encore::note_program_device_code("cuda", "nvcc single source"), true);
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace encore {

// Thread-safe; may be called before main. `origin` says where the code came from (shown by ENCORE_TRACE).
void note_program_device_code(std::string_view backend, std::string_view origin);
bool program_has_device_code(std::string_view backend);
// "cuda (nvcc single source)", one entry per backend, in the order they were noted.
std::vector<std::string> program_device_code();
// How many backends have been noted so far: a choice made from this list stays valid while the count holds.
std::size_t program_device_code_count() noexcept;

} // namespace encore

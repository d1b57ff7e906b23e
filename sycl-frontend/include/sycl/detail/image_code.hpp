#pragma once
// The device code of one image encore++ embedded (compiler/kernel_descriptor.hpp's device_image) as the GPU layer
// takes it (backends/gpu/device_code.hpp): the image's id, machine code and architectures, and its portable code
// (PTX) for the GPUs it has no machine code for. Kernels add their entry, convention and arguments; a
// device_global's lookup needs the image alone.

#include "encore/backends/gpu/device_code.hpp"
#include "encore/compiler/kernel_descriptor.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

inline ::encore::gpu::device_code image_code(const ::encore::compiler::device_image& image) noexcept {
    ::encore::gpu::device_code code;
    code.image_id = image.id;
    code.image = image.data;
    code.architectures = image.architectures;
    code.portable = image.portable;
    code.portable_bytes = image.portable_size;
    return code;
}

} // namespace detail
} // namespace _V1
} // namespace sycl

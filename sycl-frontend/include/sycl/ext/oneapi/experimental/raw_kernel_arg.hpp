// sycl_ext_oneapi_raw_kernel_arg: a kernel argument given as raw bytes, for kernels whose parameter types the
// program does not have (kernels built at run time, the kernel-compiler API). handler::set_arg copies the bytes
// when it is called; a dynamic_parameter<raw_kernel_arg> in a graph copies them at each update().
//
//     struct params { float scale; int offset; } p{2.0f, 1};
//     h.set_arg(0, sycl::ext::oneapi::experimental::raw_kernel_arg(&p, sizeof(p)));
#pragma once

#include <cstddef>

#include "encore/graph/kernel.hpp"
#include "sycl/exception.hpp"

namespace sycl {
inline namespace _V1 {
namespace ext::oneapi::experimental {

class raw_kernel_arg {
public:
    // Throws errc::invalid when `bytes` is null and `count` is not zero.
    raw_kernel_arg(const void* bytes, std::size_t count) : bytes_(bytes), count_(count) {
        if (!bytes && count != 0)
            throw exception(errc::invalid, "raw_kernel_arg: the byte pointer is null but the count is " +
                                               std::to_string(count));
    }

    // Encore: the argument, its bytes copied now.
    ::encore::kernel_argument ext_encore_argument() const {
        return ::encore::kernel_argument::from_bytes(bytes_, count_);
    }

private:
    const void* bytes_;
    std::size_t count_;
};

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

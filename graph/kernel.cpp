#include "kernel.hpp"

#include "error.hpp"

namespace encore {

void validate(const nd_range& range) {
    if (range.dimensions < 1 || range.dimensions > 3)
        throw error(errc::invalid_argument,
                    "nd_range has " + std::to_string(range.dimensions) + " dimensions; 1 to 3 are allowed");
    for (int d = 0; d < 3; ++d) {
        if (range.global[d] == 0)
            throw error(errc::invalid_argument, "nd_range global size is zero in dimension " + std::to_string(d));
        if (range.has_local_size() && (range.local[d] == 0 || range.global[d] % range.local[d] != 0))
            throw error(errc::invalid_argument,
                        "nd_range local size " + std::to_string(range.local[d]) + " does not divide global size " +
                            std::to_string(range.global[d]) + " in dimension " + std::to_string(d));
    }
}

kernel_argument kernel_argument::from_pointer(const void* p) {
    kernel_argument a = from_scalar(p);
    a.type = kind::pointer;
    return a;
}

kernel_argument kernel_argument::local(std::size_t bytes) {
    kernel_argument a;
    a.type = kind::local_memory;
    a.local_bytes = bytes;
    return a;
}

void* kernel_argument::pointer() const {
    if (type != kind::pointer || bytes.size() != sizeof(void*))
        throw error(errc::invalid_argument, "kernel argument is not a pointer");
    return scalar<void*>();
}

} // namespace encore

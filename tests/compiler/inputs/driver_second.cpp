// The second source of the driver test's program (driver_program.cpp): a kernel of its own and the functor both
// sources launch. Returns its own kernel's descriptor, for the first source to check its image.
#include <typeinfo>

#include "driver_shared.hpp"
#include "encore/compiler/kernel_descriptor.hpp"

const encore::compiler::kernel_descriptor* second_source(sycl::queue& q, float* y, std::size_t n) {
    auto add_one = [=](sycl::id<1> i) { y[i] += 1.0f; };
    q.parallel_for(sycl::range<1>{n}, add_one).wait();
    q.parallel_for(sycl::range<1>{n}, scale_by{y, 2.0f}).wait();
    return encore::compiler::find_kernel(typeid(add_one).name());
}

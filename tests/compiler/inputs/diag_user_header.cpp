// A function of another user file must be marked ENCORE_HOST_DEVICE to be called from a kernel.
#include <sycl/sycl.hpp>

#include "diag_helper.hpp"

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    q.parallel_for<class helped>(sycl::range<1>{4}, [=](sycl::id<1> i) {
        p[i] = helper(2) + marked_helper(3); // expect-error[helper]: kernel 'main::helped' cannot call 'helper' in device code: it is declared in another file without ENCORE_HOST_DEVICE
    });
}

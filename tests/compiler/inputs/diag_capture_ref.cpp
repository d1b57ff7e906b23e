// A lambda kernel cannot capture by reference.
#include <sycl/sycl.hpp>

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    int scale = 3;
    q.parallel_for<class by_ref>(sycl::range<1>{4}, [&](sycl::id<1> i) {
        const int s = scale; // expect-error[scale]: kernel 'main::by_ref' cannot capture 'scale' by reference
        p[i] = s;            // expect-error[p]: kernel 'main::by_ref' cannot capture 'p' by reference
    });
}

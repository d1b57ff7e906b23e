// No thread_local variables in device code.
#include <sycl/sycl.hpp>

thread_local int seed = 1;

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    q.parallel_for<class seeded>(sycl::range<1>{4}, [=](sycl::id<1> i) {
        p[i] = seed; // expect-error[seed]: kernel 'main::seeded' cannot use thread_local variable 'seed' in device code
    });
}

// No non-const globals in device code.
#include <sycl/sycl.hpp>

int total = 0;
const int limit = 4; // const: allowed

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    q.parallel_for<class summer>(sycl::range<1>{limit}, [=](sycl::id<1> i) {
        p[i] = total + limit; // expect-error[total]: kernel 'main::summer' cannot use non-const global or static variable 'total' in device code
    });
}

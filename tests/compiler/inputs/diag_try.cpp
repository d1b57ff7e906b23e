// Device code cannot catch either.
#include <sycl/sycl.hpp>

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(1, q);
    q.parallel_for<class catcher>(sycl::range<1>{1}, [=](sycl::id<1> i) {
        try { // expect-error[try]: kernel 'main::catcher' cannot use try/catch in device code
            p[i] = 1;
        } catch (...) {
        }
    });
}

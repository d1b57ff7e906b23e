// Device code cannot throw.
#include <sycl/sycl.hpp>

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(1, q);
    q.parallel_for<class thrower>(sycl::range<1>{1}, [=](sycl::id<1> i) {
        if (!p) throw 1; // expect-error[throw]: kernel 'main::thrower' cannot throw exceptions in device code
        p[i] = 1;
    });
}

// A function the kernel calls must have its body in the translation unit.
#include <sycl/sycl.hpp>

int elsewhere(int x); // defined in another translation unit

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    q.parallel_for<class caller>(sycl::range<1>{4}, [=](sycl::id<1> i) {
        p[i] = elsewhere(1); // expect-error[elsewhere]: kernel 'main::caller' cannot call 'elsewhere' in device code: it has no visible body
    });
}

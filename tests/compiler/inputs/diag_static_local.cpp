// No static locals in device code (in a function the kernel calls).
#include <sycl/sycl.hpp>

int next_id() {
    static int calls = 0; // expect-error[calls]: kernel 'main::counter' cannot use non-const static variable 'calls' in device code
    return ++calls;
}

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    q.parallel_for<class counter>(sycl::range<1>{4}, [=](sycl::id<1> i) { p[i] = next_id(); });
}

// No recursion in device code: the call that closes the cycle is reported.
#include <sycl/sycl.hpp>

int odd(int n);
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
int odd(int n) {
    return n == 0 ? 0 : even(n - 1); // expect-error[even]: kernel 'main::parity' cannot call 'even' recursively in device code
}

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    q.parallel_for<class parity>(sycl::range<1>{4}, [=](sycl::id<1> i) { p[i] = even(static_cast<int>(i[0])); });
}

// An error in a function the kernel reaches through others comes with the calls that lead to it, innermost first.
#include <sycl/sycl.hpp>

int checked(int x) {
    if (x < 0) throw x; // expect-error[throw]: kernel 'main::chained' cannot throw exceptions in device code
    return x;
}
int twice_checked(int x) { return 2 * checked(x); } // expect-note[checked(x)]: 'checked' is called here

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    q.single_task<class chained>([=] { p[0] = twice_checked(p[1]); }); // expect-note[twice_checked]: 'twice_checked' is called here by the kernel
}

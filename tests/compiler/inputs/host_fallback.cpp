// A kernel that gets no device code: its reduction's operation is the program's own lambda, which device code
// does not run yet. A GPU build fails naming it, unless -fsycl-allow-host-fallback (tests/compiler/host_fallback_test.py).
#include <sycl/sycl.hpp>

int main() {
    sycl::queue q;
    int* sum = sycl::malloc_shared<int>(1, q);
    *sum = 0;
    auto add = [](int a, int b) { return a + b; };
    q.parallel_for(sycl::range<1>(16), sycl::reduction(sum, 0, add), [=](sycl::id<1> i, auto& r) {
         r.combine(static_cast<int>(i[0]));
     }).wait();
    const bool ok = *sum == 120;
    sycl::free(sum, q);
    return ok ? 0 : 1;
}

// Kernels that get no device code, each for its own reason: a reduction whose operation is the program's own lambda
// (device code does not run it yet), a kernel that throws (a device cannot), and a lambda that captures a parameter
// pack (its device entry cannot spell the expanded captures). A device build fails naming each, unless
// -fsycl-allow-host-fallback, which makes them warnings, and the program runs them on the native backend
// (tests/compiler/host_fallback_test.py).
#include <sycl/sycl.hpp>

#include <stdexcept>

template <typename... P> void store_all(sycl::queue& q, int* out, P... values) {
    q.single_task([=, ... v = values] {
         int i = 0;
         ((out[i++] = v), ...);
     }).wait();
}

int main() {
    sycl::queue q;
    int* sum = sycl::malloc_shared<int>(3, q);
    sum[0] = 0;
    auto add = [](int a, int b) { return a + b; };
    q.parallel_for(sycl::range<1>(16), sycl::reduction(sum, 0, add), [=](sycl::id<1> i, auto& r) {
         r.combine(static_cast<int>(i[0]));
     }).wait();
    bool ok = sum[0] == 120;
    q.single_task([=] {
         if (sum[0] != 120) throw std::runtime_error("the sum is wrong");
     }).wait_and_throw();
    store_all(q, sum + 1, 7, 9);
    ok = ok && sum[1] == 7 && sum[2] == 9;
    sycl::free(sum, q);
    return ok ? 0 : 1;
}

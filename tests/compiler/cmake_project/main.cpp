// Kernels of a shared library, a static library and this program, on the default device: prints the device and
// exits 0 when every element is what the host computes.
#include <cstdio>

#include "arithmetic.hpp"
#include "libraries.hpp"

int main() {
    sycl::queue q;
    constexpr int n = 256;
    int* data = sycl::malloc_shared<int>(n, q);
    for (int i = 0; i < n; ++i)
        data[i] = i;
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = shifted(data[i], 1); }).wait();
    scale_on(q, data, n);
    offset_on(q, data, n);
    int wrong = 0;
    for (int i = 0; i < n; ++i)
        wrong += data[i] != 2 * (i + 1) + 5;
    sycl::free(data, q);
    std::printf("%s: %d wrong\n", q.get_device().get_info<sycl::info::device::name>().c_str(), wrong);
    return wrong == 0 ? 0 : 1;
}

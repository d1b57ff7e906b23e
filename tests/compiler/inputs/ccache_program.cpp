// A small SYCL program for tests/compiler/ccache_test.py: prints how many elements a kernel got wrong.
#include <cstdio>

#include <sycl/sycl.hpp>

int main() {
    sycl::queue q;
    constexpr int n = 128;
    int* data = sycl::malloc_shared<int>(n, q);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = 3 * static_cast<int>(i[0]) + 1; }).wait();
    int wrong = 0;
    for (int i = 0; i < n; ++i)
        wrong += data[i] != 3 * i + 1;
    sycl::free(data, q);
    std::printf("%d wrong\n", wrong);
    return wrong == 0 ? 0 : 1;
}

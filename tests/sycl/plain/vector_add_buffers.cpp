// Vector addition with buffers and accessors; the result reaches the host vector when its buffer goes away.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

int main() {
    constexpr std::size_t n = 100000;
    std::vector<int> a(n), b(n), c(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<int>(i);
        b[i] = static_cast<int>(n - i);
    }
    sycl::queue q;
    {
        sycl::buffer<int> ba{a.data(), sycl::range<1>{n}};
        sycl::buffer<int> bb{b.data(), sycl::range<1>{n}};
        sycl::buffer<int> bc{c.data(), sycl::range<1>{n}};
        q.submit([&](sycl::handler& h) {
            sycl::accessor x{ba, h, sycl::read_only};
            sycl::accessor y{bb, h, sycl::read_only};
            sycl::accessor z{bc, h, sycl::write_only, sycl::no_init};
            h.parallel_for<class vector_add>(sycl::range<1>{n}, [=](sycl::id<1> i) { z[i] = x[i] + y[i]; });
        });
    }
    for (std::size_t i = 0; i < n; ++i)
        if (c[i] != static_cast<int>(n)) {
            std::printf("c[%zu] = %d, expected %zu\n", i, c[i], n);
            return 1;
        }
    std::printf("vector_add_buffers: %zu elements ok\n", n);
    return 0;
}

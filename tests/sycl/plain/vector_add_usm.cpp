// Vector addition with unified shared memory: device allocations, explicit copies, a kernel between them.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

int main() {
    constexpr std::size_t n = 1 << 20;
    sycl::queue q;
    std::vector<float> a(n), b(n), c(n);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i);
        b[i] = 2.0f * static_cast<float>(i);
    }
    float* da = sycl::malloc_device<float>(n, q);
    float* db = sycl::malloc_device<float>(n, q);
    float* dc = sycl::malloc_device<float>(n, q);
    if (!da || !db || !dc) return 2;

    auto copy_a = q.memcpy(da, a.data(), n * sizeof(float));
    auto copy_b = q.copy(b.data(), db, n);
    auto add = q.submit([&](sycl::handler& h) {
        h.depends_on({copy_a, copy_b});
        h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { dc[i] = da[i] + db[i]; });
    });
    q.memcpy(c.data(), dc, n * sizeof(float), add).wait_and_throw();

    sycl::free(da, q);
    sycl::free(db, q);
    sycl::free(dc, q);
    for (std::size_t i = 0; i < n; ++i)
        if (c[i] != 3.0f * static_cast<float>(i)) {
            std::printf("c[%zu] = %f, expected %f\n", i, c[i], 3.0f * static_cast<float>(i));
            return 1;
        }
    std::printf("vector_add_usm: %zu elements ok\n", n);
    return 0;
}

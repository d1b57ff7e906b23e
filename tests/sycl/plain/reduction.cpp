// Sum, minimum and maximum of a vector in one kernel with three sycl::reduction objects.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <limits>
#include <vector>

int main() {
    constexpr std::size_t n = 500000;
    std::vector<long> data(n);
    for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<long>((i * 7919) % 100003) - 50000;
    sycl::queue q;
    long* sum = sycl::malloc_shared<long>(1, q);
    long* lo = sycl::malloc_shared<long>(1, q);
    long* hi = sycl::malloc_shared<long>(1, q);
    *sum = 0;
    *lo = std::numeric_limits<long>::max();
    *hi = std::numeric_limits<long>::lowest();
    {
        sycl::buffer in{data};
        q.submit([&](sycl::handler& h) {
            sycl::accessor v{in, h, sycl::read_only};
            h.parallel_for(sycl::range<1>{n}, sycl::reduction(sum, sycl::plus<long>()),
                           sycl::reduction(lo, sycl::minimum<long>()), sycl::reduction(hi, sycl::maximum<long>()),
                           [=](sycl::id<1> i, auto& s, auto& mn, auto& mx) {
                               s += v[i];
                               mn.combine(v[i]);
                               mx.combine(v[i]);
                           });
        });
        q.wait_and_throw();
    }
    long esum = 0, elo = data[0], ehi = data[0];
    for (long v : data) {
        esum += v;
        elo = v < elo ? v : elo;
        ehi = v > ehi ? v : ehi;
    }
    const bool ok = *sum == esum && *lo == elo && *hi == ehi;
    std::printf("reduction: sum %ld (expected %ld), min %ld (%ld), max %ld (%ld)\n", *sum, esum, *lo, elo, *hi, ehi);
    sycl::free(sum, q);
    sycl::free(lo, q);
    sycl::free(hi, q);
    return ok ? 0 : 1;
}

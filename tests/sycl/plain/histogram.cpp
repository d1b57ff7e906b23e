// A histogram: every work-item increments one bin with sycl::atomic_ref.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

int main() {
    constexpr std::size_t n = 1 << 18, bins = 32;
    std::vector<unsigned> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<unsigned>((i * 2654435761u) >> 7);
    std::vector<unsigned> histogram(bins, 0);
    sycl::queue q;
    {
        sycl::buffer in{values};
        sycl::buffer out{histogram};
        q.submit([&](sycl::handler& h) {
            sycl::accessor v{in, h, sycl::read_only};
            sycl::accessor bin{out, h, sycl::read_write};
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) {
                sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::device,
                                 sycl::access::address_space::global_space>
                    counter(bin[v[i] % bins]);
                counter.fetch_add(1u);
            });
        });
    }
    std::vector<unsigned> expected(bins, 0);
    for (unsigned v : values) ++expected[v % bins];
    unsigned total = 0;
    for (std::size_t b = 0; b < bins; ++b) {
        total += histogram[b];
        if (histogram[b] != expected[b]) {
            std::printf("bin %zu holds %u, expected %u\n", b, histogram[b], expected[b]);
            return 1;
        }
    }
    std::printf("histogram: %u values in %zu bins ok\n", total, bins);
    return total == n ? 0 : 1;
}

// A host task consumes what a kernel produced (through a host_task accessor) and feeds a second kernel.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

int main() {
    constexpr std::size_t n = 1000;
    sycl::queue q;
    sycl::buffer<int> values{sycl::range<1>{n}};
    sycl::buffer<long> summary{sycl::range<1>{2}};
    std::vector<int> copy(n);
    q.submit([&](sycl::handler& h) {
        sycl::accessor v{values, h, sycl::write_only, sycl::no_init};
        h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { v[i] = static_cast<int>(i % 10); });
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor v{values, h, sycl::read_only_host_task};
        sycl::accessor s{summary, h, sycl::write_only_host_task};
        h.host_task([=, &copy] {
            long total = 0;
            for (std::size_t i = 0; i < n; ++i) {
                copy[i] = v[i];
                total += v[i];
            }
            s[0] = total;
            s[1] = static_cast<long>(n);
        });
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor s{summary, h, sycl::read_write};
        h.single_task([=] { s[0] = s[0] * 100 / s[1]; }); // the mean, in hundredths
    });
    sycl::host_accessor s{summary, sycl::read_only};
    const long sum = std::accumulate(copy.begin(), copy.end(), 0L);
    std::printf("host_task: the host task saw a sum of %ld; mean x100 = %ld\n", sum, s[0]);
    return sum == 4500 && s[0] == 450 ? 0 : 1;
}

// A pipeline of command groups ordered only by the buffers they access: produce -> square -> (offset, scale)
// -> combine. The queue is out-of-order; reads after writes, writes after reads and writes after writes are
// what order the stages.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

int main() {
    constexpr std::size_t n = 4096;
    sycl::queue q;
    std::vector<long> result(n, 0);
    {
        sycl::buffer<long> source{sycl::range<1>{n}};
        sycl::buffer<long> left{sycl::range<1>{n}}, right{sycl::range<1>{n}};
        sycl::buffer out{result};
        q.submit([&](sycl::handler& h) { // writes source
            sycl::accessor s{source, h, sycl::write_only, sycl::no_init};
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { s[i] = static_cast<long>(i); });
        });
        q.submit([&](sycl::handler& h) { // reads and writes source (RAW on the producer)
            sycl::accessor s{source, h, sycl::read_write};
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { s[i] = s[i] * s[i]; });
        });
        q.submit([&](sycl::handler& h) { // two readers of source that may run together
            sycl::accessor s{source, h, sycl::read_only};
            sycl::accessor l{left, h, sycl::write_only, sycl::no_init};
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { l[i] = s[i] + 1; });
        });
        q.submit([&](sycl::handler& h) {
            sycl::accessor s{source, h, sycl::read_only};
            sycl::accessor r{right, h, sycl::write_only, sycl::no_init};
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { r[i] = 2 * s[i]; });
        });
        q.submit([&](sycl::handler& h) { // overwrites source: must wait for both readers (WAR)
            sycl::accessor s{source, h, sycl::write_only, sycl::no_init};
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { s[i] = -1; });
        });
        q.submit([&](sycl::handler& h) { // combines
            sycl::accessor l{left, h, sycl::read_only};
            sycl::accessor r{right, h, sycl::read_only};
            sycl::accessor s{source, h, sycl::read_only};
            sycl::accessor o{out, h, sycl::write_only};
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { o[i] = l[i] + r[i] + s[i]; });
        });
    }
    for (std::size_t i = 0; i < n; ++i) {
        const long sq = static_cast<long>(i * i);
        const long expected = (sq + 1) + 2 * sq - 1;
        if (result[i] != expected) {
            std::printf("result[%zu] = %ld, expected %ld\n", i, result[i], expected);
            return 1;
        }
    }
    std::printf("pipeline: %zu elements through 6 command groups ok\n", n);
    return 0;
}

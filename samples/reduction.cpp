// reduction: the sum and the maximum of a vector in one kernel. Each sycl::reduction gives the kernel a
// reducer; work-items combine their values into it and the runtime folds them into the result.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace {
const char* const sample_name = "reduction";
}

int main() try {
    constexpr std::size_t n = 10000;
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>((i * 37) % 1000);

    sycl::queue q;
    int* sum = sycl::malloc_shared<int>(1, q);
    int* max = sycl::malloc_shared<int>(1, q);
    *sum = 0;
    *max = 0;
    {
        sycl::buffer data{values};
        q.submit([&](sycl::handler& h) {
            sycl::accessor v{data, h, sycl::read_only};
            h.parallel_for(sycl::range<1>{n}, sycl::reduction(sum, sycl::plus<int>()),
                           sycl::reduction(max, sycl::maximum<int>()), [=](sycl::id<1> i, auto& s, auto& m) {
                               s += v[i];
                               m.combine(v[i]);
                           });
        });
        q.wait();
    }

    int expected_sum = 0, expected_max = 0;
    for (int v : values) {
        expected_sum += v;
        expected_max = v > expected_max ? v : expected_max;
    }
    std::printf("sum = %d (expected %d), max = %d (expected %d)\n", *sum, expected_sum, *max, expected_max);
    const bool ok = *sum == expected_sum && *max == expected_max;
    sycl::free(sum, q);
    sycl::free(max, q);
    return ok ? 0 : 1;
} catch (const std::exception& e) { // sycl::exception included: say what failed instead of terminating
    std::fprintf(stderr, "%s failed: %s\n", sample_name, e.what());
    return 2;
}

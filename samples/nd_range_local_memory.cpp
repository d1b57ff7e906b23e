// nd_range_local_memory: each work-group sums its part of a vector in work-group local memory, halving the
// number of active work-items between group barriers (a tree reduction), and writes one partial sum per group.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace {
const char* const sample_name = "nd_range_local_memory";
}

int main() try {
    constexpr std::size_t groups = 16, group_size = 128, n = groups * group_size;
    std::vector<float> input(n), partial(groups);
    for (std::size_t i = 0; i < n; ++i) input[i] = static_cast<float>(i % 10);

    sycl::queue q;
    {
        sycl::buffer in{input}, out{partial};
        q.submit([&](sycl::handler& h) {
            sycl::accessor x{in, h, sycl::read_only};
            sycl::accessor sums{out, h, sycl::write_only, sycl::no_init};
            sycl::local_accessor<float> scratch{sycl::range<1>{group_size}, h};
            h.parallel_for(sycl::nd_range<1>{n, group_size}, [=](sycl::nd_item<1> it) {
                const std::size_t local = it.get_local_id(0);
                scratch[local] = x[it.get_global_id(0)];
                for (std::size_t stride = group_size / 2; stride > 0; stride /= 2) {
                    sycl::group_barrier(it.get_group()); // everyone's value is in scratch
                    if (local < stride) scratch[local] += scratch[local + stride];
                }
                if (local == 0) sums[it.get_group(0)] = scratch[0];
            });
        });
    }

    int errors = 0;
    for (std::size_t g = 0; g < groups; ++g) {
        float expected = 0;
        for (std::size_t i = g * group_size; i < (g + 1) * group_size; ++i) expected += input[i];
        if (partial[g] != expected) ++errors;
    }
    std::printf("%zu work-groups of %zu: partial sums %g, %g, ...; %d wrong\n", groups, group_size, partial[0],
                partial[1], errors);
    return errors == 0 ? 0 : 1;
} catch (const std::exception& e) { // sycl::exception included: say what failed instead of terminating
    std::fprintf(stderr, "%s failed: %s\n", sample_name, e.what());
    return 2;
}

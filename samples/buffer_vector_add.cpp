// buffer_vector_add: c = a + b with buffers over std::vectors. Accessors tell the runtime what each command
// group reads and writes; the results are copied back to `c` when its buffer goes away at the closing brace.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace {
const char* const sample_name = "buffer_vector_add";
}

int main() try {
    constexpr std::size_t n = 1024;
    std::vector<int> a(n), b(n), c(n);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<int>(i);
        b[i] = static_cast<int>(2 * i);
    }

    sycl::queue q;
    {
        sycl::buffer buf_a{a}, buf_b{b}, buf_c{c};
        q.submit([&](sycl::handler& h) {
            sycl::accessor in_a{buf_a, h, sycl::read_only};
            sycl::accessor in_b{buf_b, h, sycl::read_only};
            sycl::accessor out{buf_c, h, sycl::write_only, sycl::no_init};
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { out[i] = in_a[i] + in_b[i]; });
        });
    } // waits for the kernel and writes buf_c back into c

    int errors = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (c[i] != static_cast<int>(3 * i)) ++errors;
    std::printf("c[1] = %d, c[%zu] = %d; %d wrong\n", c[1], n - 1, c[n - 1], errors);
    return errors == 0 ? 0 : 1;
} catch (const std::exception& e) { // sycl::exception included: say what failed instead of terminating
    std::fprintf(stderr, "%s failed: %s\n", sample_name, e.what());
    return 2;
}

// usm_vector_add: c = a + b with unified shared memory. Shared allocations are visible to the host and the
// device, so the host fills the inputs and reads the result directly; the kernel is one parallel_for.
#include <sycl/sycl.hpp>

#include <cstdio>

namespace {
const char* const sample_name = "usm_vector_add";
}

int main() try {
    constexpr std::size_t n = 1024;
    sycl::queue q;
    std::printf("running on %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());

    float* a = sycl::malloc_shared<float>(n, q);
    float* b = sycl::malloc_shared<float>(n, q);
    float* c = sycl::malloc_shared<float>(n, q);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i);
        b[i] = 0.5f * static_cast<float>(i);
    }

    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { c[i] = a[i] + b[i]; }).wait();

    int errors = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (c[i] != 1.5f * static_cast<float>(i)) ++errors;
    std::printf("c[1] = %g, c[%zu] = %g; %d wrong\n", c[1], n - 1, c[n - 1], errors);

    sycl::free(a, q);
    sycl::free(b, q);
    sycl::free(c, q);
    return errors == 0 ? 0 : 1;
} catch (const std::exception& e) { // sycl::exception included: say what failed instead of terminating
    std::fprintf(stderr, "%s failed: %s\n", sample_name, e.what());
    return 2;
}

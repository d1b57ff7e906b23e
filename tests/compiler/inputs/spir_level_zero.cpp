// A kernel built by encore++ for spir64 on a Level Zero device (tests/compiler/meson.build, part 10): the kernel
// hands the Level Zero backend its SPIR-V (the "opencl" image's module), which the backend builds through
// zeModuleCreate where the device takes SPIR-V. The CPU test driver here takes none, so the launch is refused with
// errc::kernel_not_supported naming the kernel, the device and the reason; the queue goes on.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <string>

int main() {
    sycl::device level_zero;
    bool found = false;
    for (const sycl::device& d : sycl::device::get_devices())
        if (d.engine().backend_name() == "level_zero") {
            level_zero = d;
            found = true;
            break;
        }
    if (!found) {
        std::fprintf(stderr, "no Level Zero device\n");
        return 1;
    }
    sycl::queue q(level_zero);
    int* v = sycl::malloc_device<int>(4, q);
    try {
        q.parallel_for(sycl::range<1>{4}, [=](sycl::id<1> i) { v[i] = static_cast<int>(i[0]); }).wait_and_throw();
        std::fprintf(stderr, "the launch was not refused\n");
        return 1;
    } catch (const sycl::exception& e) {
        const std::string what = e.what();
        const bool expected = e.code() == sycl::errc::kernel_not_supported &&
                              what.find("has encore++ SPIR-V code, but Level Zero device") != std::string::npos &&
                              what.find("takes no SPIR-V") != std::string::npos;
        std::fprintf(stderr, "%s: %s\n", expected ? "refused as expected" : "refused otherwise", e.what());
        if (!expected) return 1;
    }
    q.memset(v, 0, 4 * sizeof(int)).wait(); // the queue goes on
    sycl::free(v, q);
    return 0;
}

// Device code cannot read a global array, even a constant one: the device has no copy of it.
#include <sycl/sycl.hpp>

constexpr float weights[2] = {0.5f, 1.5f};

int main() {
    sycl::queue q;
    float* p = sycl::malloc_shared<float>(2, q);
    q.parallel_for<class weigh>(sycl::range<1>{2}, [=](sycl::id<1> i) {
        p[i] = weights[i[0]]; // expect-error[weights]: kernel 'main::weigh' cannot use global or static array 'weights' in device code
    });
}

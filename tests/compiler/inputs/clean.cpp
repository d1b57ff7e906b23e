// No diagnostic: what device code may do (const globals, constexpr locals, user functions, templates, functors).
#include <sycl/sycl.hpp>

constexpr int scale = 3;
const float offset = 0.5f; // a constant scalar: nvcc folds it into device code

template <typename T> T square(T x) { return x * x; }
int add_scaled(int a, int b) { return a + scale * b; }

struct twice {
    int* p;
    void operator()(sycl::id<1> i) const { p[i] *= 2; }
};

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    constexpr int bias = 1;
    q.parallel_for<class clean_kernel>(sycl::range<1>{4}, [=](sycl::id<1> i) {
        int s = square(static_cast<int>(i[0])) + bias;
        p[i] = add_scaled(s, static_cast<int>(offset));
    }).wait();
    q.parallel_for(sycl::range<1>{4}, twice{p}).wait();
    sycl::free(p, q);
}

// A lambda kernel's outlined struct lives at namespace scope: it cannot name the enclosing function's types.
#include <sycl/sycl.hpp>

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    struct pair_sum {
        int a, b;
    };
    q.parallel_for<class local_type>(sycl::range<1>{4}, [=](sycl::id<1> i) {
        pair_sum s{1, 2}; // expect-error[pair_sum]: kernel 'main::local_type' uses 'pair_sum', a type local to function 'main'
        p[i] = s.a + s.b;
    });
}

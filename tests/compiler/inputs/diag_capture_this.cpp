// A lambda kernel cannot capture `this`.
#include <sycl/sycl.hpp>

struct scaler {
    int factor = 2;
    void run(sycl::queue& q, int* p) {
        q.parallel_for<class member_scale>(sycl::range<1>{4}, [=, this](sycl::id<1> i) { // expect-error[this]: kernel 'member_scale' cannot capture 'this'
            p[i] *= factor;
        });
    }
};

int main() {
    sycl::queue q;
    scaler{}.run(q, sycl::malloc_shared<int>(4, q));
}

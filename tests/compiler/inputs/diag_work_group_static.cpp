// A work_group_static in a function must be declared static (Encore takes the extension's reduced feature set).
#include <sycl/sycl.hpp>

namespace syclex = sycl::ext::oneapi::experimental;

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(64, q);
    q.parallel_for<class group_sum>(sycl::nd_range<1>{64, 32}, [=](sycl::nd_item<1> it) {
        syclex::work_group_static<int> total; // expect-error[total]: kernel 'main::group_sum' declares work_group_static 'total' without 'static'
        total = 1;
        p[it.get_global_id(0)] = total;
    });
}

#include "arithmetic.hpp"
#include "libraries.hpp"

void offset_on(sycl::queue& q, int* data, int n) {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = shifted(data[i], 5); }).wait();
}

// device_globals a CUDA image cannot hold: a static data member (nvcc allows no __device__ data member), one
// declared in another file (the device source cannot edit it), one declared in a function.
#include <sycl/sycl.hpp>

#include "diag_helper.hpp"

namespace syclex = sycl::ext::oneapi::experimental;

struct holder {
    static syclex::device_global<int> member;
};
syclex::device_global<int> holder::member;

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    q.single_task<class uses_member>([=] {
        p[0] = holder::member; // expect-error[member]: kernel 'main::uses_member' uses device_global 'holder::member', a static data member
    });
    q.single_task<class uses_header>([=] {
        p[1] = header_global; // expect-error[header_global]: kernel 'main::uses_header' uses device_global 'header_global', declared in another file
    });
    q.single_task<class declares_local>([=] {
        static syclex::device_global<int> local; // expect-error[local]: kernel 'main::declares_local' declares device_global 'local' in a function
        p[2] = local;
    });
}

// No RTTI in device code: typeid.
#include <sycl/sycl.hpp>

#include <typeinfo>

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(1, q);
    q.single_task<class named>([=] {
        p[0] = typeid(p).name()[0]; // expect-error[typeid]: kernel 'main::named' cannot use typeid in device code (RTTI)
    });
}

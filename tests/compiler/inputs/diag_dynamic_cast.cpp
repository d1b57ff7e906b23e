// No RTTI in device code: dynamic_cast.
#include <sycl/sycl.hpp>

struct base {
    virtual ~base() = default;
};
struct derived : base {};

int main() {
    sycl::queue q;
    base* b = nullptr;
    int* p = sycl::malloc_shared<int>(1, q);
    q.single_task<class caster>([=] {
        p[0] = dynamic_cast<derived*>(b) != nullptr; // expect-error[dynamic_cast]: kernel 'main::caster' cannot use dynamic_cast in device code (RTTI)
    });
}

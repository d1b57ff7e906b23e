// No virtual calls in device code.
#include <sycl/sycl.hpp>

struct shape {
    virtual int sides() const { return 0; }
};

int count(const shape* s) {
    return s->sides(); // expect-error[sides]: kernel 'main::virtual_call' cannot make virtual calls in device code
}

int main() {
    sycl::queue q;
    const shape* s = nullptr;
    int* p = sycl::malloc_shared<int>(1, q);
    q.single_task<class virtual_call>([=] { p[0] = count(s); });
}

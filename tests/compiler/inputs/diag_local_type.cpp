// Function-local types a kernel needs that the device source cannot move out of their function
// (compiler/outliner/local_types.hpp): one whose definition uses another entity of the function, one declared
// together with a variable, one of a function template.
#include <sycl/sycl.hpp>

template <typename T> void in_template(sycl::queue& q, T* p) {
    struct holder {
        T value;
    };
    q.single_task<class templated_local>([=] {
        holder h{T(1)}; // expect-error[holder]: that the outlined kernel cannot name: it is declared in a template
        p[0] = h.value;
    });
}

int main() {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(4, q);
    constexpr int width = 4;
    struct sized {
        int values[width];
    };
    q.single_task<class uses_local>([=] {
        sized s{}; // expect-error[sized]: kernel 'main::uses_local' uses 'sized', a type local to function 'main' that the outlined kernel cannot name: its definition uses 'width', another entity of function 'main'
        p[1] = s.values[0];
    });
    struct pair_sum {
        int a, b;
    } together{1, 2};
    q.single_task<class declared_with_variable>([=] { // expect-error[[=]: captures 'together' of type 'pair_sum', local to function 'main': the outlined kernel cannot name it: it is declared together with a variable
        pair_sum s = together; // expect-error[pair_sum]: uses 'pair_sum', a type local to function 'main' that the outlined kernel cannot name: it is declared together with a variable
        p[2] = s.a + s.b;
    });
    in_template(q, p);
}

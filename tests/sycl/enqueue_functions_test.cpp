// sycl_ext_oneapi_enqueue_functions: every free function, eagerly and recorded into a graph (execute_graph
// launches it), with launch_config, reductions and kernel objects with arguments.
#include <doctest/doctest.h>

#include <sycl/ext/oneapi/experimental/enqueue_functions.hpp>
#include <sycl/sycl.hpp>

#include "encore/runtime/kernel_function.hpp"

namespace syclex = sycl::ext::oneapi::experimental;

TEST_CASE("enqueue functions on an in-order queue, eagerly") {
    sycl::queue q{sycl::property::queue::in_order{}};
    const std::size_t n = 64;
    int* a = sycl::malloc_shared<int>(n, q);
    int* b = sycl::malloc_shared<int>(n, q);
    int* sum = sycl::malloc_shared<int>(1, q);
    syclex::fill(q, a, 2, n);
    syclex::parallel_for(q, sycl::range<1>{n}, [=](sycl::id<1> i) { a[i] += static_cast<int>(i[0]); });
    syclex::copy(q, static_cast<const int*>(a), b, n);
    syclex::nd_launch(q, sycl::nd_range<1>{{n}, {16}}, [=](sycl::nd_item<1> it) { b[it.get_global_id(0)] *= 2; });
    syclex::parallel_for(q, syclex::launch_config{sycl::range<1>{n}}, [=](sycl::id<1> i) { b[i] += 1; });
    syclex::single_task(q, [=] { *sum = 0; });
    syclex::parallel_for(q, sycl::range<1>{n}, [=](sycl::id<1> i, auto& s) { s += b[i]; },
                         sycl::reduction(sum, sycl::plus<int>()));
    syclex::memset(q, a, 0, n * sizeof(int));
    syclex::prefetch(q, b, n * sizeof(int));
    syclex::mem_advise(q, b, n * sizeof(int), 0);
    syclex::barrier(q);
    auto e = syclex::submit_with_event(q, [&](sycl::handler& h) { syclex::memcpy(h, a + 1, b + 1, sizeof(int)); });
    syclex::partial_barrier(q, {e});
    q.wait_and_throw();
    // b[i] = 2 (2 + i) + 1
    CHECK(b[5] == 15);
    CHECK(a[0] == 0);
    CHECK(a[1] == b[1]);
    int expected = 0;
    for (std::size_t i = 0; i < n; ++i) expected += 2 * (2 + static_cast<int>(i)) + 1;
    CHECK(*sum == expected);
    sycl::free(a, q);
    sycl::free(b, q);
    sycl::free(sum, q);
}

TEST_CASE("enqueue functions with kernel objects and their arguments") {
    sycl::queue q;
    const std::size_t n = 32;
    int* out = sycl::malloc_shared<int>(n, q);
    auto k = sycl::ext::encore::make_kernel(encore::make_kernel(
        "store", [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            static_cast<int*>(args[0].pointer())[it.global_id[0]] = args[1].scalar<int>();
        }));
    syclex::parallel_for(q, sycl::range<1>{n}, k, out, 9);
    q.wait_and_throw();
    CHECK(out[31] == 9);
    syclex::nd_launch(q, sycl::nd_range<1>{{n}, {8}}, k, out, 4);
    q.wait_and_throw();
    CHECK(out[0] == 4);
    syclex::single_task(q, k, out, 1);
    q.wait_and_throw();
    CHECK(out[0] == 1);
    CHECK(out[1] == 4);
    sycl::free(out, q);
}

TEST_CASE("enqueue functions record into a graph; execute_graph launches it") {
    sycl::queue q{sycl::property::queue::in_order{}};
    const std::size_t n = 16;
    int* v = sycl::malloc_shared<int>(n, q);
    syclex::command_graph g{q};
    g.begin_recording(q);
    syclex::fill(q, v, 1, n);
    syclex::parallel_for(q, sycl::range<1>{n}, [=](sycl::id<1> i) { v[i] *= 3; });
    syclex::barrier(q);
    q.ext_oneapi_prod(); // a no-op, also while recording
    g.end_recording();
    CHECK(g.get_nodes().size() == 3);
    auto exec = g.finalize();
    syclex::execute_graph(q, exec);
    syclex::submit(q, [&](sycl::handler& h) { syclex::execute_graph(h, exec); });
    q.wait_and_throw();
    CHECK(v[15] == 3);
    sycl::free(v, q);
}

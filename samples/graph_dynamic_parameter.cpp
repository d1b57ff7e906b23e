// dynamic_parameter: a kernel node's pointer argument changes between replays of one executable graph. The kernel
// is a kernel object (its arguments are set with set_arg), here an engine kernel for the native CPU backend.
#include <sycl/sycl.hpp>

#include <cstdio>

#include "encore/runtime/kernel_function.hpp"

namespace sycl_ext = sycl::ext::oneapi::experimental;

namespace {
const char* const sample_name = "graph_dynamic_parameter";
}

int main() try {
    constexpr std::size_t n = 16;
    sycl::queue q;
    int* first = sycl::malloc_shared<int>(n, q);
    int* second = sycl::malloc_shared<int>(n, q);
    q.fill(first, 0, n);
    q.fill(second, 100, n);
    q.wait(); // an out-of-order queue: the graph's launches below do not wait for these fills by themselves

    // add_one(data): data[i] += 1
    sycl::kernel add_one = sycl::ext::encore::make_kernel(encore::make_kernel(
        "add_one", [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            static_cast<int*>(args[0].pointer())[it.global_id[0]] += 1;
        }));

    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_parameter data(g, first);
    auto node = g.add([&](sycl::handler& h) {
        h.set_arg(0, data);
        h.parallel_for(sycl::range<1>{n}, add_one);
    });
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});

    q.ext_oneapi_graph(exec).wait(); // first[i] == 1
    data.update(second);
    exec.update(node);
    q.ext_oneapi_graph(exec).wait(); // second[i] == 101
    q.ext_oneapi_graph(exec).wait(); // second[i] == 102

    std::printf("first[0] = %d (one launch), second[0] = %d (two launches after the update)\n", first[0], second[0]);
    const bool ok = first[0] == 1 && second[n - 1] == 102;
    sycl::free(first, q);
    sycl::free(second, q);
    return ok ? 0 : 1;
} catch (const std::exception& e) { // sycl::exception included: say what failed instead of terminating
    std::fprintf(stderr, "%s failed: %s\n", sample_name, e.what());
    return 2;
}

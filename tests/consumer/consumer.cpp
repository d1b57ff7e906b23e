// A program of another project that uses an installed Encore: the SYCL graph API and the engine API together,
// built three ways by run.sh (CMake's find_package, meson's dependency(), plain g++ with pkg-config). It exits 0
// only when both computed the right numbers.
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/experimental/graph.hpp>

#include <encore/encore.hpp>
// The runtime's headers were <encore/backends/...> before they moved to <encore/runtime/...>: the old paths are
// installed as forwarding headers, and a program that uses them keeps building (docs/architecture.md).
#include <encore/backends/queue.hpp>
#include <encore/runtime/queue.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <exception>

namespace sycl_ext = sycl::ext::oneapi::experimental;

int main() try {
    constexpr std::size_t n = 256;
    sycl::queue q{sycl::property::queue::in_order()};
    std::printf("consumer: SYCL on %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
    int* x = sycl::malloc_shared<int>(n, q);
    sycl_ext::command_graph g{q};
    g.begin_recording(q);
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { x[i] = static_cast<int>(i[0]); });
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { x[i] *= 3; });
    g.end_recording();
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    int wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += x[i] != static_cast<int>(3 * i);
    sycl::free(x, q);

    // The engine's kernel here is a host callable: it runs on a device that runs host code (the native backend),
    // whatever the default device is (a GPU, for the program built by encore++ for cuda:sm_90).
    const auto devices = encore::device::all();
    const auto host = std::find_if(devices.begin(), devices.end(),
                                   [](const encore::device& d) { return d.properties().host_kernels; });
    if (host == devices.end()) throw std::runtime_error("no device runs host kernels");
    encore::queue eq(*host);
    int* y = encore::malloc_shared<int>(n, eq);
    auto add_one = encore::make_kernel("add_one", [y](const encore::work_item& it) { y[it.global_id[0]] += 1; });
    encore::graph eg;
    auto zero = eg.add(encore::memset_command{y, 0, n * sizeof(int)});
    eg.add(encore::kernel_command{add_one, {}, encore::range(n)}, {zero});
    encore::executable_graph replay(eg, eq.get_device());
    eq.launch(replay).wait();
    for (std::size_t i = 0; i < n; ++i) wrong += y[i] != 1;
    encore::free(y, eq);

    std::printf("consumer: %s\n", wrong == 0 ? "results correct" : "WRONG results");
    return wrong == 0 ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "consumer failed: %s\n", e.what());
    return 2;
}

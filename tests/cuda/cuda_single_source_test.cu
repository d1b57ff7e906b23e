// Single-source kernels compiled by nvcc (backends/cuda/single_source.hpp): the same lambda on the GPU and on
// the native backend, in queues and graphs, 1-D to 3-D, offsets, and update with a new capture.
#include <doctest/doctest.h>

#include "encore/backends/cuda/single_source.hpp"
#include "gpu/gpu_support.hpp"

using namespace encore;
using namespace encore::gpu_testing;

namespace {
// A functor with a __host__ __device__ call operator works like a lambda.
struct scale {
    int* data;
    int factor;
    __host__ __device__ void operator()(const work_item& it) const { data[it.global_id[0]] *= factor; }
};
std::shared_ptr<const kernel> add_to(int* p, int v) {
    return cuda::make_kernel("add_to", [p, v] ENCORE_DEVICE_LAMBDA (const work_item& it) { p[it.global_id[0]] += v; });
}
} // namespace

TEST_CASE("a host-device lambda runs on the GPU and on the native backend") {
    auto marked = [] ENCORE_DEVICE_LAMBDA (const work_item&) {};
    static_assert(cuda::is_host_device_lambda<decltype(marked)>);
    static_assert(!cuda::is_device_only_lambda<decltype(marked)>);
    static_assert(!cuda::is_host_device_lambda<scale>);
    static_cast<void>(marked);
    for (const device& d : {gpu_device(), native_device()}) {
        CAPTURE(std::string(d.backend_name()));
        queue q(d, {.in_order = true});
        int* data = static_cast<int*>(encore::malloc(1000 * sizeof(int), d, memory_kind::shared));
        auto fill = cuda::make_kernel("fill_index", [data] ENCORE_DEVICE_LAMBDA (const work_item& it) {
            data[it.global_id[0]] = static_cast<int>(it.global_id[0]);
        });
        q.parallel_for(range(1000), fill);
        q.parallel_for(range(1000), cuda::make_kernel("scale", scale{data, 3}));
        q.wait_and_throw();
        for (int i = 0; i < 1000; ++i)
            REQUIRE(data[i] == 3 * i);
        encore::free(data, d);
    }
}

TEST_CASE("2-D and 3-D ranges and nd_ranges see SYCL's indices") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<int> grid(30 * 50);
    int* g = grid.data();
    q.parallel_for(range(30, 50), cuda::make_kernel("index_2d", [g] ENCORE_DEVICE_LAMBDA (const work_item& it) {
        g[it.global_id[0] * 50 + it.global_id[1]] = static_cast<int>(it.global_id[0] * 1000 + it.global_id[1] + it.global_range[1] * 0);
    }));
    usm<int> cube(4 * 6 * 8);
    int* c = cube.data();
    q.parallel_for(make_nd_range(3, {4, 6, 8}, {2, 3, 4}), cuda::make_kernel("index_3d", [c] ENCORE_DEVICE_LAMBDA (const work_item& it) {
        const auto linear = (it.global_id[0] * 6 + it.global_id[1]) * 8 + it.global_id[2];
        c[linear] = static_cast<int>(it.group_id[0] * 100 + it.local_id[2] * 10 + it.local_range[1]);
    }));
    q.wait_and_throw();
    for (int r = 0; r < 30; ++r)
        for (int c = 0; c < 50; ++c)
            REQUIRE(grid[static_cast<std::size_t>(r * 50 + c)] == r * 1000 + c);
    for (int x = 0; x < 4; ++x)
        for (int y = 0; y < 6; ++y)
            for (int z = 0; z < 8; ++z)
                REQUIRE(cube[static_cast<std::size_t>((x * 6 + y) * 8 + z)] == (x / 2) * 100 + (z % 4) * 10 + 3);
}

TEST_CASE("a __device__-only lambda runs on the GPU and has no host form") {
    usm<int> data(64);
    auto k = cuda::make_kernel("device_only", [p = data.data()] __device__(const work_item& it) { p[it.global_id[0]] = 9; });
    auto device_only = [] __device__(const work_item&) {};
    static_assert(cuda::is_device_only_lambda<decltype(device_only)>);
    static_cast<void>(device_only);
    queue gpu(gpu_device());
    gpu.parallel_for(range(64), k).wait();
    CHECK(data[63] == 9);
    queue cpu(native_device());
    cpu.parallel_for(range(64), k);
    CHECK_THROWS_AS(cpu.wait_and_throw(), error);
}

TEST_CASE("single-source kernels in a graph, updated with a kernel of the same name and new captures") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<int> a(256), b(256);
    graph g;
    auto k = g.add(kernel_command{add_to(a.data(), 1), {}, range(256)});
    g.add(kernel_command{add_to(a.data(), 10), {}, range(256)}, {k});
    executable_graph exec(g, d);
    q.launch(exec);
    q.launch(exec).wait();
    CHECK(a[5] == 22);
    exec.update(k, kernel_command{add_to(b.data(), 5), {}, range(256)});
    q.launch(exec).wait();
    CHECK(a[5] == 32);
    CHECK(b[5] == 5);
}

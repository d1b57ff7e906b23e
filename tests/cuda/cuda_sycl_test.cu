// The SYCL front end on the CUDA device, compiled by nvcc: device lambdas and functors in parallel_for and
// single_task, the item views on the GPU, host-only kernels refused with errc::kernel_not_supported, NVRTC
// kernels through the kernel-compiler API with set_args, and a recorded SYCL graph replayed.
//
// nvcc rule: an extended (ENCORE_DEVICE_LAMBDA) lambda must be defined in a named function, not inside another
// lambda, so the device lambdas below live in helper functions or use the queue shortcuts.
#include <doctest/doctest.h>

#include <sycl/ext/encore/cuda_kernel_compiler.hpp>
#include <sycl/sycl.hpp>

#include "encore/cache/program_cache.hpp"

#include <cstddef>
#include <vector>

namespace sycl_exp = sycl::ext::oneapi::experimental;

namespace {

sycl::queue cuda_queue() {
    sycl::queue q{sycl::gpu_selector_v, sycl::property_list{sycl::property::queue::in_order{}}};
    REQUIRE(q.get_device().get_backend() == sycl::backend::ext_oneapi_cuda);
    return q;
}

// A USM array of the queue's context, freed on destruction.
template <typename T> struct shared_array {
    shared_array(sycl::queue& q, std::size_t n) : queue(q), data(sycl::malloc_shared<T>(n, q)), size(n) {
        for (std::size_t i = 0; i < n; ++i)
            data[i] = T{};
    }
    ~shared_array() { sycl::free(data, queue); }
    shared_array(const shared_array&) = delete;
    shared_array& operator=(const shared_array&) = delete;
    sycl::queue& queue;
    T* data;
    std::size_t size;
};

sycl::event vector_add(sycl::queue& q, const float* a, const float* b, float* c, std::size_t n) {
    return q.parallel_for(sycl::range<1>{n}, [=] ENCORE_DEVICE_LAMBDA (sycl::id<1> i) { c[i] = a[i] + b[i]; });
}

// A functor kernel: ENCORE_HOST_DEVICE call operator, and the tag that tells nvcc to give it a CUDA entry.
struct twice {
    float* data;
    SYCL_EXT_ENCORE_DEVICE_FUNCTOR;
    ENCORE_HOST_DEVICE void operator()(sycl::id<1> i) const { data[i] *= 2; }
};

void fill_2d(sycl::queue& q, int* out, std::size_t rows, std::size_t cols) {
    q.parallel_for(sycl::range<2>{rows, cols}, [=] ENCORE_DEVICE_LAMBDA (sycl::item<2> it) {
        out[it.get_linear_id()] = static_cast<int>(it.get_id(0) * 1000 + it.get_id(1) + 0 * it.get_range(1));
    });
}

void fill_nd(sycl::queue& q, int* out, std::size_t n, std::size_t group) {
    q.parallel_for(sycl::nd_range<1>{sycl::range<1>{n}, sycl::range<1>{group}}, [=] ENCORE_DEVICE_LAMBDA (sycl::nd_item<1> it) {
        out[it.get_global_linear_id()] =
            static_cast<int>(it.get_group(0) * 1000 + it.get_local_id(0) * 10 + (it.get_local_range(0) == group));
    });
}

void write_answer(sycl::queue& q, int* out) {
    q.single_task([=] ENCORE_DEVICE_LAMBDA () { *out = 42; });
}

void accumulate(sycl::queue& q, const float* a, float* c, std::size_t n) {
    q.parallel_for(sycl::range<1>{n}, [=] ENCORE_DEVICE_LAMBDA (sycl::id<1> i) { c[i] += a[i]; });
}

} // namespace

TEST_CASE("SYCL: a vector add with a device lambda compiled by nvcc runs on the CUDA device") {
    sycl::queue q = cuda_queue();
    const std::size_t n = 100000;
    shared_array<float> a(q, n), b(q, n), c(q, n);
    for (std::size_t i = 0; i < n; ++i) {
        a.data[i] = static_cast<float>(i);
        b.data[i] = 0.5f * static_cast<float>(i);
    }
    vector_add(q, a.data, b.data, c.data, n);
    q.parallel_for(sycl::range<1>{n}, twice{c.data});
    q.wait_and_throw();
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(c.data[i] == 2 * 1.5f * static_cast<float>(i));

    // The same kernels run on the native device through their host form.
    sycl::queue cpu{sycl::cpu_selector_v, sycl::property_list{sycl::property::queue::in_order{}}};
    shared_array<float> x(cpu, 64), y(cpu, 64), z(cpu, 64);
    for (std::size_t i = 0; i < 64; ++i)
        x.data[i] = y.data[i] = static_cast<float>(i);
    vector_add(cpu, x.data, y.data, z.data, 64);
    cpu.parallel_for(sycl::range<1>{64}, twice{z.data});
    cpu.wait_and_throw();
    for (std::size_t i = 0; i < 64; ++i)
        REQUIRE(z.data[i] == 4.f * static_cast<float>(i));
}

TEST_CASE("SYCL: item, nd_item and single_task see SYCL's indices on the GPU") {
    sycl::queue q = cuda_queue();
    shared_array<int> grid(q, 30 * 50), groups(q, 256), answer(q, 1);
    fill_2d(q, grid.data, 30, 50);
    fill_nd(q, groups.data, 256, 64);
    write_answer(q, answer.data);
    q.wait_and_throw();
    for (std::size_t r = 0; r < 30; ++r)
        for (std::size_t col = 0; col < 50; ++col)
            REQUIRE(grid.data[r * 50 + col] == static_cast<int>(r * 1000 + col));
    for (std::size_t i = 0; i < 256; ++i)
        REQUIRE(groups.data[i] == static_cast<int>((i / 64) * 1000 + (i % 64) * 10 + 1));
    CHECK(*answer.data == 42);
}

TEST_CASE("SYCL: a host-only lambda on a CUDA queue is errc::kernel_not_supported, naming the kernel") {
    sycl::queue q = cuda_queue();
    shared_array<int> data(q, 16);
    int* p = data.data;
    auto host_only = [=](sycl::id<1> i) { p[i] = 1; }; // no ENCORE_DEVICE_LAMBDA: no CUDA code
    bool thrown = false;
    try {
        q.parallel_for<class host_only_kernel>(sycl::range<1>{16}, host_only);
    } catch (const sycl::exception& e) {
        thrown = true;
        CHECK(e.code() == sycl::errc::kernel_not_supported);
        CHECK(std::string(e.what()).find("host_only_kernel") != std::string::npos);
    }
    CHECK(thrown);
    // The same lambda runs on the native device.
    sycl::queue cpu{sycl::cpu_selector_v};
    cpu.parallel_for(sycl::range<1>{16}, host_only).wait();
    CHECK(data.data[15] == 1);
}

TEST_CASE("SYCL kernel compiler: CUDA source built by NVRTC, kernels by name, arguments with set_args") {
    namespace syclex = sycl::ext::encore;
    sycl::queue q = cuda_queue();
    CHECK(syclex::is_source_kernel_bundle_supported(sycl::backend::ext_oneapi_cuda, syclex::source_language::cuda));
    CHECK_FALSE(syclex::is_source_kernel_bundle_supported(sycl::backend::ext_oneapi_native_cpu,
                                                          syclex::source_language::cuda));
    auto source = syclex::create_kernel_bundle_from_source(q.get_context(), syclex::source_language::cuda, R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
}
extern "C" __global__ void offset(int* data, int value) {
    data[blockIdx.x * blockDim.x + threadIdx.x] += value;
})");
    auto bundle = syclex::build(source);
    CHECK(bundle.ext_oneapi_has_kernel("saxpy"));
    // Built for the device's architecture (a cubin), through the kernel/program cache: building again is a hit.
    CHECK(q.get_device().engine().properties().architecture.rfind("sm_", 0) == 0);
    const auto hits = encore::cache::program_cache::process().statistics().memory_hits;
    CHECK(syclex::build(source).ext_oneapi_has_kernel("offset"));
    CHECK(encore::cache::program_cache::process().statistics().memory_hits == hits + 1);
    CHECK_FALSE(bundle.ext_oneapi_has_kernel("nothing"));
    sycl::kernel saxpy = bundle.ext_oneapi_get_kernel("saxpy");
    CHECK(saxpy.get_info<sycl::info::kernel::function_name>() == "saxpy");

    const std::size_t n = 4096;
    shared_array<float> x(q, n), y(q, n);
    for (std::size_t i = 0; i < n; ++i) {
        x.data[i] = static_cast<float>(i);
        y.data[i] = 1.f;
    }
    q.submit([&](sycl::handler& h) {
        h.set_args(2.f, static_cast<const float*>(x.data), y.data);
        h.parallel_for(sycl::range<1>{n}, saxpy);
    });
    shared_array<int> ints(q, 256);
    sycl::kernel offset = bundle.ext_oneapi_get_kernel("offset");
    q.submit([&](sycl::handler& h) {
        h.set_arg(1, 7);
        h.set_arg(0, ints.data);
        h.parallel_for(sycl::nd_range<1>{sycl::range<1>{256}, sycl::range<1>{32}}, offset);
    });
    q.wait_and_throw();
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(y.data[i] == 2.f * static_cast<float>(i) + 1.f);
    for (std::size_t i = 0; i < 256; ++i)
        REQUIRE(ints.data[i] == 7);

    // Errors: a source that does not compile (errc::build, with NVRTC's log), an unknown kernel (errc::invalid),
    // a missing argument (errc::kernel_argument).
    auto broken = syclex::create_kernel_bundle_from_source(q.get_context(), syclex::source_language::cuda,
                                                           "extern \"C\" __global__ void broken( { }");
    try {
        syclex::build(broken);
        FAIL("a broken source built");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::build);
    }
    try {
        bundle.ext_oneapi_get_kernel("nothing");
        FAIL("an unknown kernel was found");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
    }
    try {
        q.submit([&](sycl::handler& h) {
            h.set_arg(1, 7);
            h.parallel_for(sycl::range<1>{256}, offset);
        });
        FAIL("a kernel ran without its first argument");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::kernel_argument);
    }
}

TEST_CASE("SYCL graph: commands recorded from a CUDA queue are replayed on the device") {
    sycl::queue q = cuda_queue();
    const std::size_t n = 10000;
    shared_array<float> a(q, n), c(q, n);
    for (std::size_t i = 0; i < n; ++i)
        a.data[i] = static_cast<float>(i % 100);

    sycl_exp::command_graph graph{q};
    graph.begin_recording(q);
    accumulate(q, a.data, c.data, n);                 // c += a
    q.parallel_for(sycl::range<1>{n}, twice{c.data}); // c *= 2
    graph.end_recording();
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(c.data[i] == 0.f); // recording runs nothing

    auto exec = graph.finalize();
    for (int replay = 0; replay < 3; ++replay)
        q.ext_oneapi_graph(exec);
    q.wait_and_throw();
    // c = 2 (c + a), three times from 0: 2a, 6a, 14a.
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(c.data[i] == 14.f * a.data[i]);
}

TEST_CASE("a program that carries nvcc device code gets the CUDA GPU as its default device") {
    // This program's nvcc translation units noted "cuda" before main, and cuda comes first in the test's
    // ENCORE_BACKENDS: the default device, the default queue and default_selector_v's choice are the GPU.
    CHECK(encore::device::default_device().backend_name() == "cuda");
    CHECK(sycl::device{}.get_backend() == sycl::backend::ext_oneapi_cuda);
    CHECK(sycl::queue{}.get_device().get_backend() == sycl::backend::ext_oneapi_cuda);
    CHECK(sycl::device{sycl::default_selector_v}.get_backend() == sycl::backend::ext_oneapi_cuda);
    sycl::queue q; // the default queue runs a device lambda on the GPU
    shared_array<float> a(q, 64), b(q, 64), c(q, 64);
    for (int i = 0; i < 64; ++i) {
        a.data[i] = static_cast<float>(i);
        b.data[i] = 1.0f;
    }
    vector_add(q, a.data, b.data, c.data, 64).wait();
    for (int i = 0; i < 64; ++i)
        REQUIRE(c.data[i] == static_cast<float>(i) + 1.0f);
}

TEST_CASE("SYCL kernel compiler under DPC++'s names: CUDA C++ (ext_encore_cuda), build options, a graph node") {
    sycl::queue q = cuda_queue();
    CHECK(q.get_device().ext_oneapi_can_compile(sycl_exp::source_language::ext_encore_cuda));
    CHECK_FALSE(q.get_device().ext_oneapi_can_compile(sycl_exp::source_language::opencl));
    auto source =
        sycl_exp::create_kernel_bundle_from_source(q.get_context(), sycl_exp::source_language::ext_encore_cuda, R"(
extern "C" __global__ void shift(int* p, int by) { p[blockIdx.x * blockDim.x + threadIdx.x] += by * FACTOR; })");
    std::string log = "not written";
    auto exe = sycl_exp::build(source, sycl_exp::properties{sycl_exp::build_options{"-DFACTOR=3"},
                                                            sycl_exp::save_log{&log}});
    CHECK(log != "not written");
    sycl::kernel shift = exe.ext_oneapi_get_kernel("shift");
    try {
        sycl_exp::build(source); // FACTOR undefined
        FAIL("built without FACTOR");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::build);
        CHECK_MESSAGE(std::string(e.what()).find("FACTOR") != std::string::npos, e.what());
    }
    shared_array<int> data(q, 256);
    sycl_exp::command_graph g{q.get_context(), q.get_device()};
    sycl_exp::dynamic_parameter amount(g, 1);
    auto node = g.add([&](sycl::handler& h) {
        h.set_arg(0, data.data);
        h.set_arg(1, amount);
        h.parallel_for(sycl::nd_range<1>{sycl::range<1>{256}, sycl::range<1>{64}}, shift);
    });
    auto replay = g.finalize(sycl_exp::property::graph::updatable{});
    q.ext_oneapi_graph(replay).wait();
    CHECK(data.data[255] == 3);
    amount.update(10);
    replay.update(node);
    q.ext_oneapi_graph(replay).wait();
    for (std::size_t i = 0; i < 256; ++i) REQUIRE(data.data[i] == 33);
}

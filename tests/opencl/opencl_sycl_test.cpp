// SYCL on the OpenCL backend: the kernel compiler with OpenCL C (source_language::opencl), kernels by name,
// arguments with set_arg(s) (scalars, USM pointers, local_accessors), nd_ranges, SYCL graphs of kernel
// objects.
#include <doctest/doctest.h>

#include <sycl/ext/encore/opencl_kernel_compiler.hpp>
#include <sycl/sycl.hpp>

#include "opencl_support.hpp"
#include "opencl_sycl_support.hpp"

namespace syclex = sycl::ext::encore;
namespace sycl_ext = sycl::ext::oneapi::experimental;

using encore::opencl_testing::opencl_queue;

namespace {
// The tests' OpenCL C program (opencl_support.hpp): saxpy, add (data[i] += value), group_sum, ...
const char* const source = encore::opencl_testing::test_source();
} // namespace

TEST_CASE("SYCL selectors prefer, among devices of their type, one that runs the program's kernels") {
    // PoCL's CPU device comes before the native one (ENCORE_BACKENDS=opencl,native); this program's lambdas are
    // host code, which only the native backend runs.
    bool opencl_cpu = false;
    for (const auto& d : sycl::device::get_devices())
        opencl_cpu = opencl_cpu || (d.get_backend() == sycl::backend::opencl && d.is_cpu());
    if (!opencl_cpu) {
        MESSAGE("skipped: no OpenCL CPU device to choose against");
        return;
    }
    sycl::queue q{sycl::cpu_selector_v};
    CHECK(q.get_device().get_backend() == sycl::backend::ext_oneapi_native_cpu);
    int* p = sycl::malloc_shared<int>(4, q);
    q.parallel_for(sycl::range<1>{4}, [=](sycl::id<1> i) { p[i] = static_cast<int>(i[0]) + 1; }).wait();
    CHECK(p[3] == 4);
    sycl::free(p, q);
}

TEST_CASE("SYCL kernel compiler: OpenCL C built for the device, kernels by name, arguments with set_args") {
    sycl::queue q = opencl_queue();
    CHECK(syclex::is_source_kernel_bundle_supported(sycl::backend::opencl, syclex::source_language::opencl));
    CHECK(syclex::is_source_kernel_bundle_supported(sycl::backend::opencl, syclex::source_language::spirv));
    CHECK_FALSE(syclex::is_source_kernel_bundle_supported(sycl::backend::ext_oneapi_native_cpu,
                                                          syclex::source_language::opencl));
    CHECK_FALSE(
        syclex::is_source_kernel_bundle_supported(sycl::backend::opencl, syclex::source_language::cuda));
    auto bundle = syclex::build(
        syclex::create_kernel_bundle_from_source(q.get_context(), syclex::source_language::opencl, source));
    CHECK(bundle.ext_oneapi_has_kernel("saxpy"));
    CHECK_FALSE(bundle.ext_oneapi_has_kernel("nothing"));
    sycl::kernel saxpy = bundle.ext_oneapi_get_kernel("saxpy");
    CHECK(saxpy.get_info<sycl::info::kernel::function_name>() == "saxpy");

    if (!q.get_device().has(sycl::aspect::usm_shared_allocations)) { // NVIDIA's OpenCL: coarse-grain SVM only
        MESSAGE("skipped the launches: '", q.get_device().get_info<sycl::info::device::name>(),
                "' has no shared USM");
        return;
    }
    const std::size_t n = 4096;
    float* x = sycl::malloc_shared<float>(n, q);
    float* y = sycl::malloc_shared<float>(n, q);
    int* ints = sycl::malloc_shared<int>(256, q);
    int* sums = sycl::malloc_shared<int>(4, q);
    // SYCL's malloc answers nullptr where the device has no shared USM (NVIDIA's OpenCL: coarse-grain SVM only).
    REQUIRE_MESSAGE((x && y && ints && sums), "the device has no shared USM (sycl::malloc_shared gave nullptr)");
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i);
        y[i] = 1.f;
    }
    for (std::size_t i = 0; i < 256; ++i)
        ints[i] = static_cast<int>(i);
    q.submit([&](sycl::handler& h) {
        h.set_args(2.f, static_cast<const float*>(x), y);
        h.parallel_for(sycl::range<1>{n}, saxpy);
    });
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<int, 1> scratch(sycl::range<1>{64}, h);
        h.set_args(static_cast<const int*>(ints), sums, scratch);
        h.parallel_for(sycl::nd_range<1>{sycl::range<1>{256}, sycl::range<1>{64}},
                       bundle.ext_oneapi_get_kernel("group_sum"));
    });
    q.wait_and_throw();
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(y[i] == 2.f * static_cast<float>(i) + 1.f);
    for (int g = 0; g < 4; ++g)
        CHECK(sums[g] == 4096 * g + 2016);

    // Errors: a source that does not build (errc::build, with the log), an unknown kernel (errc::invalid), a
    // missing argument (errc::kernel_argument), OpenCL C for a native context (errc::invalid).
    try {
        syclex::build(syclex::create_kernel_bundle_from_source(
            q.get_context(), syclex::source_language::opencl, "kernel void broken( { }"));
        FAIL("a broken source built");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::build);
        CHECK(std::string(e.what()).find("does not build") != std::string::npos);
    }
    try {
        bundle.ext_oneapi_get_kernel("nothing");
        FAIL("an unknown kernel was found");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
    }
    sycl::kernel offset = bundle.ext_oneapi_get_kernel("add");
    try {
        q.submit([&](sycl::handler& h) {
            h.set_arg(1, 7);
            h.parallel_for(sycl::range<1>{256}, offset);
        });
        FAIL("a kernel ran without its first argument");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::kernel_argument);
    }
    for (const auto& d : sycl::device::get_devices())
        if (d.get_backend() == sycl::backend::ext_oneapi_native_cpu) {
            sycl::queue native(d);
            CHECK_THROWS_AS(syclex::create_kernel_bundle_from_source(native.get_context(),
                                                                     syclex::source_language::opencl, source),
                            sycl::exception);
        }
    sycl::free(x, q);
    sycl::free(y, q);
    sycl::free(ints, q);
    sycl::free(sums, q);
}

TEST_CASE("SYCL graphs of OpenCL kernel objects: record, replay, update a node's argument") {
    sycl::queue q = opencl_queue({sycl::property::queue::in_order{}});
    auto bundle = syclex::build(
        syclex::create_kernel_bundle_from_source(q.get_context(), syclex::source_language::opencl, source));
    sycl::kernel offset = bundle.ext_oneapi_get_kernel("add");
    if (!q.get_device().has(sycl::aspect::usm_shared_allocations)) {
        MESSAGE("skipped: '", q.get_device().get_info<sycl::info::device::name>(), "' has no shared USM");
        return;
    }
    int* data = sycl::malloc_shared<int>(128, q);
    REQUIRE_MESSAGE(data, "the device has no shared USM (sycl::malloc_shared gave nullptr)");
    q.memset(data, 0, 128 * sizeof(int)).wait();

    sycl_ext::command_graph g{q.get_context(), q.get_device()};
    sycl_ext::dynamic_parameter value(g, 1);
    auto node = g.add([&](sycl::handler& h) {
        h.set_arg(0, data);
        h.set_arg(1, value);
        h.parallel_for(sycl::range<1>{128}, offset);
    });
    g.add(
        [&](sycl::handler& h) {
            h.set_args(data, 10);
            h.parallel_for(sycl::range<1>{128}, offset);
        },
        {sycl_ext::property::node::depends_on(node)});
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait();
    CHECK(data[0] == 11);
    value.update(5);
    exec.update(node);
    q.ext_oneapi_graph(exec);
    q.ext_oneapi_graph(exec);
    q.wait_and_throw();
    CHECK(data[127] == 11 + 15 + 15);
    sycl::free(data, q);
}

TEST_CASE("SYCL kernel compiler under DPC++'s names: build options, the log, raw_kernel_arg, a graph node") {
    sycl::queue q = opencl_queue({sycl::property::queue::in_order{}});
    CHECK(q.get_device().ext_oneapi_can_compile(sycl_ext::source_language::opencl));
    CHECK_FALSE(q.get_device().ext_oneapi_can_compile(sycl_ext::source_language::sycl));
    CHECK_FALSE(q.get_device().ext_oneapi_can_compile(sycl_ext::source_language::ext_encore_cuda));
    sycl::kernel_bundle<sycl::bundle_state::ext_oneapi_source> source_bundle =
        sycl_ext::create_kernel_bundle_from_source(q.get_context(), sycl_ext::source_language::opencl,
                                                   "kernel void shift(global int* p, int by) {"
                                                   "  p[get_global_id(0)] += by * FACTOR; }");
    CHECK(source_bundle.get_context() == q.get_context());
    std::string log = "not written";
    sycl::kernel_bundle<sycl::bundle_state::executable> exe = sycl_ext::build(
        source_bundle, sycl_ext::properties{sycl_ext::build_options{"-DFACTOR=3"}, sycl_ext::save_log{&log}});
    CHECK(log != "not written");
    CHECK(exe.ext_oneapi_has_kernel("shift"));
    CHECK_FALSE(exe.empty());
    CHECK(exe.get_kernel_ids().empty()); // kernels built from source have no kernel_id
    sycl::kernel shift = exe.ext_oneapi_get_kernel("shift");

    // Without -DFACTOR the source does not build: errc::build, the compiler's log in what().
    try {
        sycl_ext::build(source_bundle);
        FAIL("built without FACTOR");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::build);
        CHECK_MESSAGE(std::string(e.what()).find("FACTOR") != std::string::npos, e.what());
    }
    try {
        exe.ext_oneapi_get_kernel("nothing");
        FAIL("an unknown kernel was found");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
    }

    if (!q.get_device().has(sycl::aspect::usm_shared_allocations)) {
        MESSAGE("skipped the launches: '", q.get_device().get_info<sycl::info::device::name>(), "' has no shared USM");
        return;
    }
    int* data = sycl::malloc_shared<int>(64, q);
    REQUIRE(data);
    q.memset(data, 0, 64 * sizeof(int)).wait();
    const int by = 2;
    q.submit([&](sycl::handler& h) {
        h.set_arg(0, data);
        h.set_arg(1, sycl_ext::raw_kernel_arg(&by, sizeof by));
        h.parallel_for(sycl::range<1>{64}, shift);
    }).wait();
    CHECK(data[63] == 6);

    sycl_ext::command_graph g{q.get_context(), q.get_device()};
    sycl_ext::dynamic_parameter amount(g, 1);
    auto node = g.add([&](sycl::handler& h) {
        h.set_arg(0, data);
        h.set_arg(1, amount);
        h.parallel_for(sycl::range<1>{64}, shift);
    });
    auto replay = g.finalize(sycl_ext::property::graph::updatable{});
    q.ext_oneapi_graph(replay).wait();
    CHECK(data[0] == 9);
    amount.update(10);
    replay.update(node);
    q.ext_oneapi_graph(replay).wait();
    CHECK(data[0] == 39);
    sycl::free(data, q);
}

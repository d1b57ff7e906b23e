// What the OpenCL backend refuses, and how it says so: build errors with the log, unknown kernels, kernels
// without OpenCL code, commands and arguments OpenCL cannot run, bad memory calls.
#include <doctest/doctest.h>

#include <string>

#include "encore/cache/program_cache.hpp"
#include "opencl_support.hpp"
#include "support/error_code.hpp"

using namespace encore;
using namespace encore::opencl_testing;

namespace {
template <typename F> std::string message_of(F&& f, errc expected) {
    try {
        f();
    } catch (const error& e) {
        CHECK(e.code() == expected);
        return e.what();
    }
    FAIL("no error was thrown");
    return {};
}
} // namespace

TEST_CASE("a source that does not build gives the build log; unknown kernels are refused") {
    const device d = opencl_device();
    const std::string what = message_of(
        [&] {
            opencl::build_program(
                d, opencl::program_source::opencl_c("kernel void broken(global int* p) { p[0] = "
                                                    "undeclared_name; }"));
        },
        errc::build_failure);
    CHECK(what.find("does not build") != std::string::npos);
    CHECK(what.find("undeclared_name") != std::string::npos); // the compiler's log
    const std::string options = message_of(
        [&] {
            opencl::build_program(d, opencl::program_source::opencl_c("kernel void k() {}"),
                                  std::vector<std::string>{"-not-an-option"});
        },
        errc::build_failure);
    CHECK(options.find("-not-an-option") != std::string::npos);
    message_of([&] { opencl::build_program(d, opencl::program_source::opencl_c("")); },
               errc::invalid_argument);
    const std::string unknown =
        message_of([] { opencl::get_kernel(test_program(), "no_such_kernel"); }, errc::invalid_argument);
    CHECK(unknown.find("no_such_kernel") != std::string::npos);
    CHECK(unknown.find("add_one") != std::string::npos); // says what the program has
    CHECK(test_program()->has_kernel("saxpy"));
    CHECK_THROWS_AS(opencl::get_kernel(nullptr, "x"), error);
    CHECK_THROWS_AS(opencl::program::load(opencl::program_binary{}), error);
}

TEST_CASE("build options reach the compiler") {
    const device d = opencl_device();
    auto p = opencl::program::load(opencl::build_program(
        d, opencl::program_source::opencl_c("kernel void set_n(global int* p) { p[get_global_id(0)] = N; }"),
        std::vector<std::string>{"-DN=17"}));
    queue q(d, {.in_order = true});
    usm<int> a(8);
    q.submit(
         kernel_command{opencl::get_kernel(p, "set_n"), {kernel_argument::from_pointer(a.data())}, range(8)})
        .wait();
    CHECK(a[7] == 17);
}

TEST_CASE("build_program refuses devices of other backends") {
    message_of(
        [] {
            opencl::build_program(native_device(), opencl::program_source::opencl_c("kernel void k() {}"));
        },
        errc::invalid_argument);
    message_of([] { opencl::capabilities_of(native_device()); }, errc::invalid_argument);
}

TEST_CASE("a kernel without OpenCL code fails at submission and at finalize, naming the kernel") {
    const device d = opencl_device();
    queue q(d);
    auto host_only = make_kernel("host_only_kernel", [](const work_item&) {});
    const std::string what = message_of(
        [&] {
            q.submit(kernel_command{host_only, {}, range(4)});
        },
        errc::kernel_not_supported);
    CHECK(what.find("host_only_kernel") != std::string::npos);
    graph g;
    g.add(kernel_command{host_only, {}, range(4)});
    message_of([&] { executable_graph exec(g, d); }, errc::kernel_not_supported);
    // An OpenCL kernel on the native backend has no host form.
    queue native(native_device());
    usm<int> a(4);
    CHECK_THROWS_AS(
        {
            native.submit(
                kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(4)});
            native.wait_and_throw();
        },
        error);
}

TEST_CASE("arguments and commands OpenCL cannot run are refused at submission and at finalize") {
    const device d = opencl_device();
    queue q(d, {.in_order = true});
    usm<int> a(64);
    std::vector<int> host(64);
    // Too few arguments.
    const std::string count = message_of(
        [&] {
            q.submit(
                kernel_command{test_kernel("add"), {kernel_argument::from_pointer(a.data())}, range(64)});
        },
        errc::invalid_argument);
    CHECK(count.find("takes 2 arguments") != std::string::npos);
    // A pointer into memory the backend did not allocate.
    message_of(
        [&] {
            q.submit(kernel_command{
                test_kernel("add_one"), {kernel_argument::from_pointer(host.data())}, range(64)});
        },
        errc::invalid_argument);
    // A work-group larger than the device allows.
    const std::size_t too_big = d.properties().max_work_group_size * 2;
    usm<int> big(too_big);
    message_of(
        [&] {
            q.submit(kernel_command{test_kernel("add_one"),
                                    {kernel_argument::from_pointer(big.data())},
                                    make_nd_range(1, {too_big, 1, 1}, {too_big, 1, 1})});
        },
        errc::invalid_argument);
    // A fill pattern longer than 256 bytes.
    usm<unsigned char> bytes(600);
    fill_command wide{bytes.data(), std::vector<std::byte>(300, std::byte{7}), 2};
    const std::string fill = message_of([&] { q.submit(wide); }, errc::feature_not_supported);
    CHECK(fill.find("300 bytes") != std::string::npos);
    graph g;
    g.add(wide);
    message_of([&] { executable_graph exec(g, d); }, errc::feature_not_supported);
    // Fills of memory the backend did not allocate.
    message_of([&] { q.memset(host.data(), 0, 64 * sizeof(int)); }, errc::invalid_argument);
    // The queue still works.
    q.submit(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(64)})
        .wait();
    CHECK(a[0] == 1);
}

TEST_CASE("memory: alignment, foreign pointers, double frees, host memory on every USM mode") {
    const device d = opencl_device();
    // Shared memory where the host can touch it in place; a device with coarse-grain SVM only (NVIDIA's OpenCL)
    // refuses it, and device memory is checked instead.
    const memory_kind kind = d.properties().shared_memory ? memory_kind::shared : memory_kind::device;
    if (!d.properties().shared_memory) {
        try {
            encore::malloc(100, d, memory_kind::shared);
            FAIL("shared memory on a device without host-accessible USM");
        } catch (const error& e) {
            CHECK(e.code() == errc::feature_not_supported);
        }
    }
    CHECK_THROWS_AS(encore::malloc(64, d, kind, 3), error);
    void* p = encore::malloc(100, d, kind, 4096);
    CHECK(reinterpret_cast<std::uintptr_t>(p) % 4096 == 0);
    encore::free(p, d);
    CHECK_THROWS_AS(encore::free(p, d), error);
    int local = 0;
    CHECK_THROWS_AS(encore::free(&local, d), error);
    CHECK(encore::malloc(0, d, memory_kind::device) == nullptr);
}

TEST_CASE("an executable graph for the opencl device cannot be launched on a native queue") {
    const device d = opencl_device();
    usm<int> a(4);
    graph g;
    g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(a.data())}, range(4)});
    executable_graph exec(g, d);
    queue native(native_device());
    CHECK_THROWS_AS(native.launch(exec), error);
}

TEST_CASE("a repeated build comes from the kernel/program cache, not from the compiler") {
    const device d = opencl_device();
    const auto source =
        opencl::program_source::opencl_c("kernel void cached_once(global int* p) { p[0] = 5; }");
    const std::vector<std::string> options{"-DCACHE_TEST=1"};
    auto first = opencl::build_program(d, source, options);
    const auto before = cache::program_cache::process().statistics();
    auto second = opencl::build_program(d, source, options);
    const auto after = cache::program_cache::process().statistics();
    CHECK(after.builds == before.builds);
    CHECK(after.memory_hits == before.memory_hits + 1);
    CHECK(second.bytes == first.bytes);
    CHECK(second.kernel_names == first.kernel_names);
    CHECK(second.device_name == d.properties().name);
    // Other options are another program: built, or found on disk from an earlier run, not in memory.
    opencl::build_program(d, source, std::vector<std::string>{"-DCACHE_TEST=2"});
    const auto other = cache::program_cache::process().statistics();
    CHECK(other.memory_hits == after.memory_hits);
    CHECK(other.builds + other.disk_hits == after.builds + after.disk_hits + 1);
    // And the cached binary runs.
    queue q(d, {.in_order = true});
    usm<int> a(1);
    q.submit(kernel_command{opencl::get_kernel(opencl::program::load(second), "cached_once"),
                            {kernel_argument::from_pointer(a.data())},
                            range(1)})
        .wait();
    CHECK(a[0] == 5);
}

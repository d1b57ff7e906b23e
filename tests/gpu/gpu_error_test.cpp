// Errors of a GPU backend: kernels without code for it, run-time compiler failures, unsupported arguments, misuse.
#include <doctest/doctest.h>

#include "gpu/gpu_support.hpp"
#include "support/error_code.hpp"

using namespace encore;
using encore::testing::code_of;
using namespace encore::gpu_testing;

namespace {
template <typename F> std::string message_of(F&& f) {
    try {
        f();
    } catch (const error& e) {
        return e.what();
    }
    return "";
}
} // namespace

TEST_CASE("a kernel without GPU code fails at submission and at finalize, naming the kernel") {
    const device d = gpu_device();
    queue q(d);
    auto host_only = make_kernel("host_only_kernel", [](const work_item&) {});
    CHECK(code_of([&] { q.parallel_for(range(4), host_only); }) == errc::kernel_not_supported);
    CHECK(message_of([&] { q.parallel_for(range(4), host_only); }).find("host_only_kernel") != std::string::npos);
    graph g;
    g.add(kernel_command{host_only, {}, range(4)});
    CHECK(code_of([&] { executable_graph exec(g, d); }) == errc::kernel_not_supported);
    CHECK(message_of([&] { executable_graph exec(g, d); }).find("host_only_kernel") != std::string::npos);
}

TEST_CASE("run-time compiler: a source that does not compile gives the log; unknown kernels are refused") {
    CHECK(code_of([] { build_program("extern \"C\" __global__ void broken( { }"); }) == errc::build_failure);
    CHECK(message_of([] { build_program("extern \"C\" __global__ void broken( { }", {}, "broken.cu"); })
              .find("broken.cu") != std::string::npos);
    CHECK(code_of([] { get_kernel(test_module(), "no_such_kernel"); }) == errc::invalid_argument);
    CHECK(test_module()->has_kernel("saxpy"));
    // A module kernel has no host form.
    queue cpu(native_device());
    usm<int> data(4);
    cpu.parallel_for(range(4), test_kernel("add_one"), {kernel_argument::from_pointer(data.data())});
    CHECK(code_of([&] { cpu.wait_and_throw(); }) == errc::feature_not_supported);
}

TEST_CASE("run-time compiler: binaries for the device's explicit architecture run too") {
    const auto& p = gpu_device().properties();
#ifdef ENCORE_GPU_TESTS_HIP
    std::vector<std::string> options{"--offload-arch=" + p.architecture};
    auto binary = build_program(R"(extern "C" __global__ void three(int* p) { p[threadIdx.x] = 3; })", options);
#else
    REQUIRE(p.architecture.rfind("sm_", 0) == 0);
    std::vector<std::string> options{"-arch=" + p.architecture};
    auto binary = build_program(R"(extern "C" __global__ void three(int* p) { p[threadIdx.x] = 3; })", options);
    CHECK(binary.kind == cuda::program_binary::format::cubin);
#endif
    auto k = get_kernel(module::load(std::move(binary)), "three");
    queue q(gpu_device());
    usm<int> data(32);
    q.parallel_for(range(32), k, {kernel_argument::from_pointer(data.data())}).wait();
    CHECK(data[31] == 3);
}

TEST_CASE("unsupported arguments and sizes are refused at submission") {
    queue q(gpu_device());
    usm<int> data(1024);
    CHECK(code_of([&] {
              q.parallel_for(make_nd_range(1, {1024, 1, 1}, {64, 1, 1}), test_kernel("add_one"),
                             {kernel_argument::from_pointer(data.data()), kernel_argument::local(256)});
          }) == errc::feature_not_supported);
    CHECK(code_of([&] {
              q.parallel_for(make_nd_range(1, {4096, 1, 1}, {2048, 1, 1}), test_kernel("add_one"),
                             {kernel_argument::from_pointer(data.data())});
          }) == errc::invalid_argument);
    fill_command wide{data.data(), std::vector<std::byte>(300), 1};
    CHECK(code_of([&] { q.submit(wide); }) == errc::feature_not_supported);
    q.wait_and_throw();
}

TEST_CASE("memory: alignment, foreign pointers, double frees") {
    const device d = gpu_device();
    void* p = encore::malloc(1000, d, memory_kind::device, 4096);
    CHECK(reinterpret_cast<std::uintptr_t>(p) % 4096 == 0);
    encore::free(p, d);
    CHECK(code_of([&] { encore::free(p, d); }) == errc::invalid_argument);
    int local = 0;
    CHECK(code_of([&] { encore::free(&local, d); }) == errc::invalid_argument);
    CHECK(code_of([&] { encore::malloc(16, d, memory_kind::shared, 3); }) == errc::invalid_argument);
    CHECK(encore::malloc(0, d, memory_kind::host) == nullptr);
}

TEST_CASE("driver failures are backend_failure errors naming the call") {
    const device d = gpu_device();
    // More device memory than any GPU has.
    auto message = message_of([&] { encore::malloc(std::size_t(1) << 50, d, memory_kind::device); });
#ifdef ENCORE_GPU_TESTS_HIP
    CHECK(message.find("hipMalloc") != std::string::npos);
    CHECK(message.find("hipErrorOutOfMemory") != std::string::npos);
#else
    CHECK(message.find("cuMemAlloc") != std::string::npos);
    CHECK(message.find("CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos);
#endif
}

TEST_CASE("an executable graph for the GPU device cannot be launched on a native queue") {
    const device d = gpu_device();
    graph g;
    g.add(empty_command{});
    executable_graph exec(g, d);
    queue cpu(native_device());
    CHECK(code_of([&] { cpu.launch(exec); }) == errc::invalid_argument);
}

TEST_CASE("after a driver failure the device, its queues and graphs go on working") {
    const device d = gpu_device();
    queue q(d, {.in_order = true});
    usm<int> data(256, memory_kind::shared);
    graph g;
    g.add(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(data.data())}, range(256)});
    executable_graph exec(g, d);
    for (int round = 0; round < 3; ++round) {
        // Out of memory, once per round, from the allocation itself (a synchronous error).
        CHECK(code_of([&] { encore::malloc(std::size_t(1) << 50, d, memory_kind::device); }) == errc::backend_failure);
        q.submit(kernel_command{test_kernel("add_one"), {kernel_argument::from_pointer(data.data())}, range(256)});
        q.launch(exec);
        q.wait_and_throw(); // nothing asynchronous was reported
    }
    for (int i = 0; i < 256; ++i)
        REQUIRE(data[i] == 6);
}

// What the Level Zero backend refuses, and how: module builds that fail carry the driver's build log, SPIR-V
// on a driver without a compiler, kernels without Level Zero code, bad arguments, foreign pointers.
#include <doctest/doctest.h>

#include <string>

#include "level_zero_support.hpp"
#include "support/error_code.hpp"

using namespace encore;
using namespace encore::level_zero_testing;

namespace {
std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const error& e) {
        return std::string(to_string(e.code())) + ": " + e.what();
    }
    return "(no error)";
}
} // namespace

TEST_CASE("a SPIR-V module the driver cannot build fails with its build log") {
    const device d = level_zero_device();
    // A valid SPIR-V header (magic, version 1.0, generator, bound, schema): the test driver has no SPIR-V
    // compiler.
    std::vector<unsigned char> il = {0x03, 0x02, 0x23, 0x07, 0x00, 0x00, 0x01, 0x00, 0, 0,
                                     0,    0,    0x10, 0,    0,    0,    0,    0,    0, 0};
    const auto m = message_of([&] { level_zero::build_module(d, level_zero::module_source::spirv(il)); });
    MESSAGE(m);
    CHECK(m.find("build_failure") == 0);
    CHECK(m.find("ZE_RESULT_ERROR_MODULE_BUILD_FAILURE") != std::string::npos);
    CHECK(m.find("no SPIR-V compiler") != std::string::npos); // the driver's build log
    // A second build fails again: failures are not cached.
    CHECK_THROWS_AS(level_zero::build_module(d, level_zero::module_source::spirv(il)), error);

    const auto not_spirv = message_of([&] {
        level_zero::build_module(d, level_zero::module_source::spirv({1, 2, 3, 4, 5, 6, 7, 8}));
    });
    CHECK(not_spirv.find("not a SPIR-V module") != std::string::npos);
}

TEST_CASE("a native binary that is not one, empty input, unknown kernels, foreign devices") {
    const device d = level_zero_device();
    const auto m = message_of([&] {
        level_zero::build_module(d, level_zero::module_source::native({'n', 'o', 't', ' ', 'E', 'L', 'F'}));
    });
    CHECK(m.find("build_failure") == 0);
    CHECK(m.find("ZE_RESULT_ERROR_INVALID_NATIVE_BINARY") != std::string::npos);
    CHECK_THROWS_AS(level_zero::build_module(d, level_zero::module_source::native({})), error);
    CHECK(message_of([&] { level_zero::get_kernel(test_module(), "no_such_kernel"); }).find("add_one") !=
          std::string::npos); // the message lists the kernels there are
    CHECK(message_of([&] {
              level_zero::build_module(native_device(), level_zero::module_source::native({1}));
          }).find("not a Level Zero one") != std::string::npos);
}

TEST_CASE("kernels without Level Zero code, wrong arguments, module kernels on the host") {
    const device d = level_zero_device();
    queue q(d);
    usm<int> x(16);
    auto host_only = make_kernel("host_only", [](const work_item&) {});
    CHECK(message_of([&] { q.parallel_for(range(16), host_only).wait(); }).find("kernel_not_supported") == 0);
    // scale_f32 takes (float, pointer): a 2-byte scalar is refused by the driver.
    const auto wrong = message_of([&] {
        q.parallel_for(
            range(16), test_kernel("scale_f32"),
            {kernel_argument::from_scalar(std::uint16_t{1}), kernel_argument::from_pointer(x.data())});
    });
    CHECK(wrong.find("ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE") != std::string::npos);
    const auto too_many = message_of([&] {
        q.parallel_for(range(16), test_kernel("add_one"),
                       {kernel_argument::from_pointer(x.data()), kernel_argument::from_pointer(x.data())});
    });
    CHECK(too_many.find("ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX") != std::string::npos);
    // A group size that does not divide the range.
    const auto groups = message_of([&] {
        q.parallel_for(make_nd_range(1, {10, 1, 1}, {4, 1, 1}), test_kernel("add_one"),
                       {kernel_argument::from_pointer(x.data())});
    });
    CHECK(groups.find("(no error)") == std::string::npos);
    q.wait_and_throw();
    queue host(native_device());
    CHECK(message_of([&] {
              host.parallel_for(range(4), test_kernel("add_one"), {kernel_argument::from_pointer(x.data())});
              host.wait_and_throw();
          }).find("(no error)") == std::string::npos);
}

TEST_CASE("memory the backend did not allocate cannot be freed through it") {
    const device d = level_zero_device();
    int on_stack = 0;
    CHECK_THROWS_AS(encore::free(&on_stack, d), error);
    void* p = encore::malloc(64, d, memory_kind::device);
    encore::free(p, d);
    CHECK_THROWS_AS(encore::free(p, d), error); // twice
}

// Bad input throws sycl::exception with the specification's errc: null pointers, zero sizes, the wrong queue or
// context, out-of-range accessors and sub-buffers, and use of USM memory after free. Ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <functional>
#include <string>
#include <vector>

#include "support/sycl_test_memory.hpp"

namespace {
// Copied to and from in "a device_global on a device the program has no code for".
sycl::ext::oneapi::experimental::device_global<int> errors_global;

using encore::testing::test_memory;
using encore::testing::test_memory_kind;

// Runs `f`, which must throw sycl::exception with `expected`; the message must name what went wrong.
void expect_errc(sycl::errc expected, const std::function<void()>& f, const char* message_part = "") {
    try {
        f();
        FAIL("no exception; expected errc " << static_cast<int>(expected));
    } catch (const sycl::exception& e) {
        CHECK(e.code() == expected);
        CHECK(e.code().category() == sycl::sycl_category());
        INFO("message: " << std::string(e.what()));
        CHECK(std::string(e.what()).find(message_part) != std::string::npos);
    }
}
} // namespace

TEST_CASE("null pointers in USM commands") {
    sycl::queue q;
    test_memory<int> memory(q, 16);
    int* p = memory.get();
    expect_errc(sycl::errc::invalid, [&] { q.memcpy(nullptr, p, 16); }, "destination is null");
    expect_errc(sycl::errc::invalid, [&] { q.memcpy(p, nullptr, 16); }, "source is null");
    expect_errc(sycl::errc::invalid, [&] { q.copy<int>(nullptr, p, 4); }, "null");
    expect_errc(sycl::errc::invalid, [&] { q.memset(nullptr, 0, 16); }, "null");
    expect_errc(sycl::errc::invalid, [&] { q.fill<int>(nullptr, 1, 4); }, "null");
    expect_errc(sycl::errc::invalid, [&] { q.prefetch(nullptr, 16); }, "null");
    expect_errc(sycl::errc::invalid, [&] { q.mem_advise(nullptr, 16, 0); }, "null");
    expect_errc(sycl::errc::invalid, [&] { q.submit([&](sycl::handler& h) { h.memcpy(nullptr, p, 4); }); }, "null");
    // Zero bytes touch nothing: a null pointer is fine then.
    CHECK_NOTHROW(q.memcpy(nullptr, nullptr, 0).wait());
    CHECK_NOTHROW(q.memset(nullptr, 0, 0).wait());
    CHECK_NOTHROW(q.fill<int>(nullptr, 1, 0).wait());
}

TEST_CASE("a device_global on a device the program has no code for") {
    sycl::queue q;
    const int value = 7;
    if (q.get_device().engine().properties().host_kernels) {
        // The native device copies to the host object itself.
        q.memcpy(errors_global, &value).wait();
        int back = 0;
        q.memcpy(&back, errors_global).wait();
        CHECK(back == 7);
        return;
    }
    // Built by g++, the program carries no device code: the message says what would give the variable an instance.
    const std::string backend(q.get_device().engine().backend_name());
    const char* const remedy = backend == "opencl" || backend == "level_zero"
                                   ? "encore++'s spir64 target does not give device_globals an instance yet"
                                   : "-fsycl-targets=";
    expect_errc(sycl::errc::invalid, [&] { q.memcpy(errors_global, &value).wait(); }, remedy);
    int back = 0;
    expect_errc(sycl::errc::invalid, [&] { q.copy(errors_global, &back).wait(); }, "no instance");
}

TEST_CASE("null pointers in accessor copies and reductions") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{4}};
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::read_only};
            h.copy(a, static_cast<int*>(nullptr));
        });
    }, "null");
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::write_only};
            h.copy(static_cast<const int*>(nullptr), a);
        });
    }, "null");
    expect_errc(sycl::errc::invalid, [&] { (void)sycl::reduction(static_cast<float*>(nullptr), sycl::plus<float>()); });
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) {
            sycl::accessor<int> empty;
            h.require(empty);
        });
    }, "empty");
}

TEST_CASE("zero sizes: buffers, sub-buffers, local accessors, local ranges") {
    sycl::queue q;
    expect_errc(sycl::errc::invalid, [] { sycl::buffer<int> b{sycl::range<1>{0}}; }, "at least one element");
    expect_errc(sycl::errc::invalid, [] { sycl::buffer<int, 2> b{sycl::range<2>{4, 0}}; }, "at least one element");
    sycl::buffer<int> parent{sycl::range<1>{8}};
    expect_errc(sycl::errc::invalid, [&] { sycl::buffer<int> s{parent, sycl::id<1>{2}, sycl::range<1>{0}}; },
                "at least one element");
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) { sycl::local_accessor<int> l{sycl::range<1>{0}, h}; });
    }, "local_accessor");
    expect_errc(sycl::errc::nd_range, [&] { q.parallel_for(sycl::nd_range<1>{8, 0}, [](sycl::nd_item<1>) {}); },
                "local range is 0");
    CHECK(sycl::malloc_device(0, q) == nullptr); // the specification's answer, not an exception
}

TEST_CASE("the wrong context: USM of another context, a device outside the context") {
    sycl::device d;
    sycl::context mine{d}, other{d};
    sycl::queue q{mine, d};
    const auto kind = test_memory_kind(d); // shared where the device has it
    int* foreign = sycl::malloc<int>(8, d, other, kind);
    int* local = sycl::malloc<int>(8, d, mine, kind);
    expect_errc(sycl::errc::invalid, [&] { q.memcpy(local, foreign, 8 * sizeof(int)); }, "another context");
    expect_errc(sycl::errc::invalid, [&] { q.memset(foreign, 0, 4); }, "another context");
    expect_errc(sycl::errc::invalid, [&] { q.fill(foreign, 1, 8); }, "another context");
    expect_errc(sycl::errc::invalid, [&] { sycl::free(foreign, mine); }, "another context");
    expect_errc(sycl::errc::invalid, [&] { (void)sycl::get_pointer_device(foreign, mine); });
    CHECK(sycl::get_pointer_type(foreign, mine) == sycl::usm::alloc::unknown);
    sycl::free(foreign, other);
    sycl::free(local, mine);
    // A device outside the context: needs a second device (a native backend with several devices).
    auto devices = sycl::device::get_devices();
    if (devices.size() > 1) {
        sycl::context first{devices[0]};
        expect_errc(sycl::errc::invalid, [&] { sycl::queue bad{first, devices[1]}; }, "does not belong");
        expect_errc(sycl::errc::invalid, [&] { (void)sycl::malloc(16, devices[1], first, kind); }, "does not belong");
    }
    expect_errc(sycl::errc::invalid, [&] { (void)sycl::malloc(16, d, mine, sycl::usm::alloc::unknown); }, "unknown");
}

TEST_CASE("out-of-range accessors, host accessors and sub-buffers") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{10}};
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) { sycl::accessor a{b, h, sycl::range<1>{5}, sycl::id<1>{6}, sycl::read_only}; });
    }, "reach past the buffer");
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) { sycl::accessor a{b, h, sycl::range<1>{11}}; });
    }, "reach past the buffer");
    expect_errc(sycl::errc::invalid, [&] { sycl::host_accessor a{b, sycl::range<1>{3}, sycl::id<1>{8}, sycl::read_only}; },
                "reach past the buffer");
    sycl::buffer<int, 2> grid{sycl::range<2>{4, 4}};
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) { sycl::accessor a{grid, h, sycl::range<2>{2, 2}, sycl::id<2>{0, 3}}; });
    }, "dimension 1");
    expect_errc(sycl::errc::invalid, [&] { sycl::buffer<int> s{b, sycl::id<1>{8}, sycl::range<1>{3}}; }, "past its parent");
    expect_errc(sycl::errc::invalid, [&] { sycl::buffer<int, 2> s{grid, sycl::id<2>{0, 0}, sycl::range<2>{2, 2}}; },
                "contiguous");
    // A copy into a smaller accessor.
    sycl::buffer<int> small{sycl::range<1>{4}};
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) {
            sycl::accessor from{b, h, sycl::read_only};
            sycl::accessor to{small, h, sycl::write_only};
            h.copy(from, to);
        });
    }, "destination accessor");
    // A ranged accessor's region that is not one block cannot be copied.
    expect_errc(sycl::errc::feature_not_supported, [&] {
        q.submit([&](sycl::handler& h) {
            sycl::accessor from{grid, h, sycl::range<2>{2, 2}, sycl::read_only};
            h.copy(from, std::vector<int>(4).data());
        });
    }, "not contiguous");
}

TEST_CASE("USM commands that reach past the end of an allocation") {
    sycl::queue q;
    test_memory<int> a_memory(q, 8); // shared where the device has it
    int* a = a_memory.get();
    int* b = sycl::malloc_device<int>(8, q);
    expect_errc(sycl::errc::invalid, [&] { q.memcpy(b, a, 9 * sizeof(int)); }, "reach past the end");
    expect_errc(sycl::errc::invalid, [&] { q.memset(a + 4, 0, 5 * sizeof(int)); }, "reach past the end");
    expect_errc(sycl::errc::invalid, [&] { q.fill(b + 1, 3, 8); }, "reach past the end");
    expect_errc(sycl::errc::invalid, [&] { q.copy(a, b + 7, 2); }, "reach past the end");
    sycl::buffer<int> big{sycl::range<1>{16}};
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) {
            sycl::accessor from{big, h, sycl::read_only};
            h.copy(from, a); // 16 ints into an allocation of 8
        });
    }, "reach past the end");
    CHECK_NOTHROW(q.memcpy(b, a + 4, 4 * sizeof(int)).wait());
    sycl::free(b, q);
}

TEST_CASE("use after free, double free, and freeing what USM did not allocate") {
    sycl::queue q;
    const auto kind = test_memory_kind(q.get_device()); // shared where the device has it
    int* p = sycl::malloc<int>(8, q, kind);
    int* live = sycl::malloc<int>(8, q, kind);
    sycl::free(p, q);
    expect_errc(sycl::errc::invalid, [&] { sycl::free(p, q); }, "freed already");
    expect_errc(sycl::errc::invalid, [&] { q.memcpy(live, p, 8); }, "freed");
    expect_errc(sycl::errc::invalid, [&] { q.memset(p, 0, 8); }, "freed");
    expect_errc(sycl::errc::invalid, [&] { q.fill(p + 2, 1, 2); }, "freed");
    expect_errc(sycl::errc::invalid, [&] { (void)sycl::get_pointer_device(p, q.get_context()); });
    CHECK(sycl::get_pointer_type(p, q.get_context()) == sycl::usm::alloc::unknown);
    int on_stack[4];
    expect_errc(sycl::errc::invalid, [&] { sycl::free(on_stack, q); }, "not returned by a SYCL USM allocation");
    expect_errc(sycl::errc::invalid, [&] { sycl::free(live + 1, q); }, "points inside one");
    sycl::free(live, q);
}

TEST_CASE("misuse of command groups, kernels and queues") {
    sycl::queue q;
    test_memory<int> memory(q, 4);
    int* p = memory.get();
    expect_errc(sycl::errc::invalid, [&] {
        q.submit([&](sycl::handler& h) {
            h.single_task([] {});
            h.memset(p, 0, 4);
        });
    }, "one command");
    expect_errc(sycl::errc::nd_range, [&] { q.parallel_for(sycl::nd_range<1>{10, 3}, [](sycl::nd_item<1>) {}); },
                "not a multiple");
    expect_errc(sycl::errc::invalid, [&] { (void)q.get_property<sycl::property::queue::in_order>(); });
}

// -fsycl-id-queries-fit-in-int, DPC++'s default and encore++'s: a program built with it assumes every id and range
// its kernels read fits in an int (so device code may index in 32 bits), and the host refuses a launch where that
// does not hold with errc::nd_range, naming the flag that lifts the limit. One body built four ways
// (tests/conformance/meson.build, tests/compiler/meson.build): by g++, and by encore++ with
// -fno-sycl-id-queries-fit-in-int, where no such limit exists; by encore++ for native and for CUDA, where it does.
#include <doctest/doctest.h>

#include <climits>
#include <string>

#include <sycl/sycl.hpp>

namespace {
// A one-dimensional range launch of `count` items from `offset`, each writing its id at seen[id - offset].
void record_ids(sycl::queue& q, std::size_t* seen, std::size_t count, std::size_t offset) {
    q.submit([&](sycl::handler& h) {
         h.parallel_for(sycl::range<1>{count}, sycl::id<1>{offset},
                        [=](sycl::item<1> it) { seen[it.get_id(0) - offset] = it.get_id(0); });
     }).wait_and_throw();
}
} // namespace

TEST_CASE("ids up to INT_MAX - 1: the launch runs and every item reads its whole id") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    auto* seen = sycl::malloc_shared<std::size_t>(2, q);
    REQUIRE(seen != nullptr);
    seen[0] = seen[1] = 0;
    const std::size_t offset = INT_MAX - 2; // ids INT_MAX - 2 and INT_MAX - 1: the end, INT_MAX, fits too
    record_ids(q, seen, 2, offset);
    CHECK(seen[0] == offset);
    CHECK(seen[1] == offset + 1);

    // An nd_range's ids and ranges as the kernel reads them.
    auto* ranges = sycl::malloc_shared<std::size_t>(4, q);
    REQUIRE(ranges != nullptr);
    q.parallel_for(sycl::nd_range<1>{1024, 256}, [=](sycl::nd_item<1> it) {
         if (it.get_global_id(0) != 1023) return;
         ranges[0] = it.get_global_range(0);
         ranges[1] = it.get_local_range(0);
         ranges[2] = it.get_group(0);
         ranges[3] = it.get_local_id(0);
     }).wait_and_throw();
    CHECK(ranges[0] == 1024);
    CHECK(ranges[1] == 256);
    CHECK(ranges[2] == 3);
    CHECK(ranges[3] == 255);
    sycl::free(ranges, q);
    sycl::free(seen, q);
}

TEST_CASE("ids past INT_MAX: refused where the program assumes they fit in an int, run where it does not") {
    sycl::queue q;
    auto* seen = sycl::malloc_shared<std::size_t>(1, q);
    REQUIRE(seen != nullptr);
    seen[0] = 0;
    const std::size_t offset = std::size_t{1} << 32; // one item whose id needs 33 bits
#if defined(__SYCL_ID_QUERIES_FIT_IN_INT__)
    try {
        record_ids(q, seen, 1, offset);
        FAIL("a launch with the id 2^32 ran in a program built with -fsycl-id-queries-fit-in-int");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::nd_range);
        CHECK(std::string(e.what()).find("-fno-sycl-id-queries-fit-in-int") != std::string::npos);
    }
    CHECK(seen[0] == 0); // nothing ran
    // The edge: an end of INT_MAX + 1 (offset INT_MAX, one item) is refused as DPC++ refuses it.
    CHECK_THROWS_AS(record_ids(q, seen, 1, INT_MAX), sycl::exception);
#else
    record_ids(q, seen, 1, offset);
    CHECK(seen[0] == offset);
#endif
    sycl::free(seen, q);
}

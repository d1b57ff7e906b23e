// SYCL 2020 section 4.15.1, atomic_fence: every order and scope in device code, ordering a work-group's writes
// before an atomic count that the group's last item reads (the writes it then sees are checked). One body built three
// ways (tests/conformance/meson.build, tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <cstring>

#include <sycl/sycl.hpp>

TEST_CASE("atomic_fence: each order and scope runs in a kernel; with a release fence and an atomic count, the last "
          "item of a group sees the others' writes") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    constexpr std::size_t group = 64, groups = 16, items = group * groups;
    int* data = sycl::malloc_shared<int>(items, q);
    int* counts = sycl::malloc_shared<int>(groups, q);
    int* seen = sycl::malloc_shared<int>(groups, q);
    REQUIRE(data != nullptr);
    REQUIRE(counts != nullptr);
    REQUIRE(seen != nullptr);
    std::memset(counts, 0, groups * sizeof(int));
    std::memset(seen, 0, groups * sizeof(int));
    q.parallel_for(sycl::nd_range<1>{items, group}, [=](sycl::nd_item<1> it) {
         const std::size_t i = it.get_global_id(0), g = it.get_group(0);
         // Every combination compiles and runs (relaxed fences nothing).
         const sycl::memory_order orders[] = {sycl::memory_order::relaxed, sycl::memory_order::acquire,
                                              sycl::memory_order::release, sycl::memory_order::acq_rel,
                                              sycl::memory_order::seq_cst};
         const sycl::memory_scope scopes[] = {sycl::memory_scope::work_item, sycl::memory_scope::sub_group,
                                              sycl::memory_scope::work_group, sycl::memory_scope::device,
                                              sycl::memory_scope::system};
         for (auto o : orders)
             for (auto s : scopes)
                 sycl::atomic_fence(o, s);
         data[i] = static_cast<int>(i) + 1;
         sycl::atomic_fence(sycl::memory_order::release, sycl::memory_scope::device);
         sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> count(counts[g]);
         if (count.fetch_add(1) == static_cast<int>(group) - 1) {
             // The last item of the group to count: every item's write came before its count.
             sycl::atomic_fence(sycl::memory_order::acquire, sycl::memory_scope::device);
             int sum = 0;
             for (std::size_t k = 0; k < group; ++k)
                 sum += data[g * group + k];
             seen[g] = sum;
         }
     }).wait();
    for (std::size_t g = 0; g < groups; ++g) {
        const int first = static_cast<int>(g * group) + 1, last = static_cast<int>((g + 1) * group);
        CAPTURE(g);
        CHECK(counts[g] == static_cast<int>(group));
        CHECK(seen[g] == (first + last) * static_cast<int>(group) / 2);
    }
    sycl::free(data, q);
    sycl::free(counts, q);
    sycl::free(seen, q);
}

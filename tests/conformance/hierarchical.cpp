// SYCL 2020 section 4.10.4.2 (hierarchical data parallel kernels): handler::parallel_for_work_group with and
// without a work-group size, group::parallel_for_work_item over the group and over a logical range of another
// size, h_item's global, logical and physical ids, private_memory kept across parallel_for_work_item calls, and
// local accessors shared by a group's items between them. Each result is compared with plain C++. One body built
// three ways (tests/conformance/meson.build, tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include <sycl/sycl.hpp>

#include "shared_array.hpp"

TEST_CASE("hierarchical: parallel_for_work_item visits every item of every group once, with its ids") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    constexpr std::size_t groups = 6, local = 64, n = groups * local;
    auto* ids = shared_array<std::size_t>(q, n * 4);
    auto* visits = shared_array<int>(q, n);
    q.submit([&](sycl::handler& h) {
         h.parallel_for_work_group(sycl::range<1>{groups}, sycl::range<1>{local}, [=](sycl::group<1> g) {
             g.parallel_for_work_item([&](sycl::h_item<1> it) {
                 const std::size_t i = it.get_global_id(0);
                 sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device>(visits[i]) += 1;
                 ids[i * 4] = g.get_group_id(0);
                 ids[i * 4 + 1] = it.get_local_id(0);
                 ids[i * 4 + 2] = it.get_global_range(0);
                 ids[i * 4 + 3] = it.get_physical_local_id(0);
             });
         });
     }).wait();
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        CHECK(visits[i] == 1);
        CHECK(ids[i * 4] == i / local);
        CHECK(ids[i * 4 + 1] == i % local);
        CHECK(ids[i * 4 + 2] == n);
        CHECK(ids[i * 4 + 3] == i % local);
    }
    sycl::free(ids, q);
    sycl::free(visits, q);
}

TEST_CASE("hierarchical: private_memory and local memory carry values between parallel_for_work_item calls") {
    sycl::queue q;
    constexpr std::size_t groups = 5, local = 64, n = groups * local;
    std::vector<int> input(n);
    std::iota(input.begin(), input.end(), 1);
    std::vector<int> reversed(n, 0), sums(groups, 0);
    {
        sycl::buffer<int> in_b(input.data(), sycl::range<1>{n});
        sycl::buffer<int> out_b(reversed.data(), sycl::range<1>{n});
        sycl::buffer<int> sum_b(sums.data(), sycl::range<1>{groups});
        q.submit([&](sycl::handler& h) {
            sycl::accessor in{in_b, h, sycl::read_only};
            sycl::accessor out{out_b, h, sycl::write_only};
            sycl::accessor sum{sum_b, h, sycl::write_only};
            sycl::local_accessor<int, 1> tile{sycl::range<1>{local}, h};
            h.parallel_for_work_group(sycl::range<1>{groups}, sycl::range<1>{local}, [=](sycl::group<1> g) {
                sycl::private_memory<int> mine(g);
                g.parallel_for_work_item([&](sycl::h_item<1> it) {
                    mine(it) = in[it.get_global_id(0)] * 3;
                    tile[it.get_local_id(0)] = in[it.get_global_id(0)];
                });
                // Every item's tile write is visible to every other item now.
                g.parallel_for_work_item([&](sycl::h_item<1> it) {
                    out[it.get_global_id(0)] = tile[local - 1 - it.get_local_id(0)] + mine(it);
                });
                // A tree reduction of the tile, a parallel_for_work_item per level.
                for (std::size_t half = local / 2; half > 0; half /= 2) {
                    g.parallel_for_work_item([&](sycl::h_item<1> it) {
                        const std::size_t l = it.get_local_id(0);
                        if (l < half) tile[l] += tile[l + half];
                    });
                }
                g.parallel_for_work_item([&](sycl::h_item<1> it) {
                    if (it.get_local_id(0) == 0) sum[g.get_group_id(0)] = tile[0];
                });
            });
        });
    }
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        const std::size_t group_first = i - i % local, l = i % local;
        CHECK(reversed[i] == input[group_first + local - 1 - l] + input[i] * 3);
    }
    for (std::size_t g = 0; g < groups; ++g) {
        CAPTURE(g);
        CHECK(sums[g] == std::accumulate(input.begin() + static_cast<std::ptrdiff_t>(g * local),
                                         input.begin() + static_cast<std::ptrdiff_t>((g + 1) * local), 0));
    }
}

TEST_CASE("hierarchical: a logical range larger than the group, 2-D groups, and the default group size") {
    sycl::queue q;
    // 2-D: 3x2 groups of 4x8 items, each item visited through a logical range of 8x8 (twice the group).
    const sycl::range<2> groups{3, 2}, local{4, 8}, logical{8, 8};
    auto* hits = shared_array<int>(q, groups.size() * logical.size());
    auto* physical_ok = shared_array<int>(q, groups.size() * logical.size());
    q.submit([&](sycl::handler& h) {
         h.parallel_for_work_group(groups, local, [=](sycl::group<2> g) {
             g.parallel_for_work_item(logical, [&](sycl::h_item<2> it) {
                 const std::size_t l = it.get_logical_local_id(0) * 8 + it.get_logical_local_id(1);
                 const std::size_t slot = g.get_group_linear_id() * 64 + l;
                 hits[slot] += 1;
                 const std::size_t p = it.get_physical_local_id(0) * 8 + it.get_physical_local_id(1);
                 physical_ok[slot] = p < 32 && it.get_logical_local_range() == logical &&
                                     it.get_physical_local_range() == local;
             });
         });
     }).wait();
    for (std::size_t s = 0; s < groups.size() * logical.size(); ++s) {
        CAPTURE(s);
        CHECK(hits[s] == 1);
        CHECK(physical_ok[s] == 1);
    }
    sycl::free(hits, q);
    sycl::free(physical_ok, q);

    // No work-group size: every group's items still cover the group's local range once.
    constexpr std::size_t count = 10;
    auto* seen = shared_array<std::size_t>(q, count * 64);
    auto* sizes = shared_array<std::size_t>(q, count);
    q.submit([&](sycl::handler& h) {
         h.parallel_for_work_group(sycl::range<1>{count}, [=](sycl::group<1> g) {
             g.parallel_for_work_item([&](sycl::h_item<1> it) {
                 seen[g.get_group_id(0) * 64 + it.get_local_id(0)] += 1;
                 if (it.get_local_id(0) == 0) sizes[g.get_group_id(0)] = g.get_local_range(0);
             });
         });
     }).wait();
    for (std::size_t g = 0; g < count; ++g) {
        CAPTURE(g);
        REQUIRE(sizes[g] >= 1);
        REQUIRE(sizes[g] <= 64);
        for (std::size_t l = 0; l < 64; ++l)
            CHECK(seen[g * 64 + l] == (l < sizes[g] ? 1u : 0u));
    }
    sycl::free(seen, q);
    sycl::free(sizes, q);
}

// SYCL 2020 sections 4.17.3-4.17.4: group_broadcast and the group algorithms (reduce_over_group,
// inclusive/exclusive_scan_over_group, any/all/none_of_group, joint_reduce, joint_*_scan, joint_any/all/none_of) over
// work-groups and sub-groups, compared with plain C++ folds in local order. Work-groups of 64, 80 (a partial last
// sub-group), 1 and 2-D 4x24 items; integer values, and floats that sum exactly, so that any order gives one answer.
// One body built three ways (tests/conformance/meson.build, tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include <sycl/sycl.hpp>

#include "shared_array.hpp"

namespace {
int value_of(std::size_t i) { return static_cast<int>((i * 37) % 101) - 50; }

// The members of the scope (work-group or sub-group) of global item i, as global ids, in member order.
std::vector<std::size_t> members(std::size_t i, std::size_t local, bool sub_group) {
    const std::size_t group_first = i - i % local;
    std::size_t first = group_first, count = local;
    if (sub_group) {
        first = group_first + (i % local) / 32 * 32;
        count = std::min<std::size_t>(32, group_first + local - first);
    }
    std::vector<std::size_t> m;
    for (std::size_t k = 0; k < count; ++k)
        m.push_back(first + k);
    return m;
}
} // namespace

TEST_CASE("group algorithms: reductions and scans over work-groups and sub-groups match plain C++") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    constexpr std::size_t results = 12;
    for (std::size_t local : {std::size_t{64}, std::size_t{80}, std::size_t{1}, std::size_t{256}}) {
        CAPTURE(local);
        const std::size_t n = local * 3;
        auto* in = shared_array<int>(q, n);
        for (std::size_t i = 0; i < n; ++i)
            in[i] = value_of(i);
        auto* out = shared_array<long long>(q, n * results);
        auto* sums = shared_array<float>(q, n * 2);
        q.parallel_for(sycl::nd_range<1>{n, local}, [=](sycl::nd_item<1> it) {
             const std::size_t i = it.get_global_id(0);
             const int x = in[i];
             const auto g = it.get_group();
             const auto sg = it.get_sub_group();
             long long* o = out + i * results;
             o[0] = sycl::reduce_over_group(g, x, sycl::plus<>());
             o[1] = sycl::reduce_over_group(g, x, sycl::maximum<int>());
             o[2] = sycl::reduce_over_group(g, x, 1000, sycl::minimum<int>());
             o[3] = sycl::inclusive_scan_over_group(g, x, sycl::plus<int>());
             o[4] = sycl::exclusive_scan_over_group(g, x, sycl::plus<int>());
             o[5] = sycl::exclusive_scan_over_group(g, x, 7, sycl::plus<int>());
             o[6] = sycl::inclusive_scan_over_group(g, x, sycl::maximum<int>(), -20);
             o[7] = sycl::reduce_over_group(sg, x, sycl::plus<>());
             o[8] = sycl::inclusive_scan_over_group(sg, x, sycl::plus<int>());
             o[9] = sycl::exclusive_scan_over_group(sg, x, sycl::plus<int>());
             o[10] = sycl::reduce_over_group(sg, static_cast<unsigned>(x & 0xff), sycl::bit_or<unsigned>());
             o[11] = sycl::group_broadcast(g, x, it.get_local_range(0) - 1);
             sums[i * 2] = sycl::reduce_over_group(g, static_cast<float>(x) * 0.5f, sycl::plus<float>());
             sums[i * 2 + 1] = static_cast<float>(sycl::reduce_over_group(sg, static_cast<double>(x), sycl::plus<>()));
         }).wait();
        for (std::size_t i = 0; i < n; ++i) {
            CAPTURE(i);
            const long long* o = out + i * results;
            for (bool sub : {false, true}) {
                CAPTURE(sub);
                const auto m = members(i, local, sub);
                long long sum = 0, before = 0, biggest = -1000, smallest = 1000, running_max = -20;
                unsigned bits = 0;
                bool reached = false;
                for (std::size_t j : m) {
                    sum += value_of(j);
                    biggest = std::max<long long>(biggest, value_of(j));
                    smallest = std::min<long long>(smallest, value_of(j));
                    bits |= static_cast<unsigned>(value_of(j) & 0xff);
                    if (!reached) before += j == i ? 0 : value_of(j);
                    if (!reached) running_max = std::max<long long>(running_max, value_of(j));
                    if (j == i) reached = true;
                }
                const long long inclusive = before + value_of(i);
                if (!sub) {
                    CHECK(o[0] == sum);
                    CHECK(o[1] == biggest);
                    CHECK(o[2] == smallest);
                    CHECK(o[3] == inclusive);
                    CHECK(o[4] == before);
                    CHECK(o[5] == before + 7);
                    CHECK(o[6] == running_max);
                    CHECK(o[11] == value_of(m.back()));
                    CHECK(sums[i * 2] == static_cast<float>(sum) * 0.5f);
                } else {
                    CHECK(o[7] == sum);
                    CHECK(o[8] == inclusive);
                    CHECK(o[9] == before);
                    CHECK(o[10] == bits);
                    CHECK(sums[i * 2 + 1] == static_cast<float>(sum));
                }
            }
        }
        sycl::free(in, q);
        sycl::free(out, q);
        sycl::free(sums, q);
    }
}

TEST_CASE("group algorithms: any/all/none_of_group, broadcast by id in 2-D, and vec values") {
    sycl::queue q;
    const sycl::range<2> global{8, 48}, local{4, 24}; // 96 items a group: sub-groups of 32
    const std::size_t n = global.size();
    auto* out = shared_array<int>(q, n * 8);
    auto* vecs = shared_array<sycl::float4>(q, n);
    q.parallel_for(sycl::nd_range<2>{global, local}, [=](sycl::nd_item<2> it) {
         const std::size_t i = it.get_global_linear_id();
         const std::size_t l = it.get_local_linear_id();
         const auto g = it.get_group();
         const auto sg = it.get_sub_group();
         int* o = out + i * 8;
         o[0] = sycl::any_of_group(g, l == 95);
         o[1] = sycl::all_of_group(g, l < 95);
         o[2] = sycl::none_of_group(g, l > 200);
         o[3] = sycl::any_of_group(sg, static_cast<int>(l), [](int v) { return v == 40; });
         o[4] = sycl::all_of_group(sg, static_cast<int>(l), [](int v) { return v < 64; });
         o[5] = sycl::group_broadcast(g, static_cast<int>(i), sycl::id<2>{2, 5});
         o[6] = sycl::group_broadcast(g, static_cast<int>(i));
         o[7] = sycl::none_of_group(sg, sg.get_local_linear_id() == 31);
         const sycl::float4 v{static_cast<float>(l), 1.0f, -static_cast<float>(l), 2.0f};
         vecs[i] = sycl::reduce_over_group(sg, v, sycl::plus<sycl::float4>());
     }).wait();
    for (std::size_t r = 0; r < global[0]; ++r)
        for (std::size_t c = 0; c < global[1]; ++c) {
            const std::size_t i = r * global[1] + c;
            CAPTURE(i);
            const std::size_t l = (r % local[0]) * local[1] + c % local[1], sg = l / 32;
            const std::size_t group_row = r - r % local[0], group_col = c - c % local[1];
            const int* o = out + i * 8;
            CHECK(o[0] == 1);
            CHECK(o[1] == 0);
            CHECK(o[2] == 1);
            CHECK(o[3] == (sg == 1 ? 1 : 0));
            CHECK(o[4] == (sg < 2 ? 1 : 0));
            CHECK(o[5] == static_cast<int>((group_row + 2) * global[1] + group_col + 5));
            CHECK(o[6] == static_cast<int>(group_row * global[1] + group_col));
            CHECK(o[7] == 0);
            const float lanes_sum = static_cast<float>(sg * 32 * 32 + 31 * 32 / 2);
            CHECK(vecs[i].x() == lanes_sum);
            CHECK(vecs[i].y() == 32.0f);
            CHECK(vecs[i].z() == -lanes_sum);
            CHECK(vecs[i].w() == 64.0f);
        }
    sycl::free(out, q);
    sycl::free(vecs, q);
}

TEST_CASE("group algorithms: joint_reduce, joint scans and joint_any/all/none_of share a range among a group") {
    sycl::queue q;
    constexpr std::size_t count = 1000, groups = 3, local = 96;
    auto* in = shared_array<int>(q, count);
    for (std::size_t i = 0; i < count; ++i)
        in[i] = value_of(i);
    auto* inclusive = shared_array<int>(q, count * groups);
    auto* exclusive = shared_array<int>(q, count * groups);
    auto* sub_inclusive = shared_array<int>(q, count * groups * 3);
    auto* out = shared_array<long long>(q, groups * local * 8);
    q.parallel_for(sycl::nd_range<1>{groups * local, local}, [=](sycl::nd_item<1> it) {
         const auto g = it.get_group();
         const auto sg = it.get_sub_group();
         const std::size_t gid = it.get_group(0);
         long long* o = out + it.get_global_id(0) * 8;
         o[0] = sycl::joint_reduce(g, in, in + count, sycl::plus<>());
         o[1] = sycl::joint_reduce(g, in, in + count, 5, sycl::maximum<int>());
         o[2] = sycl::joint_reduce(sg, in + 10, in + 77, sycl::minimum<int>());
         o[3] = sycl::joint_any_of(g, in, in + count, [](int v) { return v == 50; });
         o[4] = sycl::joint_all_of(g, in, in + count, [](int v) { return v >= -50; });
         o[5] = sycl::joint_none_of(sg, in, in + count, [](int v) { return v > 50; });
         o[6] = sycl::joint_all_of(sg, in, in + count, [](int v) { return v > -50; });
         sycl::joint_inclusive_scan(g, in, in + count, inclusive + gid * count, sycl::plus<int>());
         sycl::joint_exclusive_scan(g, in, in + count, exclusive + gid * count, 3, sycl::plus<int>());
         int* mine = sub_inclusive + (gid * 3 + sg.get_group_linear_id()) * count;
         const int* end = sycl::joint_inclusive_scan(sg, in, in + count, mine, sycl::maximum<int>(), -100);
         o[7] = end - mine;
     }).wait();
    long long sum = 0;
    int biggest = 5, smallest = 1000;
    for (std::size_t i = 0; i < count; ++i) {
        sum += in[i];
        biggest = std::max(biggest, in[i]);
    }
    for (std::size_t i = 10; i < 77; ++i)
        smallest = std::min(smallest, in[i]);
    for (std::size_t k = 0; k < groups * local; ++k) {
        CAPTURE(k);
        const long long* o = out + k * 8;
        CHECK(o[0] == sum);
        CHECK(o[1] == biggest);
        CHECK(o[2] == smallest);
        CHECK(o[3] == 1);
        CHECK(o[4] == 1);
        CHECK(o[5] == 1);
        CHECK(o[6] == 0);
        CHECK(o[7] == static_cast<long long>(count));
    }
    for (std::size_t gid = 0; gid < groups; ++gid) {
        int running = 0, running_max = -100;
        for (std::size_t i = 0; i < count; ++i) {
            CAPTURE(gid);
            CAPTURE(i);
            CHECK(exclusive[gid * count + i] == running + 3);
            running += in[i];
            running_max = std::max(running_max, in[i]);
            CHECK(inclusive[gid * count + i] == running);
            for (std::size_t s = 0; s < 3; ++s)
                CHECK(sub_inclusive[(gid * 3 + s) * count + i] == running_max);
        }
    }
    sycl::free(in, q);
    sycl::free(inclusive, q);
    sycl::free(exclusive, q);
    sycl::free(sub_inclusive, q);
    sycl::free(out, q);
}

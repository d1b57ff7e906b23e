// SYCL 2020 section 4.9.1.8 (sub_group) and the sub-group functions of 4.17.3: the sub-group queries, shuffles
// (select_from_group, shift_group_left/right, permute_group_by_xor, group_broadcast), sub-group barriers, sub-groups
// that call collectives while others of their work-group do not, and the sub_group_size kernel property. Each
// kernel's results are compared with what plain C++ computes from the same rule (a sub-group is 32 consecutive
// work-items in local linear order, the last one holding the rest). One body built three ways
// (tests/conformance/meson.build, tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <sycl/sycl.hpp>

#include "shared_array.hpp"

namespace {
constexpr std::size_t width = 32;

struct placement {
    std::size_t sub_group, lane, size, sub_groups;
};
// Where local item `local` of a work-group of `local_count` items sits.
placement place(std::size_t local, std::size_t local_count) {
    const std::size_t k = local / width;
    return {k, local % width, std::min(width, local_count - k * width), (local_count + width - 1) / width};
}

} // namespace

TEST_CASE("sub_group: the queries follow 32-item sub-groups in local linear order, in 1 and 2 dimensions") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    const auto sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
    REQUIRE(sizes.size() == 1);
    CHECK(sizes[0] == width);
    CHECK_FALSE(q.get_device().get_info<sycl::info::device::sub_group_independent_forward_progress>());

    for (std::size_t local : {std::size_t{96}, std::size_t{80}, std::size_t{1}, std::size_t{33}}) {
        CAPTURE(local);
        const std::size_t n = local * 3;
        auto* out = shared_array<std::size_t>(q, n * 6);
        q.parallel_for(sycl::nd_range<1>{n, local}, [=](sycl::nd_item<1> it) {
             const sycl::sub_group sg = it.get_sub_group();
             std::size_t* o = out + it.get_global_id(0) * 6;
             o[0] = sg.get_group_linear_id();
             o[1] = sg.get_local_linear_id();
             o[2] = sg.get_local_range()[0];
             o[3] = sg.get_group_range()[0];
             o[4] = sg.get_max_local_range()[0];
             o[5] = (sg.leader() ? 1 : 0) + (sg.get_group_id()[0] == sg.get_group_linear_id() ? 2 : 0);
         }).wait();
        for (std::size_t i = 0; i < n; ++i) {
            CAPTURE(i);
            const placement p = place(i % local, local);
            const std::size_t* o = out + i * 6;
            CHECK(o[0] == p.sub_group);
            CHECK(o[1] == p.lane);
            CHECK(o[2] == p.size);
            CHECK(o[3] == p.sub_groups);
            CHECK(o[4] == width);
            CHECK(o[5] == (p.lane == 0 ? 3u : 2u));
        }
        sycl::free(out, q);
    }

    // 2-D: local linear id = row * columns + column.
    const sycl::range<2> global{4, 48}, local{2, 24};
    auto* out = shared_array<std::size_t>(q, global.size() * 2);
    q.parallel_for(sycl::nd_range<2>{global, local}, [=](sycl::nd_item<2> it) {
         const sycl::sub_group sg = it.get_sub_group();
         out[it.get_global_linear_id() * 2] = sg.get_group_linear_id();
         out[it.get_global_linear_id() * 2 + 1] = sg.get_local_linear_id();
     }).wait();
    for (std::size_t r = 0; r < global[0]; ++r)
        for (std::size_t c = 0; c < global[1]; ++c) {
            CAPTURE(r);
            CAPTURE(c);
            const placement p = place((r % local[0]) * local[1] + c % local[1], local.size());
            CHECK(out[(r * global[1] + c) * 2] == p.sub_group);
            CHECK(out[(r * global[1] + c) * 2 + 1] == p.lane);
        }
    sycl::free(out, q);
}

TEST_CASE("sub_group: shuffles move values between the lanes of a sub-group, including a partial one") {
    sycl::queue q;
    constexpr std::size_t local = 80, n = local * 4, results = 8;
    auto* out = shared_array<long long>(q, n * results);
    auto* pairs = shared_array<double>(q, n * 2);
    q.parallel_for(sycl::nd_range<1>{n, local}, [=](sycl::nd_item<1> it) {
         const sycl::sub_group sg = it.get_sub_group();
         const std::size_t i = it.get_global_id(0);
         const long long x = static_cast<long long>(i) * 3 + 1;
         const auto lane = sg.get_local_linear_id();
         long long* o = out + i * results;
         o[0] = sycl::select_from_group(sg, x, (lane * 7 + 3) % sg.get_local_linear_range());
         o[1] = sycl::shift_group_left(sg, x, 5);
         o[2] = sycl::shift_group_right(sg, x, 3);
         o[3] = sycl::permute_group_by_xor(sg, x, 6);
         o[4] = sycl::group_broadcast(sg, x);
         o[5] = sycl::group_broadcast(sg, x, 2);
         o[6] = sg.shuffle_down(x, 1); // DPC++'s older spelling
         o[7] = sycl::shift_group_left(sg, x);
         // A value wider than 64 bits moves whole.
         struct wide {
             double a, b;
         };
         const wide w = sycl::select_from_group(sg, wide{static_cast<double>(i), -static_cast<double>(i)}, 0);
         pairs[i * 2] = w.a;
         pairs[i * 2 + 1] = w.b;
     }).wait();
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        const placement p = place(i % local, local);
        const std::size_t first = i - p.lane; // global id of lane 0
        auto x_of = [&](std::size_t lane) { return static_cast<long long>(first + lane) * 3 + 1; };
        auto or_own = [&](std::size_t lane) { return lane < p.size ? x_of(lane) : x_of(p.lane); };
        const long long* o = out + i * results;
        CHECK(o[0] == x_of((p.lane * 7 + 3) % p.size));
        CHECK(o[1] == or_own(p.lane + 5));
        CHECK(o[2] == (p.lane >= 3 ? x_of(p.lane - 3) : x_of(p.lane)));
        CHECK(o[3] == or_own(p.lane ^ 6));
        CHECK(o[4] == x_of(0));
        CHECK(o[5] == x_of(2));
        CHECK(o[6] == or_own(p.lane + 1));
        CHECK(o[7] == or_own(p.lane + 1));
        CHECK(pairs[i * 2] == static_cast<double>(first));
        CHECK(pairs[i * 2 + 1] == -static_cast<double>(first));
    }
    sycl::free(out, q);
    sycl::free(pairs, q);
}

TEST_CASE("sub_group: one sub-group's collectives and barriers do not wait for the rest of its work-group") {
    sycl::queue q;
    constexpr std::size_t local = 128, n = local * 2;
    auto* data = shared_array<int>(q, n);
    auto* out = shared_array<int>(q, n);
    q.parallel_for(sycl::nd_range<1>{n, local}, [=](sycl::nd_item<1> it) {
         const sycl::sub_group sg = it.get_sub_group();
         const std::size_t i = it.get_global_id(0);
         data[i] = static_cast<int>(i);
         // Only the odd sub-groups: write, sub-group barrier, read a neighbour's write, reduce.
         if (sg.get_group_linear_id() % 2 == 1) {
             sycl::group_barrier(sg);
             const std::size_t neighbour = i - sg.get_local_linear_id() + (sg.get_local_linear_id() + 1) % 32;
             out[i] = data[neighbour] + sycl::reduce_over_group(sg, 1, sycl::plus<int>());
         }
         sycl::group_barrier(it.get_group());
         // Then everyone: sub-group 0 sees what the others wrote before the work-group barrier.
         if (sg.get_group_linear_id() == 0) out[i] += sycl::reduce_over_group(sg, out[i + 32], sycl::maximum<int>());
     }).wait();
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        const std::size_t local_id = i % local, sg = local_id / 32, lane = local_id % 32;
        int expected = 0;
        if (sg % 2 == 1) expected = static_cast<int>(i - lane + (lane + 1) % 32) + 32;
        if (sg == 0) {
            int best = 0;
            for (std::size_t k = 0; k < 32; ++k) {
                const std::size_t j = i - lane + 32 + k; // sub-group 1 of the same group
                best = std::max(best, static_cast<int>(j - (j % local % 32) + ((j % local % 32) + 1) % 32) + 32);
            }
            expected += best;
        }
        CHECK(out[i] == expected);
    }
    sycl::free(data, q);
    sycl::free(out, q);
}

namespace {
struct sized_kernel_32 {
    int* out;
    void operator()(sycl::nd_item<1> it) const { out[it.get_global_id(0)] = static_cast<int>(it.get_sub_group().get_local_range()[0]); }
    auto get(sycl::ext::oneapi::experimental::properties_tag) const {
        return sycl::ext::oneapi::experimental::properties{sycl::ext::oneapi::experimental::sub_group_size<32>};
    }
};
struct sized_kernel_16 {
    int* out;
    void operator()(sycl::nd_item<1> it) const { out[it.get_global_id(0)] = 1; }
    auto get(sycl::ext::oneapi::experimental::properties_tag) const {
        return sycl::ext::oneapi::experimental::properties{sycl::ext::oneapi::experimental::sub_group_size<16>};
    }
};
} // namespace

TEST_CASE("sub_group: sub_group_size<32> runs; another size is refused with errc::kernel_not_supported") {
    sycl::queue q;
    auto* out = shared_array<int>(q, 64);
    q.parallel_for(sycl::nd_range<1>{64, 64}, sized_kernel_32{out}).wait();
    CHECK(std::all_of(out, out + 64, [](int v) { return v == 32; }));
    try {
        q.parallel_for(sycl::nd_range<1>{64, 64}, sized_kernel_16{out}).wait();
        FAIL("sub_group_size<16> was not refused");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::kernel_not_supported);
        CHECK(std::string(e.what()).find("sub-groups of 16") != std::string::npos);
    }
    sycl::free(out, q);
}

TEST_CASE("sub_group: on the native backend, a sub-group split between a collective and a work-group barrier is "
          "an error, not a hang") {
    sycl::queue q;
    if (q.get_device().get_backend() != sycl::backend::ext_oneapi_native_cpu) {
        MESSAGE("skipped on " << q.get_device().get_info<sycl::info::device::name>()
                              << ": a divergent collective is undefined behaviour on a GPU (it may hang); only the "
                                 "native backend promises to detect it");
        return;
    }
    auto* out = shared_array<int>(q, 64);
    std::string reported;
    sycl::queue checked{q.get_device(), [&](sycl::exception_list errors) {
                            for (const auto& e : errors) {
                                try {
                                    std::rethrow_exception(e);
                                } catch (const sycl::exception& x) {
                                    reported += x.what();
                                }
                            }
                        }};
    checked.parallel_for(sycl::nd_range<1>{64, 64}, [=](sycl::nd_item<1> it) {
        const sycl::sub_group sg = it.get_sub_group();
        if (sg.get_local_linear_id() < 16) out[it.get_global_id(0)] = sycl::reduce_over_group(sg, 1, sycl::plus<>());
        else sycl::group_barrier(it.get_group());
    });
    checked.wait_and_throw();
    CHECK(reported.find("16 of the 32 running work-items of sub-group 0 wait at a sub-group collective") !=
          std::string::npos);
    sycl::free(out, q);
}

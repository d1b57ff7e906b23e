// Range and nd_range launches on the native backend: every work-item exactly once, with consistent ids, in 1,
// 2 and 3 dimensions, with offsets, inline (small) and in parallel (large).
#include <doctest/doctest.h>

#include <atomic>

#include "runtime_support.hpp"

using namespace encore;
using namespace encore::testing;

namespace {
std::size_t linear(const std::array<std::size_t, 3>& id, const std::array<std::size_t, 3>& extent) {
    return (id[0] * extent[1] + id[1]) * extent[2] + id[2];
}

// Runs `range` and returns how often each global id (minus the offset) was visited; checks id consistency.
std::vector<int> visits(queue& q, const nd_range& r, std::atomic<int>& inconsistent) {
    const std::size_t count = r.global_count();
    auto counts = std::make_shared<std::vector<std::atomic<int>>>(count);
    auto k = make_kernel("visit", [counts, r, &inconsistent](const work_item& it) {
        std::array<std::size_t, 3> id;
        for (int d = 0; d < 3; ++d) {
            if (it.global_id[d] < r.offset[d] || it.global_id[d] >= r.offset[d] + r.global[d]) ++inconsistent;
            id[d] = it.global_id[d] - r.offset[d];
        }
        if (it.dimensions != r.dimensions || it.global_range != r.global || it.offset != r.offset)
            ++inconsistent;
        if (r.has_local_size()) {
            for (int d = 0; d < 3; ++d)
                if (it.global_id[d] != r.offset[d] + it.group_id[d] * r.local[d] + it.local_id[d] ||
                    it.local_range[d] != r.local[d] || it.group_range[d] != r.global[d] / r.local[d])
                    ++inconsistent;
        }
        (*counts)[linear(id, r.global)].fetch_add(1, std::memory_order_relaxed);
    });
    q.parallel_for(r, k).wait();
    q.wait_and_throw();
    std::vector<int> out;
    for (auto& c : *counts)
        out.push_back(c.load());
    return out;
}
} // namespace

TEST_CASE("every work-item of a range runs exactly once, in 1 to 3 dimensions") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        std::vector<nd_range> ranges{range(1),    range(63),       range(64),      range(100'003),
                                     range(7, 9), range(300, 301), range(3, 4, 5), range(40, 50, 60)};
        nd_range with_offset = range(10, 20);
        with_offset.offset = {5, 7, 0};
        ranges.push_back(with_offset);
        for (const auto& r : ranges) {
            INFO("dimensions " << r.dimensions << ", " << r.global[0] << "x" << r.global[1] << "x"
                               << r.global[2]);
            std::atomic<int> inconsistent{0};
            auto v = visits(q, r, inconsistent);
            CHECK(inconsistent.load() == 0);
            CHECK(std::all_of(v.begin(), v.end(), [](int c) { return c == 1; }));
        }
    }
}

TEST_CASE("every work-item of an nd_range runs exactly once, with consistent group and local ids") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        std::vector<nd_range> ranges{
            make_nd_range(1, {64, 1, 1}, {64, 1, 1}), make_nd_range(1, {4096, 1, 1}, {32, 1, 1}),
            make_nd_range(1, {1000, 1, 1}, {1, 1, 1}), make_nd_range(2, {64, 48, 1}, {8, 4, 1}),
            make_nd_range(3, {8, 12, 16}, {2, 3, 4})};
        nd_range with_offset = make_nd_range(2, {16, 16, 1}, {4, 4, 1});
        with_offset.offset = {100, 200, 0};
        ranges.push_back(with_offset);
        for (const auto& r : ranges) {
            INFO("dimensions " << r.dimensions << ", local " << r.local[0] << "x" << r.local[1] << "x"
                               << r.local[2]);
            std::atomic<int> inconsistent{0};
            auto v = visits(q, r, inconsistent);
            CHECK(inconsistent.load() == 0);
            CHECK(std::all_of(v.begin(), v.end(), [](int c) { return c == 1; }));
        }
    }
}

TEST_CASE("kernel arguments reach every work-item") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        usm_array<int> x(5000, d);
        q.submit(add_command(d, x.data(), 3, 5000)).wait();
        q.submit(add_command(d, x.data(), 4, 10)).wait();
        CHECK(x[0] == 7);
        CHECK(x[9] == 7);
        CHECK(x[10] == 3);
        CHECK(x[4999] == 3);
    }
}

TEST_CASE("kernels the native device cannot run are refused at submission") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        auto k = make_kernel("local", [](const work_item&) {});
        try {
            q.parallel_for(range(64), k, {kernel_argument::local(256)});
            FAIL("local memory in a range launch was accepted");
        } catch (const encore::error& e) {
            CHECK(e.code() == errc::invalid_argument);
        }
        const std::size_t too_many = d.properties().max_work_group_size * 2;
        CHECK_THROWS_AS(q.parallel_for(make_nd_range(1, {too_many, 1, 1}, {too_many, 1, 1}), k),
                        encore::error);
    }
}

// Found by the API fuzzer: work-groups of one item skipped the group runner, and with it the local memory block,
// so a kernel with a local memory argument read an empty list (a crash).
TEST_CASE("an nd_range whose work-groups hold one item gets each group its local memory") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        for (std::size_t groups : {std::size_t{1}, std::size_t{7}, std::size_t{3000}}) {
            CAPTURE(groups);
            auto out = std::make_shared<std::vector<std::uint32_t>>(groups, 0);
            auto k = make_kernel("one_item_groups", [out](const work_item& it, std::span<const kernel_argument> a) {
                if (it.local_memory.size() != 1) return; // out stays 0: the check below fails
                auto* local = reinterpret_cast<std::uint32_t*>(it.local_memory[0]);
                const auto elements = a[0].local_bytes / sizeof(std::uint32_t);
                for (std::size_t e = 0; e < elements; ++e)
                    local[e] = static_cast<std::uint32_t>(it.group_id[0] + e);
                (*out)[it.global_id[0]] = local[elements - 1];
            });
            q.parallel_for(make_nd_range(1, {groups, 1, 1}, {1, 1, 1}), k,
                           {kernel_argument::local(5 * sizeof(std::uint32_t))})
                .wait();
            q.wait_and_throw();
            for (std::size_t g = 0; g < groups; ++g)
                CHECK((*out)[g] == g + 4);
        }
    }
}

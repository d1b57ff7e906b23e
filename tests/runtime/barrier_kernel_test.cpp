// nd_range kernels whose work-items wait at the work-group barrier: they share local memory and see each
// other's writes after it, across several barriers, in 1 to 3 dimensions, eagerly and in replayed graphs.
#include <doctest/doctest.h>

#include <numeric>

#include "runtime_support.hpp"

using namespace encore;
using namespace encore::testing;

namespace {

// out[g] = in[g of the mirrored item in the same group]: each item writes local memory, waits, reads
// another's.
std::shared_ptr<const kernel> reverse_in_group() {
    return make_kernel("reverse_in_group", [](const work_item& it, std::span<const kernel_argument> args) {
        auto* in = static_cast<const int*>(args[0].pointer());
        auto* out = static_cast<int*>(args[1].pointer());
        auto* tile = reinterpret_cast<int*>(it.local_memory[0]);
        const std::size_t l = it.local_id[0], n = it.local_range[0];
        tile[l] = in[it.global_id[0]];
        it.barrier(it.group_state);
        out[it.global_id[0]] = tile[n - 1 - l];
    });
}

// Tree reduction in local memory: log2(n) barriers; item 0 writes the group's sum.
std::shared_ptr<const kernel> group_sum() {
    return make_kernel("group_sum", [](const work_item& it, std::span<const kernel_argument> args) {
        auto* in = static_cast<const int*>(args[0].pointer());
        auto* sums = static_cast<int*>(args[1].pointer());
        auto* scratch = reinterpret_cast<int*>(it.local_memory[0]);
        const std::size_t l = it.local_id[0];
        scratch[l] = in[it.global_id[0]];
        for (std::size_t stride = it.local_range[0] / 2; stride > 0; stride /= 2) {
            it.barrier(it.group_state);
            if (l < stride) scratch[l] += scratch[l + stride];
        }
        if (l == 0) sums[it.group_id[0]] = scratch[0];
    });
}

std::vector<kernel_argument> pointers(const void* a, const void* b, std::size_t local_bytes) {
    return {kernel_argument::from_pointer(a), kernel_argument::from_pointer(b),
            kernel_argument::local(local_bytes)};
}

} // namespace

TEST_CASE("items of a work-group exchange values through local memory across a barrier") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        for (std::size_t local : {2, 64, 1024}) {
            INFO("local size " << local);
            const std::size_t n = local * 8;
            usm_array<int> in(n, d), out(n, d);
            std::iota(in.data(), in.data() + n, 0);
            q.parallel_for(make_nd_range(1, {n, 1, 1}, {local, 1, 1}), reverse_in_group(),
                           pointers(in.data(), out.data(), local * sizeof(int)));
            q.wait_and_throw();
            bool all = true;
            for (std::size_t i = 0; i < n; ++i) {
                std::size_t group = i / local, l = i % local;
                all = all && out[i] == static_cast<int>(group * local + (local - 1 - l));
            }
            CHECK(all);
        }
    }
}

TEST_CASE("a reduction passes through log2(n) barriers") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        const std::size_t local = 256, groups = 40, n = local * groups;
        usm_array<int> in(n, d), sums(groups, d);
        for (std::size_t i = 0; i < n; ++i)
            in[i] = static_cast<int>(i % 97);
        q.parallel_for(make_nd_range(1, {n, 1, 1}, {local, 1, 1}), group_sum(),
                       pointers(in.data(), sums.data(), local * sizeof(int)));
        q.wait_and_throw();
        for (std::size_t g = 0; g < groups; ++g) {
            int expected = 0;
            for (std::size_t i = g * local; i < (g + 1) * local; ++i)
                expected += in[i];
            CHECK(sums[g] == expected);
        }
    }
}

TEST_CASE("barriers in 2-d and 3-d work-groups: a tile transpose and a neighbour exchange") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        // 2-d: each 8x8 tile is transposed through local memory.
        const std::size_t w = 32, h = 16;
        usm_array<int> in(w * h, d), out(w * h, d);
        std::iota(in.data(), in.data() + w * h, 0);
        auto transpose =
            make_kernel("tile_transpose", [w](const work_item& it, std::span<const kernel_argument> a) {
                auto* src = static_cast<const int*>(a[0].pointer());
                auto* dst = static_cast<int*>(a[1].pointer());
                auto* tile = reinterpret_cast<int*>(it.local_memory[0]);
                const std::size_t y = it.local_id[0], x = it.local_id[1];
                tile[y * 8 + x] = src[it.global_id[0] * w + it.global_id[1]];
                it.barrier(it.group_state);
                dst[it.global_id[0] * w + it.global_id[1]] = tile[x * 8 + y];
            });
        q.parallel_for(make_nd_range(2, {h, w, 1}, {8, 8, 1}), transpose,
                       pointers(in.data(), out.data(), 64 * sizeof(int)));
        q.wait_and_throw();
        bool all = true;
        for (std::size_t row = 0; row < h; ++row)
            for (std::size_t col = 0; col < w; ++col) {
                std::size_t ty = row % 8, tx = col % 8, base_row = row - ty, base_col = col - tx;
                all = all && out[row * w + col] == in[(base_row + tx) * w + base_col + ty];
            }
        CHECK(all);

        // 3-d: every item reads its successor's (linear, wrapping) value after the barrier, twice.
        const nd_range cube = make_nd_range(3, {4, 6, 8}, {2, 3, 4});
        usm_array<int> result(4 * 6 * 8, d);
        auto rotate = make_kernel("rotate", [](const work_item& it, std::span<const kernel_argument> a) {
            auto* res = static_cast<int*>(a[0].pointer());
            auto* slots = reinterpret_cast<int*>(it.local_memory[0]);
            const auto& lr = it.local_range;
            const std::size_t n = lr[0] * lr[1] * lr[2];
            const std::size_t me = (it.local_id[0] * lr[1] + it.local_id[1]) * lr[2] + it.local_id[2];
            slots[me] = static_cast<int>(me);
            for (int round = 0; round < 2; ++round) {
                it.barrier(it.group_state);
                int next = slots[(me + 1) % n];
                it.barrier(it.group_state);
                slots[me] = next;
            }
            it.barrier(it.group_state);
            const auto& g = it.global_id;
            res[(g[0] * 6 + g[1]) * 8 + g[2]] = slots[me];
        });
        q.parallel_for(
            cube, rotate,
            {kernel_argument::from_pointer(result.data()), kernel_argument::local(24 * sizeof(int))});
        q.wait_and_throw();
        bool rotated = true;
        for (std::size_t i = 0; i < 4 * 6 * 8; ++i) {
            std::size_t x = i / 48, y = (i / 8) % 6, z = i % 8;
            std::size_t me = ((x % 2) * 3 + y % 3) * 4 + z % 4;
            rotated = rotated && result[i] == static_cast<int>((me + 2) % 24);
        }
        CHECK(rotated);
    }
}

TEST_CASE("a barrier kernel replays correctly inside an executable graph") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        const std::size_t local = 128, n = local * 16;
        usm_array<int> a(n, d), b(n, d);
        std::iota(a.data(), a.data() + n, 0);
        graph g;
        auto there =
            g.add(kernel_command{reverse_in_group(), pointers(a.data(), b.data(), local * sizeof(int)),
                                 make_nd_range(1, {n, 1, 1}, {local, 1, 1})});
        g.add(kernel_command{reverse_in_group(), pointers(b.data(), a.data(), local * sizeof(int)),
                             make_nd_range(1, {n, 1, 1}, {local, 1, 1})},
              {there});
        executable_graph exec(g, d);
        queue q(d);
        for (int i = 0; i < 50; ++i)
            q.launch(exec);
        q.wait_and_throw();
        bool identity = true; // reversing twice per launch
        for (std::size_t i = 0; i < n; ++i)
            identity = identity && a[i] == static_cast<int>(i);
        CHECK(identity);
        CHECK(b[0] == static_cast<int>(local - 1));
    }
}

TEST_CASE("an item that throws cancels its group; the launch reports the exception") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        auto k = make_kernel("throws_before_barrier", [](const work_item& it) {
            if (it.local_id[0] == 5) throw std::runtime_error("item 5 gave up");
            it.barrier(it.group_state);
            it.barrier(it.group_state);
        });
        q.parallel_for(make_nd_range(1, {64, 1, 1}, {16, 1, 1}), k);
        CHECK_THROWS_WITH(q.wait_and_throw(), "item 5 gave up");
        // The runner is fine afterwards.
        const std::size_t n = 64;
        usm_array<int> in(n, d), out(n, d);
        std::iota(in.data(), in.data() + n, 0);
        q.parallel_for(make_nd_range(1, {n, 1, 1}, {16, 1, 1}), reverse_in_group(),
                       pointers(in.data(), out.data(), 16 * sizeof(int)));
        q.wait_and_throw();
        CHECK(out[0] == 15);
    }
}

TEST_CASE("barrier semantics at the edges") {
    for (const auto& d : devices_under_test()) {
        INFO(name_of(d));
        queue q(d);
        // Groups of one item: the barrier waits for nobody.
        std::atomic<int> passed{0};
        q.parallel_for(make_nd_range(1, {32, 1, 1}, {1, 1, 1}), [&](const work_item& it) {
            it.barrier(it.group_state);
            ++passed;
        });
        q.wait_and_throw();
        CHECK(passed.load() == 32);
        // A range launch has no work-groups: its barrier is an error, reported like any kernel exception.
        q.parallel_for(range(4), [](const work_item& it) { it.barrier(it.group_state); });
        try {
            q.wait_and_throw();
            FAIL("barrier in a range launch was accepted");
        } catch (const encore::error& e) {
            CHECK(e.code() == errc::invalid_argument);
        }
        // Items that return early count as arrived.
        std::atomic<int> late{0};
        q.parallel_for(make_nd_range(1, {8, 1, 1}, {8, 1, 1}), [&](const work_item& it) {
            if (it.local_id[0] % 2) return;
            it.barrier(it.group_state);
            ++late;
        });
        q.wait_and_throw();
        CHECK(late.load() == 4);
    }
}

// Kernels: parallel_for over 1-, 2- and 3-D ranges and nd_ranges, local_accessor and group barriers,
// single_task, kernel names, the nd_range errors, and kernel objects with set_arg(s). Ordinary SYCL code, except
// where the Encore extension that makes kernel objects (sycl::ext::encore::make_kernel) is under test.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <numeric>
#include <vector>

TEST_CASE("parallel_for over 1-, 2- and 3-D ranges visits every item once, with the right ids") {
    sycl::queue q;
    int* one = sycl::malloc_shared<int>(100, q);
    int* two = sycl::malloc_shared<int>(6 * 7, q);
    int* three = sycl::malloc_shared<int>(2 * 3 * 4, q);
    std::fill(one, one + 100, 0);
    std::fill(two, two + 42, 0);
    std::fill(three, three + 24, 0);
    q.parallel_for(sycl::range<1>{100}, [=](sycl::item<1> it) {
        one[it.get_linear_id()] += static_cast<int>(it.get_id(0)) + 1;
    });
    q.parallel_for(sycl::range<2>{6, 7}, [=](sycl::item<2> it) {
        // Row-major: the last dimension varies fastest.
        two[it.get_linear_id()] += static_cast<int>(it[0] * 7 + it[1]) + 1;
    });
    q.parallel_for(sycl::range<3>{2, 3, 4}, [=](sycl::id<3> i) {
        three[(i[0] * 3 + i[1]) * 4 + i[2]] += static_cast<int>(i[0] * 100 + i[1] * 10 + i[2]) + 1;
    });
    q.wait();
    bool ok = true;
    for (int i = 0; i < 100; ++i) ok = ok && one[i] == i + 1;
    for (int i = 0; i < 42; ++i) ok = ok && two[i] == i + 1;
    CHECK(ok);
    CHECK(three[23] == 124);
    CHECK(three[4] == 11);
    for (auto* p : {one, two, three}) sycl::free(p, q);
}

TEST_CASE("a 1-D kernel may take its index as a size_t; items report their range") {
    sycl::queue q;
    std::size_t* seen = sycl::malloc_shared<std::size_t>(8, q);
    std::size_t* range_seen = sycl::malloc_shared<std::size_t>(1, q);
    q.parallel_for(8, [=](sycl::item<1> it) {
        std::size_t i = it; // item<1> converts to size_t
        seen[i] = i * 2;
        if (i == 0) *range_seen = it.get_range(0) + it.get_range().size();
    });
    q.wait();
    CHECK(seen[7] == 14);
    CHECK(*range_seen == 16);
    sycl::free(seen, q);
    sycl::free(range_seen, q);
}

TEST_CASE("accessors are indexed with the kernel's item") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{10}};
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::write_only};
        h.parallel_for(sycl::range<1>{10}, [=](sycl::item<1> it) { a[it] = static_cast<int>(it.get_id(0)); });
    });
    sycl::buffer<int, 2> m{sycl::range<2>{3, 3}};
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{m, h, sycl::write_only};
        h.parallel_for(sycl::range<2>{3, 3}, [=](sycl::item<2> it) { a[it] = static_cast<int>(it.get_linear_id()); });
    });
    sycl::host_accessor r{b, sycl::read_only};
    CHECK(r[9] == 9);
    sycl::host_accessor rm{m, sycl::read_only};
    CHECK(rm[2][1] == 7);
}

TEST_CASE("single_task runs once") {
    sycl::queue q;
    int* counter = sycl::malloc_shared<int>(1, q);
    *counter = 0;
    q.submit([&](sycl::handler& h) { h.single_task([=] { ++*counter; }); });
    q.single_task<class named_single>([=] { ++*counter; });
    q.wait();
    CHECK(*counter == 2);
    sycl::free(counter, q);
}

class functor_kernel {
public:
    explicit functor_kernel(int* out) : out_(out) {}
    void operator()(sycl::id<1> i) const { out_[i] = 2 * static_cast<int>(i[0]); }

private:
    int* out_;
};

TEST_CASE("named kernels: a name as template argument, or a function object") {
    sycl::queue q;
    int* out = sycl::malloc_shared<int>(16, q);
    q.submit([&](sycl::handler& h) { h.parallel_for<class fill_with_index>(sycl::range<1>{16}, [=](sycl::id<1> i) { out[i] = static_cast<int>(i[0]); }); });
    q.wait();
    CHECK(out[15] == 15);
    q.parallel_for<class doubled>(sycl::range<1>{16}, functor_kernel(out)).wait();
    CHECK(out[15] == 30);
    q.parallel_for(sycl::nd_range<1>{16, 4}, [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = 1; }).wait();
    q.parallel_for<struct nd_named>(sycl::nd_range<1>{16, 4}, [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] += 1; }).wait();
    CHECK(out[3] == 2);
    sycl::free(out, q);
}

TEST_CASE("nd_item and group report their ids and ranges") {
    sycl::queue q;
    constexpr std::size_t gx = 8, gy = 6, lx = 4, ly = 3;
    struct record {
        std::size_t global_linear, local_linear, group_linear, group_range, local_range, group0, local1;
        bool leader;
    };
    record* r = sycl::malloc_shared<record>(gx * gy, q);
    q.parallel_for(sycl::nd_range<2>{{gx, gy}, {lx, ly}}, [=](sycl::nd_item<2> it) {
        auto g = it.get_group();
        r[it.get_global_linear_id()] = record{it.get_global_linear_id(), it.get_local_linear_id(),
                                              g.get_group_linear_id(), g.get_group_linear_range(),
                                              g.get_local_linear_range(), it.get_group(0), it.get_local_id(1),
                                              g.leader()};
    });
    q.wait();
    // Item (5, 4): group (1, 1) of 2x2 groups, local (1, 1) in 4x3.
    const record& x = r[5 * gy + 4];
    CHECK(x.global_linear == 5 * gy + 4);
    CHECK(x.local_linear == 1 * ly + 1);
    CHECK(x.group_linear == 1 * 2 + 1);
    CHECK(x.group_range == 4);
    CHECK(x.local_range == lx * ly);
    CHECK(x.group0 == 1);
    CHECK(x.local1 == 1);
    CHECK_FALSE(x.leader);
    CHECK(r[0].leader);
    CHECK(r[4 * gy + 3].leader); // the first item of group (1, 1)
    sycl::free(r, q);
}

TEST_CASE("nd_range with local_accessor and group_barrier: a work-group reverses its tile") {
    sycl::queue q;
    constexpr std::size_t n = 256, wg = 32;
    std::vector<int> in(n), out(n);
    std::iota(in.begin(), in.end(), 0);
    {
        sycl::buffer bin{in};
        sycl::buffer bout{out};
        q.submit([&](sycl::handler& h) {
            sycl::accessor src{bin, h, sycl::read_only};
            sycl::accessor dst{bout, h, sycl::write_only, sycl::no_init};
            sycl::local_accessor<int, 1> tile{sycl::range<1>{wg}, h};
            h.parallel_for(sycl::nd_range<1>{n, wg}, [=](sycl::nd_item<1> it) {
                const std::size_t l = it.get_local_id(0);
                tile[l] = src[it.get_global_id(0)];
                sycl::group_barrier(it.get_group());
                dst[it.get_global_id(0)] = tile[wg - 1 - l];
            });
        });
    }
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i) ok = ok && out[i] == static_cast<int>((i / wg) * wg + (wg - 1 - i % wg));
    CHECK(ok);
}

TEST_CASE("nd_item::barrier and 2-D local memory: a tree sum per work-group") {
    sycl::queue q;
    constexpr std::size_t groups = 4, wg = 64;
    int* data = sycl::malloc_shared<int>(groups * wg, q);
    int* sums = sycl::malloc_shared<int>(groups, q);
    for (std::size_t i = 0; i < groups * wg; ++i) data[i] = static_cast<int>(i % 7);
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<int, 2> scratch{sycl::range<2>{2, wg}, h};
        sycl::local_accessor<int> unused{sycl::range<1>{3}, h}; // two local allocations: indices must not mix
        h.parallel_for(sycl::nd_range<1>{groups * wg, wg}, [=](sycl::nd_item<1> it) {
            const std::size_t l = it.get_local_id(0);
            scratch[0][l] = data[it.get_global_id(0)];
            scratch[sycl::id<2>{1, l}] = -1;
            if (l < 3) unused[l] = 99;
            for (std::size_t stride = wg / 2; stride > 0; stride /= 2) {
                it.barrier(sycl::access::fence_space::local_space);
                if (l < stride) scratch[0][l] += scratch[0][l + stride];
            }
            if (l == 0) sums[it.get_group_linear_id()] = scratch[0][0] + (scratch[1][wg - 1] == -1 ? 0 : 1000);
        });
    });
    q.wait();
    for (std::size_t g = 0; g < groups; ++g) {
        int expected = 0;
        for (std::size_t i = g * wg; i < (g + 1) * wg; ++i) expected += static_cast<int>(i % 7);
        CHECK(sums[g] == expected);
    }
    sycl::free(data, q);
    sycl::free(sums, q);
}

TEST_CASE("a 3-D nd_range covers every item") {
    sycl::queue q;
    int* hits = sycl::malloc_shared<int>(4 * 4 * 4, q);
    std::fill(hits, hits + 64, 0);
    q.parallel_for(sycl::nd_range<3>{{4, 4, 4}, {2, 2, 4}}, [=](sycl::nd_item<3> it) {
        hits[it.get_global_linear_id()] += 1;
        sycl::group_barrier(it.get_group());
    }).wait();
    CHECK(std::all_of(hits, hits + 64, [](int h) { return h == 1; }));
    sycl::free(hits, q);
}

TEST_CASE("an empty range runs no work-item") {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(1, q);
    *p = 0;
    q.parallel_for(sycl::range<1>{0}, [=](sycl::id<1>) { *p = 1; }).wait();
    q.parallel_for(sycl::range<2>{3, 0}, [=](sycl::id<2>) { *p = 1; }).wait();
    CHECK(*p == 0);
    sycl::free(p, q);
}

TEST_CASE("nd_range errors: a local range that does not divide the global one, is zero, or is too large") {
    sycl::queue q;
    auto expect_nd_range_error = [&](auto r) {
        try {
            q.parallel_for(r, [=](auto) {});
            FAIL("the nd_range was accepted");
        } catch (const sycl::exception& e) {
            CHECK(e.code() == sycl::errc::nd_range);
        }
    };
    expect_nd_range_error(sycl::nd_range<1>{10, 4});
    expect_nd_range_error(sycl::nd_range<2>{{8, 9}, {4, 2}});
    expect_nd_range_error(sycl::nd_range<1>{8, 0});
    const auto limit = q.get_device().get_info<sycl::info::device::max_work_group_size>();
    expect_nd_range_error(sycl::nd_range<1>{2 * (limit + 1), limit + 1});
    expect_nd_range_error(sycl::nd_range<3>{{8, 8, 8}, {8, 8, 8 * limit}});
}

TEST_CASE("a local_accessor in a kernel that is not an nd_range kernel throws errc::kernel_argument") {
    sycl::queue q;
    try {
        q.submit([&](sycl::handler& h) {
            sycl::local_accessor<int> scratch{sycl::range<1>{4}, h};
            h.parallel_for(sycl::range<1>{4}, [=](sycl::id<1> i) { scratch[i] = 1; });
        });
        FAIL("a range kernel with local memory was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::kernel_argument);
    }
    try {
        q.submit([&](sycl::handler& h) {
            sycl::local_accessor<int> scratch{sycl::range<1>{4}, h};
            h.single_task([=] { scratch[0] = 1; });
        });
        FAIL("a single_task with local memory was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::kernel_argument);
    }
}

TEST_CASE("kernel objects take their arguments from set_arg and set_args") {
    // An engine kernel written in C++ for the native backend: out[i] = in[i] * factor, through local memory.
    auto engine = encore::make_kernel(
        "scale_through_local", [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
            const auto* in = static_cast<const float*>(args[0].pointer());
            auto* out = static_cast<float*>(args[1].pointer());
            const float factor = args[2].scalar<float>();
            auto* tile = reinterpret_cast<float*>(it.local_memory[0]);
            tile[it.local_id[0]] = in[it.global_id[0]] * factor;
            it.barrier(it.group_state);
            out[it.global_id[0]] = tile[it.local_id[0]];
        });
    sycl::kernel k = sycl::ext::encore::make_kernel(engine);
    CHECK(k.get_info<sycl::info::kernel::function_name>() == "scale_through_local");

    sycl::queue q;
    constexpr std::size_t n = 64;
    float* in = sycl::malloc_shared<float>(n, q);
    float* out = sycl::malloc_shared<float>(n, q);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<float>(i);
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<float> tile{sycl::range<1>{16}, h};
        h.set_args(in, out, 2.0f, tile);
        h.parallel_for(sycl::nd_range<1>{n, 16}, k);
    });
    q.wait();
    CHECK(out[63] == 126.0f);

    // set_arg by index, in any order; a buffer accessor passes its pointer and orders the group.
    sycl::buffer<float> result{sycl::range<1>{n}};
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<float> tile{sycl::range<1>{8}, h};
        sycl::accessor acc{result, h, sycl::write_only};
        h.set_arg(2, 0.5f);
        h.set_arg(3, tile);
        h.set_arg(0, in);
        h.set_arg(1, acc);
        h.parallel_for(sycl::nd_range<1>{n, 8}, k);
    });
    sycl::host_accessor r{result, sycl::read_only};
    CHECK(r[10] == 5.0f);

    auto single = sycl::ext::encore::make_kernel(encore::make_kernel(
        "store", [](const encore::work_item&, std::span<const encore::kernel_argument> args) {
            *static_cast<int*>(args[0].pointer()) = args[1].scalar<int>();
        }));
    int* cell = sycl::malloc_shared<int>(1, q);
    q.submit([&](sycl::handler& h) {
        h.set_args(cell, 77);
        h.single_task(single);
    });
    q.wait();
    CHECK(*cell == 77);
    q.submit([&](sycl::handler& h) {
        h.set_args(cell, 78);
        h.parallel_for(sycl::range<1>{1}, single);
    });
    q.wait();
    CHECK(*cell == 78);

    // An argument left unset, or a negative index, is errc::kernel_argument.
    try {
        q.submit([&](sycl::handler& h) {
            h.set_arg(1, 5);
            h.single_task(single);
        });
        FAIL("argument 0 was never set");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::kernel_argument);
    }
    try {
        q.submit([&](sycl::handler& h) { h.set_arg(-1, 5); });
        FAIL("a negative index was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::kernel_argument);
    }
    sycl::free(in, q);
    sycl::free(out, q);
    sycl::free(cell, q);
}

TEST_CASE("the deprecated range-with-offset parallel_for offsets the ids") {
    sycl::queue q;
    int* p = sycl::malloc_shared<int>(10, q);
    std::fill(p, p + 10, 0);
    q.submit([&](sycl::handler& h) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        h.parallel_for(sycl::range<1>{4}, sycl::id<1>{6}, [=](sycl::item<1> it) {
            p[it.get_id(0)] = static_cast<int>(it.get_linear_id()) + 1;
        });
#pragma GCC diagnostic pop
    });
    q.wait();
    CHECK(p[5] == 0);
    CHECK(p[6] == 1);
    CHECK(p[9] == 4);

    // Two dimensions, the second one item wide (the native backend runs such a range as one line of items): the
    // second id is that dimension's offset.
    std::fill(p, p + 10, -1);
    q.submit([&](sycl::handler& h) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        h.parallel_for(sycl::range<2>{4, 1}, sycl::id<2>{2, 5}, [=](sycl::item<2> it) {
            p[it.get_id(0)] = static_cast<int>(it.get_id(1));
        });
#pragma GCC diagnostic pop
    });
    q.wait();
    CHECK(p[1] == -1);
    for (int i = 2; i < 6; ++i) CHECK(p[i] == 5);
    CHECK(p[6] == -1);
    sycl::free(p, q);
}

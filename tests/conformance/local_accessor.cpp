// local_accessor (SYCL 2020 section 4.7.6.11): every way a kernel holds one finds its own work-group's array.
// Several accessors of other element types and dimensions in one kernel, accessors inside a captured struct and
// an array, an empty one, a const view, a functor's member, a kernel taking a kernel_handler, a kernel with a
// reduction, and a graph replayed twice. On CUDA each accessor is bound by the launch to its place in the
// block's shared memory (backends/gpu/gpu_kernel_launch.cpp): a wrong offset shows as one array overwriting
// another. One body built three ways (tests/conformance/meson.build, tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <vector>

#include <sycl/ext/oneapi/experimental/graph.hpp>
#include <sycl/sycl.hpp>

#include "shared_array.hpp"

namespace {
constexpr std::size_t group = 32;
constexpr std::size_t groups = 4;
constexpr std::size_t n = group * groups;

// What every case computes per item: its group's values, reversed within the group, through each array.
int reversed(std::size_t i) {
    const std::size_t g = i / group, l = i % group;
    return static_cast<int>(g * group + (group - 1 - l));
}

// A functor kernel holding its local memory as a member.
struct reverse_functor {
    int* out;
    sycl::local_accessor<int, 1> tile;
    void operator()(sycl::nd_item<1> it) const {
        const std::size_t l = it.get_local_id(0);
        tile[l] = static_cast<int>(it.get_global_id(0));
        sycl::group_barrier(it.get_group());
        out[it.get_global_id(0)] = tile[group - 1 - l];
    }
};

// Local accessors inside a captured struct: two, and an array of two.
struct tiles {
    sycl::local_accessor<int, 1> first;
    sycl::local_accessor<float, 1> pair[2];
};

constexpr sycl::specialization_id<int> shift{0};
} // namespace

TEST_CASE("several local accessors of other types and dimensions in one kernel do not overlap") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    int* out = shared_array<int>(q, n);
    double* sums = shared_array<double>(q, n);
    char* flags = shared_array<char>(q, groups);
    q.submit([&](sycl::handler& h) {
         sycl::local_accessor<char, 0> flag(h);                          // one byte: the next allocation is aligned
         sycl::local_accessor<int, 1> tile(sycl::range<1>{group}, h);
         sycl::local_accessor<double, 2> grid(sycl::range<2>{2, group}, h);
         sycl::local_accessor<short, 3> cube(sycl::range<3>{2, 2, group}, h);
         h.parallel_for(sycl::nd_range<1>{n, group}, [=](sycl::nd_item<1> it) {
             const std::size_t l = it.get_local_id(0);
             const std::size_t g = it.get_group(0);
             if (l == 0) flag = static_cast<char>('a' + g);
             tile[l] = static_cast<int>(it.get_global_id(0));
             grid[0][l] = 0.5 * static_cast<double>(l);
             grid[1][l] = static_cast<double>(g);
             cube[sycl::id<3>{1, 1, l}] = static_cast<short>(l + 7);
             sycl::group_barrier(it.get_group());
             const std::size_t r = group - 1 - l;
             out[it.get_global_id(0)] = tile[r] + (cube[1][1][r] - static_cast<int>(r) - 7);
             sums[it.get_global_id(0)] = grid[0][r] + grid[1][r];
             if (l == group - 1) flags[g] = flag;
         });
     }).wait_and_throw();
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t g = i / group, r = group - 1 - i % group;
        CHECK(out[i] == reversed(i));
        CHECK(sums[i] == doctest::Approx(0.5 * static_cast<double>(r) + static_cast<double>(g)));
    }
    for (std::size_t g = 0; g < groups; ++g) CHECK(flags[g] == static_cast<char>('a' + g));
    sycl::free(flags, q);
    sycl::free(sums, q);
    sycl::free(out, q);
}

TEST_CASE("local accessors in a captured struct and array, an empty one, and a const view") {
    sycl::queue q;
    int* out = shared_array<int>(q, n);
    float* halves = shared_array<float>(q, n);
    q.submit([&](sycl::handler& h) {
         tiles t{sycl::local_accessor<int, 1>(sycl::range<1>{group}, h),
                 {sycl::local_accessor<float, 1>(sycl::range<1>{group}, h),
                  sycl::local_accessor<float, 1>(sycl::range<1>{group}, h)}};
         sycl::local_accessor<int, 1> empty; // no memory: captured, never touched
         sycl::local_accessor<const int, 1> view = t.first;
         h.parallel_for(sycl::nd_range<1>{n, group}, [=](sycl::nd_item<1> it) {
             const std::size_t l = it.get_local_id(0);
             t.first[l] = static_cast<int>(it.get_global_id(0));
             t.pair[0][l] = static_cast<float>(l);
             t.pair[1][l] = 0.5f;
             sycl::group_barrier(it.get_group());
             const std::size_t r = group - 1 - l;
             out[it.get_global_id(0)] = view[r] + static_cast<int>(empty.size());
             halves[it.get_global_id(0)] = t.pair[0][r] * t.pair[1][l];
         });
     }).wait_and_throw();
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(out[i] == reversed(i));
        CHECK(halves[i] == doctest::Approx(0.5 * static_cast<double>(group - 1 - i % group)));
    }
    sycl::free(halves, q);
    sycl::free(out, q);
}

TEST_CASE("a functor's local accessor member, a kernel taking a kernel_handler") {
    sycl::queue q;
    int* out = shared_array<int>(q, n);
    q.submit([&](sycl::handler& h) {
         h.parallel_for(sycl::nd_range<1>{n, group}, reverse_functor{out, sycl::local_accessor<int, 1>(sycl::range<1>{group}, h)});
     }).wait_and_throw();
    for (std::size_t i = 0; i < n; ++i) CHECK(out[i] == reversed(i));

    q.submit([&](sycl::handler& h) {
         h.set_specialization_constant<shift>(1000);
         sycl::local_accessor<int, 1> tile(sycl::range<1>{group}, h);
         h.parallel_for(sycl::nd_range<1>{n, group}, [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
             const std::size_t l = it.get_local_id(0);
             tile[l] = static_cast<int>(it.get_global_id(0)) + kh.get_specialization_constant<shift>();
             sycl::group_barrier(it.get_group());
             out[it.get_global_id(0)] = tile[group - 1 - l];
         });
     }).wait_and_throw();
    for (std::size_t i = 0; i < n; ++i) CHECK(out[i] == reversed(i) + 1000);
    sycl::free(out, q);
}

// Apart from the others: encore++'s spir64 target does not build reductions yet.
TEST_CASE("a kernel with local accessors and a reduction" * doctest::test_suite("reduction")) {
    sycl::queue q;
    int* sum = shared_array<int>(q, 1);
    q.submit([&](sycl::handler& h) {
         sycl::local_accessor<int, 1> tile(sycl::range<1>{group}, h);
         h.parallel_for(sycl::nd_range<1>{n, group}, sycl::reduction(sum, sycl::plus<int>()),
                        [=](sycl::nd_item<1> it, auto& total) {
                            const std::size_t l = it.get_local_id(0);
                            tile[l] = static_cast<int>(it.get_global_id(0));
                            sycl::group_barrier(it.get_group());
                            total += tile[group - 1 - l] * static_cast<int>(l == 0);
                        });
     }).wait_and_throw();
    int expected = 0;
    for (std::size_t g = 0; g < groups; ++g) expected += reversed(g * group);
    CHECK(*sum == expected);
    sycl::free(sum, q);
}

TEST_CASE("a graph's kernel with local accessors, replayed twice") {
    namespace exp = sycl::ext::oneapi::experimental;
    sycl::queue q;
    int* out = shared_array<int>(q, n);
    exp::command_graph g(q.get_context(), q.get_device());
    g.add([&](sycl::handler& h) {
        sycl::local_accessor<int, 1> spare(sycl::range<1>{3}, h);
        sycl::local_accessor<int, 1> tile(sycl::range<1>{group}, h);
        h.parallel_for(sycl::nd_range<1>{n, group}, [=](sycl::nd_item<1> it) {
            const std::size_t l = it.get_local_id(0);
            if (l < 3) spare[l] = -1;
            tile[l] = static_cast<int>(it.get_global_id(0));
            sycl::group_barrier(it.get_group());
            out[it.get_global_id(0)] += tile[group - 1 - l] + (l < 3 ? spare[l] + 1 : 0);
        });
    });
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait_and_throw();
    q.ext_oneapi_graph(exec).wait_and_throw();
    for (std::size_t i = 0; i < n; ++i) CHECK(out[i] == 2 * reversed(i));
    sycl::free(out, q);
}

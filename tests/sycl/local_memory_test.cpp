// Work-group local memory beyond local accessors, as graph programs written for DPC++ use it:
// group_local_memory (sycl_ext_oneapi_local_memory), work_group_static (sycl_ext_oneapi_work_group_static), the
// launch's scratch memory (sycl_ext_oneapi_work_group_scratch_memory), and the multi_ptr these hand out. One body
// built three ways: by g++ (tests/sycl/meson.build), by encore++ for the native target and by encore++ for
// cuda:sm_90,native (tests/compiler/meson.build). The first two run on the native backend; the CUDA build's
// default queue is the GPU where there is one (run on an H100/H200 by hand), where the objects are __shared__
// memory of the entries encore-outliner wrote.
#include <doctest/doctest.h>

#include <cstddef>
#include <numeric>
#include <vector>

#include <sycl/sycl.hpp>

#include "../support/sycl_error.hpp"

namespace syclexp = sycl::ext::oneapi::experimental;
namespace syclext = sycl::ext::oneapi;
using encore::testing::require_sycl_error;

namespace {

constexpr std::size_t group_size = 32;
constexpr std::size_t groups = 64; // more groups than worker threads: groups run side by side
constexpr std::size_t items = group_size * groups;

// A namespace-scope work_group_static: one array per work-group.
syclexp::work_group_static<int[group_size]> shared_tile;

struct pair_sum {
    int a, b;
    pair_sum(int x, int y) : a(x), b(y) {}
};

struct usm_arrays {
    sycl::queue q;
    int* in;
    int* out;
    int* check;
    explicit usm_arrays(sycl::queue queue)
        : q(queue), in(sycl::malloc_shared<int>(items, q)), out(sycl::malloc_shared<int>(items, q)),
          check(sycl::malloc_shared<int>(items, q)) {
        std::iota(in, in + items, 1);
        std::fill(out, out + items, -1);
        std::fill(check, check + items, -1);
    }
    ~usm_arrays() {
        sycl::free(in, q);
        sycl::free(out, q);
        sycl::free(check, q);
    }
    usm_arrays(const usm_arrays&) = delete;
    usm_arrays& operator=(const usm_arrays&) = delete;

    // out[i] must be in[] of the same group read backwards; check[i] must be `expected`.
    void require_reversed(int expected) const {
        for (std::size_t i = 0; i < items; ++i) {
            const std::size_t base = i / group_size * group_size, l = i % group_size;
            REQUIRE(out[i] == in[base + group_size - 1 - l]);
            REQUIRE(check[i] == expected);
        }
    }
};

} // namespace

TEST_CASE("group_local_memory: one object per work-group and per call site, constructed before any item reads it") {
    usm_arrays a{sycl::queue{}};
    MESSAGE("device: " << a.q.get_device().get_info<sycl::info::device::name>());
    int* in = a.in;
    int* out = a.out;
    int* check = a.check;
    for (int launch = 0; launch < 2; ++launch) { // the second launch finds the first one's values: constructed again
        std::fill(out, out + items, -1);
        a.q.parallel_for(sycl::nd_range<1>{items, group_size}, [=](sycl::nd_item<1> it) {
             const auto g = it.get_group();
             auto start = syclext::group_local_memory<int>(g, 100);
             auto tile = syclext::group_local_memory<int[group_size]>(g);
             auto pair = syclext::group_local_memory<pair_sum>(g, 3, 4);
             auto four = syclext::group_local_memory<int[4]>(g, 1, 2, 3, 4);
             const std::size_t l = it.get_local_id(0), i = it.get_global_id(0);
             // Every item sees the constructed values, and each call site has its own object.
             const bool constructed = *start == 100 && (*tile)[l] == 0 && pair->a + pair->b == 7 &&
                                      (*four)[0] + (*four)[3] == 5;
             const bool distinct = static_cast<void*>(start.get()) != static_cast<void*>(tile.get()) &&
                                   static_cast<void*>(pair.get()) != static_cast<void*>(four.get());
             sycl::group_barrier(g);
             (*tile)[l] = in[i];
             if (l == 0) *start += 1;
             sycl::group_barrier(g);
             out[i] = (*tile)[group_size - 1 - l];
             check[i] = constructed && distinct ? *start : -2;
         }).wait();
        a.require_reversed(101);
    }
}

TEST_CASE("group_local_memory_for_overwrite: the work-group's object, left as it is") {
    usm_arrays a{sycl::queue{}};
    int* in = a.in;
    int* out = a.out;
    int* check = a.check;
    a.q.parallel_for(sycl::nd_range<1>{items, group_size}, [=](sycl::nd_item<1> it) {
         const auto g = it.get_group();
         sycl::multi_ptr<int[group_size], sycl::access::address_space::local_space> tile =
             syclext::group_local_memory_for_overwrite<int[group_size]>(g);
         auto total = syclext::group_local_memory_for_overwrite<int>(g);
         const std::size_t l = it.get_local_id(0), i = it.get_global_id(0);
         (*tile)[l] = in[i];
         sycl::group_barrier(g);
         if (l == 0) {
             int sum = 0;
             for (std::size_t k = 0; k < group_size; ++k)
                 sum += (*tile)[k];
             *total = sum;
         }
         sycl::group_barrier(g);
         out[i] = (*tile)[group_size - 1 - l];
         const int first = static_cast<int>(i - l) + 1; // in[] holds 1, 2, ...
         check[i] = *total == static_cast<int>(group_size) * first + static_cast<int>(group_size * (group_size - 1) / 2)
                        ? 1
                        : 0;
     }).wait();
    a.require_reversed(1);
}

TEST_CASE("work_group_static: at namespace scope and static in the kernel, one object per work-group") {
    usm_arrays a{sycl::queue{}};
    int* in = a.in;
    int* out = a.out;
    int* check = a.check;
    a.q.parallel_for(sycl::nd_range<1>{items, group_size}, [=](sycl::nd_item<1> it) {
         static syclexp::work_group_static<int> leader_seen;
         const std::size_t l = it.get_local_id(0), i = it.get_global_id(0);
         if (l == 0) leader_seen = static_cast<int>(it.get_group(0));
         shared_tile[l] = in[i];
         sycl::group_barrier(it.get_group());
         out[i] = shared_tile[group_size - 1 - l];
         int* through_address = &leader_seen;
         check[i] = *through_address == static_cast<int>(it.get_group(0)) ? 1 : 0;
     }).wait();
    a.require_reversed(1);
}

TEST_CASE("work_group_scratch_memory: the launch's scratch, beside its local accessors, in queues and graphs") {
    usm_arrays a{sycl::queue{}};
    int* in = a.in;
    int* out = a.out;
    int* check = a.check;
    syclexp::launch_config config{sycl::nd_range<1>{items, group_size},
                                  syclexp::properties{syclexp::work_group_scratch_size{group_size * sizeof(int)}}};

    SUBCASE("nd_launch on a queue") {
        syclexp::nd_launch(a.q, config, [=](sycl::nd_item<1> it) {
            int* tile = static_cast<int*>(syclexp::get_work_group_scratch_memory());
            const std::size_t l = it.get_local_id(0), i = it.get_global_id(0);
            tile[l] = in[i];
            sycl::group_barrier(it.get_group());
            out[i] = tile[group_size - 1 - l];
            check[i] = tile == syclexp::get_work_group_scratch_memory() ? 1 : 0;
        });
        a.q.wait();
        a.require_reversed(1);
    }
    SUBCASE("with a local_accessor in the same command group: separate memory") {
        a.q.submit([&](sycl::handler& h) {
            sycl::local_accessor<int, 1> copy(sycl::range<1>{group_size}, h);
            syclexp::nd_launch(h, config, [=](sycl::nd_item<1> it) {
                int* tile = static_cast<int*>(syclexp::get_work_group_scratch_memory());
                const std::size_t l = it.get_local_id(0), i = it.get_global_id(0);
                tile[l] = in[i];
                copy[l] = -1;
                sycl::group_barrier(it.get_group());
                out[i] = tile[group_size - 1 - l];
                auto local = copy.get_multi_ptr<sycl::access::decorated::no>();
                check[i] = local.get() != tile && local[l] == -1 ? 1 : 0;
            });
        });
        a.q.wait();
        a.require_reversed(1);
    }
    SUBCASE("a graph node, replayed") {
        syclexp::command_graph graph{a.q.get_context(), a.q.get_device()};
        graph.add([&](sycl::handler& h) {
            syclexp::nd_launch(h, config, [=](sycl::nd_item<1> it) {
                int* tile = static_cast<int*>(syclexp::get_work_group_scratch_memory());
                const std::size_t l = it.get_local_id(0), i = it.get_global_id(0);
                tile[l] = in[i];
                sycl::group_barrier(it.get_group());
                out[i] = tile[group_size - 1 - l];
                check[i] = 1;
            });
        });
        auto exec = graph.finalize();
        for (int replay = 0; replay < 3; ++replay) {
            std::fill(out, out + items, -1);
            a.q.ext_oneapi_graph(exec).wait();
            a.require_reversed(1);
        }
    }
    SUBCASE("more than the device's local memory: errc::memory_allocation at the launch") {
        const auto limit = a.q.get_device().get_info<sycl::info::device::local_mem_size>();
        syclexp::launch_config too_big{sycl::nd_range<1>{items, group_size},
                                       syclexp::properties{syclexp::work_group_scratch_size{limit + 1}}};
        require_sycl_error(
            [&] {
                syclexp::nd_launch(a.q, too_big, [=](sycl::nd_item<1> it) {
                    static_cast<int*>(syclexp::get_work_group_scratch_memory())[it.get_local_id(0)] = 0;
                });
            },
            sycl::errc::memory_allocation, "bytes of work-group local memory (local accessors, work-group memory and scratch)");
    }
}

TEST_CASE("multi_ptr: the pointers of accessors and local accessors, arithmetic and conversions") {
    using local_int = sycl::local_ptr<int, sycl::access::decorated::no>;
    static_assert(std::is_same_v<local_int::value_type, int>);
    static_assert(local_int::address_space == sycl::access::address_space::local_space);
    static_assert(!local_int::is_decorated && sycl::decorated_global_ptr<int>::is_decorated);
    static_assert(std::is_convertible_v<sycl::raw_global_ptr<int>,
                                        sycl::multi_ptr<const int, sycl::access::address_space::generic_space,
                                                        sycl::access::decorated::no>>);
    static_assert(!std::is_convertible_v<sycl::raw_local_ptr<int>, sycl::raw_global_ptr<int>>);

    std::vector<int> host(items);
    std::iota(host.begin(), host.end(), 0);
    sycl::queue q;
    {
        sycl::buffer<int> data{host.data(), sycl::range<1>{items}};
        q.submit([&](sycl::handler& h) {
            sycl::accessor values{data, h, sycl::read_write};
            sycl::local_accessor<int, 1> tile(sycl::range<1>{group_size}, h);
            h.parallel_for(sycl::nd_range<1>{items, group_size}, [=](sycl::nd_item<1> it) {
                auto global = values.get_multi_ptr<sycl::access::decorated::no>();
                sycl::local_ptr<int, sycl::access::decorated::no> local = tile.get_multi_ptr<sycl::access::decorated::no>();
                const std::size_t l = it.get_local_id(0), i = it.get_global_id(0);
                *(local + l) = global[i];
                sycl::group_barrier(it.get_group());
                auto last = local + (group_size - 1);
                auto mirrored = last - l;
                const bool ordered = local <= mirrored && mirrored - local == static_cast<std::ptrdiff_t>(group_size - 1 - l);
                auto cast = sycl::address_space_cast<sycl::access::address_space::global_space,
                                                     sycl::access::decorated::no>(&values[i]);
                const int value = *mirrored;
                sycl::group_barrier(it.get_group());
                cast[0] = ordered && cast == global + i ? value : -1;
            });
        });
    }
    for (std::size_t i = 0; i < items; ++i) {
        const std::size_t base = i / group_size * group_size, l = i % group_size;
        REQUIRE(host[i] == static_cast<int>(base + group_size - 1 - l));
    }
}

// Graph-owned memory allocations (sycl_ext_oneapi_graph with sycl_ext_oneapi_async_memory_alloc):
// async_malloc and async_free in explicitly added and recorded command groups, node types,
// get_required_mem_size, zero_init pools, the memory's lifetime, and the restrictions (free of foreign
// memory, double free, one live executable graph, no sub-graph use, no whole-graph update).
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "../../support/sycl_error.hpp"
#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

namespace syclex = sycl::ext::oneapi::experimental;

using encore::testing::require_sycl_error;
using encore::testing::test_memory;
using encore::testing::test_memory_kind;
using namespace encore::testing::sycl_kernels;

namespace {
ENCORE_SYCL_TEST_KERNEL(bump_and_scale, (int* a, int* b), {
    a[i] += 1;
    b[i] = a[i] * 10;
});
} // namespace

TEST_CASE(
    "graph-owned allocations, explicit API: the pointer is valid at once, the memory lives with the graph") {
    sycl::queue q{sycl::property::queue::in_order{}};
    syclex::command_graph g{q};
    const std::size_t n = 512;
    int* p = nullptr;
    auto alloc = g.add([&](sycl::handler& h) {
        p = static_cast<int*>(syclex::async_malloc(h, sycl::usm::alloc::device, n * sizeof(int)));
    });
    REQUIRE(p != nullptr);
    CHECK(alloc.get_type() == syclex::node_type::async_malloc);
    auto fill =
        g.add([&](sycl::handler& h) { h.fill(p, 3, n); }, {syclex::property::node::depends_on(alloc)});
    auto twice =
        g.add([&](sycl::handler& h) { multiply_by.parallel_for(h, sycl::range<1>{n}, p, 2); },
              {syclex::property::node::depends_on(fill)});
    test_memory<int> out_memory(q, n);
    int* out = out_memory.get();
    auto copy = g.add([&](sycl::handler& h) { h.memcpy(out, p, n * sizeof(int)); },
                      {syclex::property::node::depends_on(twice)});
    auto freed = g.add([&](sycl::handler& h) { syclex::async_free(h, p); },
                       {syclex::property::node::depends_on(copy)});
    CHECK(freed.get_type() == syclex::node_type::async_free);

    {
        auto exec = g.finalize();
        CHECK(exec.get_required_mem_size() == n * sizeof(int));
        for (int run = 0; run < 3; ++run)
            q.ext_oneapi_graph(exec);
        q.wait_and_throw();
        const auto first = out_memory.read();
        for (std::size_t i = 0; i < n; ++i)
            REQUIRE(first[i] == 6);
        // One live executable graph owns the allocations.
        require_sycl_error([&] { g.finalize(); }, sycl::errc::invalid);
    }
    auto again = g.finalize(); // the first one is gone
    out_memory.fill(0);
    q.ext_oneapi_graph(again).wait_and_throw();
    const auto second = out_memory.read();
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(second[i] == 6);
    // Not eager memory: an eager async_free of it is refused.
    require_sycl_error([&] { syclex::async_free(q, p); }, sycl::errc::invalid);
}

TEST_CASE("graph-owned allocations, recorded: queue and handler forms, zero_init pools, memory back with the "
          "graph") {
    sycl::queue q{sycl::property::queue::in_order{}};
    syclex::memory_pool pool(q, sycl::usm::alloc::device, syclex::properties{syclex::zero_init{}});
    const std::size_t n = 256;
    test_memory<int> out_memory(q, n);
    int* out = out_memory.get();
    {
        syclex::command_graph g{q};
        g.begin_recording(q);
        int* a = static_cast<int*>(
            syclex::async_malloc_from_pool(q, n * sizeof(int), pool)); // zeroed at every run
        int* b = static_cast<int*>(syclex::async_malloc(q, test_memory_kind(q.get_device()), n * sizeof(int)));
        bump_and_scale.parallel_for(q, sycl::range<1>{n}, {}, a, b);
        q.memcpy(out, b, n * sizeof(int));
        syclex::async_free(q, a);
        syclex::async_free(q, b);
        g.end_recording();
        CHECK(pool.get_used_size_current() == n * sizeof(int)); // the pool's memory, in use by the graph
        const auto nodes = g.get_nodes();
        REQUIRE(nodes.size() == 6);
        CHECK(nodes[0].get_type() == syclex::node_type::async_malloc);
        CHECK(nodes[1].get_type() == syclex::node_type::async_malloc);
        CHECK(nodes[4].get_type() == syclex::node_type::async_free);
        auto exec = g.finalize();
        CHECK(exec.get_required_mem_size() == 2 * n * sizeof(int));
        for (int run = 0; run < 3; ++run)
            q.ext_oneapi_graph(exec);
        q.wait_and_throw();
        const auto seen = out_memory.read();
        for (std::size_t i = 0; i < n; ++i)
            REQUIRE(seen[i] == 10); // a is zeroed at each run, so not 30
    }
    CHECK(pool.get_used_size_current() == 0); // back to the pool with the graph
}

TEST_CASE("graph-owned allocations: what is refused, leaving the graph as it was") {
    sycl::queue q{sycl::property::queue::in_order{}};
    syclex::command_graph g{q};
    int* plain = sycl::malloc_device<int>(8, q);
    require_sycl_error([&] { g.add([&](sycl::handler& h) { syclex::async_free(h, plain); }); },
                  sycl::errc::invalid);
    void* p = nullptr;
    auto alloc = g.add([&](sycl::handler& h) { p = syclex::async_malloc(h, sycl::usm::alloc::device, 64); });
    auto free1 = g.add([&](sycl::handler& h) { syclex::async_free(h, p); },
                       {syclex::property::node::depends_on(alloc)});
    require_sycl_error(
        [&] {
            g.add([&](sycl::handler& h) { syclex::async_free(h, p); },
                  {syclex::property::node::depends_on(free1)});
        },
        sycl::errc::invalid); // freed twice
    CHECK(g.get_nodes().size() == 2);

    auto exec = g.finalize({syclex::property::graph::updatable{}});
    syclex::command_graph parent{q};
    require_sycl_error([&] { parent.add([&](sycl::handler& h) { h.ext_oneapi_graph(exec); }); },
                  sycl::errc::invalid);
    syclex::command_graph same_shape{q};
    void* p2 = nullptr;
    auto alloc2 =
        same_shape.add([&](sycl::handler& h) { p2 = syclex::async_malloc(h, sycl::usm::alloc::device, 64); });
    same_shape.add([&](sycl::handler& h) { syclex::async_free(h, p2); },
                   {syclex::property::node::depends_on(alloc2)});
    require_sycl_error([&] { exec.update(same_shape); }, sycl::errc::invalid);
    q.ext_oneapi_graph(exec).wait_and_throw(); // still runs
    sycl::free(plain, q);
}

TEST_CASE("an executable graph destroyed while its launch runs: the launch finishes, its memory outlives it") {
    // The graph's own allocation and a buffer the program destroyed before the launch are used by the launch after
    // the executable graph is gone: both must outlive the launch (ASan sees a use after free otherwise).
    sycl::queue q{sycl::property::queue::in_order{}};
    const std::size_t n = 1024;
    std::atomic<bool> release{false};
    test_memory<int> out_memory(q, n), out_buffer_memory(q, n);
    int *out = out_memory.get(), *out_buffer = out_buffer_memory.get();
    sycl::event launch;
    std::thread releaser;
    {
        syclex::command_graph g{q};
        g.begin_recording(q);
        auto* p = static_cast<int*>(syclex::async_malloc(q, test_memory_kind(q.get_device()), n * sizeof(int)));
        q.submit([&](sycl::handler& h) {
            h.host_task([&release] {
                while (!release.load()) std::this_thread::yield();
            });
        });
        index_times.parallel_for(q, sycl::range<1>{n}, {}, p, 1);
        q.memcpy(out, p, n * sizeof(int));
        syclex::async_free(q, p);
        {
            sycl::buffer<int> b{sycl::range<1>{n}};
            q.submit([&](sycl::handler& h) {
                sycl::accessor acc{b, h, sycl::write_only};
                index_times.parallel_for(h, sycl::range<1>{n}, acc, 2);
            });
            q.submit([&](sycl::handler& h) {
                sycl::accessor acc{b, h, sycl::read_only};
                h.copy(acc, out_buffer);
            });
        } // the program's buffer is gone before any launch: the graph keeps its storage
        g.end_recording();
        auto exec = g.finalize();
        launch = q.ext_oneapi_graph(exec);
        releaser = std::thread([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            release = true;
        });
    } // the graph and the executable graph go while the launch waits for the host task
    launch.wait_and_throw();
    releaser.join();
    q.wait_and_throw();
    const auto from_allocation = out_memory.read(), from_buffer = out_buffer_memory.read();
    for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(from_allocation[i] == static_cast<int>(i));
        REQUIRE(from_buffer[i] == 2 * static_cast<int>(i));
    }
}

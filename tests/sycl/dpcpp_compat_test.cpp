// SYCL code written for DPC++ compiles and runs against Encore unchanged: DPC++'s header paths, its vendor
// properties on queues, buffers, accessors and contexts, reductions with the standard library's transparent
// operators, and errors of kernels and host tasks reaching the async handler. Written as DPC++ users write it.
#include <sycl/access/access.hpp>
#include <sycl/aspects.hpp>
#include <sycl/backend_types.hpp>
#include <sycl/context.hpp>
#include <sycl/detail/core.hpp>
#include <sycl/detail/host_task_impl.hpp>
#include <sycl/device_selector.hpp>
#include <sycl/exception_list.hpp>
#include <sycl/ext/oneapi/experimental/graph.hpp>
#include <sycl/ext/oneapi/experimental/graph/command_graph.hpp>
#include <sycl/ext/oneapi/experimental/graph/dynamic.hpp>
#include <sycl/ext/oneapi/experimental/graph/executable_graph.hpp>
#include <sycl/ext/oneapi/experimental/graph/graph_common.hpp>
#include <sycl/ext/oneapi/experimental/graph/modifiable_graph.hpp>
#include <sycl/ext/oneapi/experimental/graph/node.hpp>
#include <sycl/group.hpp>
#include <sycl/group_barrier.hpp>
#include <sycl/h_item.hpp>
#include <sycl/id.hpp>
#include <sycl/info/info_desc.hpp>
#include <sycl/interop_handle.hpp>
#include <sycl/nd_item.hpp>
#include <sycl/nd_range.hpp>
#include <sycl/platform.hpp>
#include <sycl/properties/accessor_properties.hpp>
#include <sycl/properties/all_properties.hpp>
#include <sycl/properties/buffer_properties.hpp>
#include <sycl/properties/context_properties.hpp>
#include <sycl/properties/queue_properties.hpp>
#include <sycl/properties/reduction_properties.hpp>
#include <sycl/sycl.hpp>
#include <sycl/usm.hpp>
#include <sycl/usm/usm_allocator.hpp>
#include <sycl/usm/usm_enums.hpp>

#include <doctest/doctest.h>

#include "encore/runtime/kernel_function.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/sycl_host_usm.hpp"
#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

namespace exp_ext = sycl::ext::oneapi::experimental;
using namespace encore::testing::sycl_kernels;
using encore::testing::test_memory;

namespace {
ENCORE_SYCL_TEST_KERNEL(copy_of, (int* out, const int* in), { out[i] = in[i]; });
} // namespace

TEST_CASE("DPC++'s vendor queue properties are accepted, and the queue works as without them") {
    sycl::queue in_order_immediate{sycl::property_list{sycl::property::queue::in_order{},
                                                       sycl::ext::intel::property::queue::no_immediate_command_list{}}};
    sycl::queue discarding{sycl::property_list{sycl::ext::oneapi::property::queue::discard_events{},
                                               sycl::ext::oneapi::property::queue::priority_high{}}};
    sycl::queue others{sycl::property_list{sycl::ext::intel::property::queue::immediate_command_list{},
                                           sycl::ext::oneapi::property::queue::priority_low{},
                                           sycl::ext::oneapi::property::queue::priority_normal{},
                                           sycl::ext::intel::property::queue::compute_index{2},
                                           sycl::ext::oneapi::cuda::property::queue::use_default_stream{},
                                           sycl::property::queue::enable_profiling{}}};
    CHECK(in_order_immediate.is_in_order());
    CHECK(in_order_immediate.has_property<sycl::ext::intel::property::queue::no_immediate_command_list>());
    CHECK(others.get_property<sycl::ext::intel::property::queue::compute_index>().get_index() == 2);
    CHECK(others.has_property<sycl::property::queue::cuda::use_default_stream>()); // the deprecated alias
    for (sycl::queue* q : {&in_order_immediate, &discarding, &others}) {
        test_memory<int> memory(*q, 16);
        int* x = memory.get();
        q->fill(x, 1, 16).wait();
        add_index.parallel_for(*q, sycl::range<1>{16}, {}, x).wait();
        const auto seen = memory.read();
        for (int i = 0; i < 16; ++i) CHECK(seen[i] == 1 + i);
        if (q == &discarding) // events of a discard_events queue stay usable (a superset of what it promises)
            set_to.single_task(*q, {}, x, 0).wait();
    }
}

TEST_CASE("a graph recorded from a queue with vendor properties replays like any other") {
    sycl::queue q{sycl::property_list{sycl::property::queue::in_order{},
                                      sycl::ext::intel::property::queue::no_immediate_command_list{},
                                      sycl::ext::oneapi::property::queue::discard_events{}}};
    exp_ext::command_graph g{q.get_context(), q.get_device()};
    test_memory<int> memory(q, 4);
    int* x = memory.get();
    memory.fill(0);
    g.begin_recording(q);
    add_to.parallel_for(q, sycl::range<1>{4}, {}, x, 1);
    multiply_by.parallel_for(q, sycl::range<1>{4}, {}, x, 3);
    g.end_recording(q);
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec);
    q.ext_oneapi_graph(exec);
    q.wait();
    CHECK(memory.read()[3] == 12); // (0 + 1) * 3, then (3 + 1) * 3
}

TEST_CASE("buffer, accessor and context properties DPC++ programs pass") {
    sycl::queue q;
    std::mutex m;
    std::vector<int> host(8, 1);
    {
        sycl::buffer<int> b{host.data(), sycl::range<1>{8},
                            sycl::property_list{sycl::property::buffer::use_mutex{m},
                                                sycl::ext::oneapi::property::buffer::use_pinned_host_memory{},
                                                sycl::property::buffer::context_bound{q.get_context()}}};
        CHECK(b.get_property<sycl::property::buffer::use_mutex>().get_mutex_ptr() == &m);
        CHECK(b.get_property<sycl::property::buffer::context_bound>().get_context() == q.get_context());
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::read_write, sycl::property_list{sycl::ext::oneapi::no_offset, sycl::ext::oneapi::no_alias}};
            multiply_by.parallel_for(h, sycl::range<1>{8}, a, 5);
        });
        std::lock_guard lock(m); // the write-back below takes this mutex: it waits until this scope ends
    }
    std::lock_guard lock(m);
    CHECK(host == std::vector<int>(8, 5));
    sycl::context primary{q.get_device(), {}, sycl::property_list{sycl::ext::oneapi::cuda::property::context::use_primary_context{}}};
    CHECK(primary.get_devices().size() == 1);
}

namespace {
template <typename T, typename Op> T reduce_with(sycl::queue& q, const std::vector<T>& values, T identity, Op op, T start) {
    T* result = sycl::malloc_shared<T>(1, q);
    const T* data = values.data();
    *result = start;
    q.parallel_for(sycl::range<1>{values.size()}, sycl::reduction(result, identity, op),
                   [=](sycl::id<1> i, auto& r) { r.combine(data[i]); })
        .wait();
    T out = *result;
    sycl::free(result, q);
    return out;
}
} // namespace

// Reductions are launched by SYCL lambda kernels: reduction.
TEST_CASE("reductions with the standard library's operators and transparent SYCL operators give += and friends"
          * doctest::test_suite("reduction")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    constexpr std::size_t n = 1000;
    float* sum = sycl::malloc_shared<float>(1, q);
    float* sum_std = sycl::malloc_shared<float>(1, q);
    int* product = sycl::malloc_shared<int>(1, q);
    unsigned* ones = sycl::malloc_shared<unsigned>(1, q);
    unsigned* both = sycl::malloc_shared<unsigned>(1, q);
    unsigned* flips = sycl::malloc_shared<unsigned>(1, q);
    *sum = 0.0f;
    *sum_std = 0.0f;
    *product = 1;
    *ones = 0;
    *both = ~0u;
    *flips = 0;
    // As DPC++ users write them: CTAD'd std::plus() (std::plus<void>), std::plus<float>, sycl::plus<>, ...
    q.parallel_for(sycl::range<1>{n}, sycl::reduction(sum, 0.0f, std::plus()), sycl::reduction(sum_std, std::plus<float>()),
                   sycl::reduction(product, 1, std::multiplies<>()), sycl::reduction(ones, std::bit_or<>()),
                   sycl::reduction(both, std::bit_and<unsigned>()), sycl::reduction(flips, 0u, std::bit_xor()),
                   [=](sycl::id<1> i, auto& s, auto& t, auto& p, auto& o, auto& a, auto& x) {
                       s += 0.5f;
                       t += 1.0f;
                       if (i[0] < 3) p *= 2;
                       o |= 1u << (i[0] % 8);
                       a &= ~(1u << (i[0] % 4));
                       x ^= 1u;
                   })
        .wait();
    CHECK(*sum == 500.0f);
    CHECK(*sum_std == 1000.0f);
    CHECK(*product == 8);
    CHECK(*ones == 0xffu);
    CHECK(*both == (~0u & ~0xfu));
    CHECK(*flips == 0u); // 1000 flips
    static_assert(sycl::has_known_identity_v<std::plus<>, float>);
    static_assert(sycl::known_identity_v<std::multiplies<int>, int> == 1);
    static_assert(sycl::known_identity_v<std::bit_and<>, unsigned> == ~0u);
    static_assert(sycl::known_identity_v<std::logical_and<>, bool>);
    static_assert(!sycl::known_identity_v<std::logical_or<bool>, bool>);
    for (void* p : {static_cast<void*>(sum), static_cast<void*>(sum_std), static_cast<void*>(product),
                    static_cast<void*>(ones), static_cast<void*>(both), static_cast<void*>(flips)})
        sycl::free(p, q);

    std::vector<int> values(257);
    std::iota(values.begin(), values.end(), 1);
    CHECK(reduce_with(q, values, 0, sycl::plus<>(), 5) == 5 + 257 * 258 / 2);
    CHECK(reduce_with(q, values, 0, std::plus<>(), 0) == 257 * 258 / 2);
    CHECK(reduce_with(q, values, 0, sycl::maximum<>(), 0) == 257);
    CHECK(reduce_with(q, values, 1000, sycl::minimum<>(), 1000) == 1);
    std::vector<bool> flags(64, true);
    std::vector<int> truth(64, 1);
    CHECK(reduce_with(q, truth, 1, std::logical_and<int>(), 1) == 1);
    truth[17] = 0;
    CHECK(reduce_with(q, truth, 1, std::logical_and<>(), 1) == 0);
    CHECK(reduce_with(q, truth, 0, std::logical_or<>(), 0) == 1);
}

// A reduction (launched by a SYCL lambda kernel): reduction.
TEST_CASE("initialize_to_identity with a standard operator, from reduction_properties.hpp"
          * doctest::test_suite("reduction")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    double* sum = sycl::malloc_shared<double>(1, q);
    *sum = 1e9;
    q.submit([&](sycl::handler& h) {
        h.parallel_for(sycl::range<1>{10}, sycl::reduction(sum, std::plus<>(), sycl::property::reduction::initialize_to_identity{}),
                       [=](sycl::id<1> i, auto& s) { s += static_cast<double>(i[0]); });
    });
    q.wait();
    CHECK(*sum == 45.0);
    sycl::free(sum, q);
}

namespace {
// What an async handler saw: each error as the sycl::exception it arrived as, and what was nested in it.
struct seen_errors {
    std::vector<std::string> messages;
    std::vector<sycl::errc> codes;
    std::vector<std::string> nested;
    int not_sycl = 0;
    sycl::async_handler handler() {
        return [this](sycl::exception_list list) {
            for (const auto& e : list) {
                try {
                    std::rethrow_exception(e);
                } catch (const sycl::exception& s) {
                    messages.emplace_back(s.what());
                    codes.push_back(static_cast<sycl::errc>(s.code().value()));
                    try {
                        std::rethrow_if_nested(s);
                        nested.emplace_back("(none)");
                    } catch (const std::exception& inner) {
                        nested.emplace_back(inner.what());
                    } catch (int value) {
                        nested.push_back("int " + std::to_string(value));
                    }
                } catch (...) {
                    ++not_sycl;
                }
            }
        };
    }
};
} // namespace

// Kernels that throw are host code (SYCL lambdas): native, as the next two cases.
TEST_CASE("what kernels and host tasks throw reaches the async handler as sycl::exception, eagerly and in graphs"
          * doctest::test_suite("native")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    seen_errors seen;
    sycl::queue q{seen.handler()};
    q.parallel_for(sycl::range<1>{8}, [=](sycl::id<1> i) {
        if (i[0] == 5) throw std::runtime_error("kernel failed at 5");
    });
    q.wait_and_throw();
    q.submit([&](sycl::handler& h) { h.host_task([] { throw std::logic_error("host task failed"); }); });
    q.wait_and_throw();
    exp_ext::command_graph g{q};
    g.add([&](sycl::handler& h) { h.single_task([] { throw 7; }); });
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec);
    q.wait_and_throw();
    REQUIRE(seen.messages.size() == 3);
    CHECK(seen.not_sycl == 0);
    CHECK(seen.codes == std::vector<sycl::errc>(3, sycl::errc::runtime));
    CHECK(seen.messages[0].find("kernel failed at 5") != std::string::npos);
    CHECK(seen.nested[0] == "kernel failed at 5");
    CHECK(seen.nested[1] == "host task failed");
    CHECK(seen.messages[2].find("not a std::exception") != std::string::npos);
    CHECK(seen.nested[2] == "int 7");

    // The queue and the graph go on working after each error.
    int* x = sycl::malloc_shared<int>(1, q);
    *x = 0;
    q.single_task([=] { *x = 41; }).wait();
    q.ext_oneapi_graph(exec);
    q.wait_and_throw();
    CHECK(*x == 41);
    CHECK(seen.messages.size() == 4); // the graph's node threw again
    sycl::free(x, q);
}

// A kernel that throws (host code): native.
TEST_CASE("without a handler wait_and_throw rethrows the first error as sycl::exception; a context's handler serves its queues"
          * doctest::test_suite("native")) {
    sycl::queue q;
    q.single_task([] { throw std::runtime_error("first"); });
    q.wait();
    try {
        q.wait_and_throw();
        FAIL("nothing was thrown");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::runtime);
        CHECK(std::string(e.what()).find("first") != std::string::npos);
    }

    seen_errors seen;
    sycl::context c{q.get_device(), seen.handler()};
    sycl::queue in_context{c, q.get_device()};
    in_context.single_task([] { throw std::runtime_error("to the context's handler"); });
    in_context.wait_and_throw();
    REQUIRE(seen.nested.size() == 1);
    CHECK(seen.nested[0] == "to the context's handler");
}

// A kernel that throws (host code): native.
TEST_CASE("a queue that goes away with an error nobody took hands it to its handler: never lost"
          * doctest::test_suite("native")) {
    seen_errors seen;
    {
        sycl::queue q{seen.handler()};
        q.parallel_for(sycl::range<1>{4}, [=](sycl::id<1> i) {
            if (i[0] == 0) throw std::runtime_error("nobody waited");
        });
    } // no wait, no wait_and_throw
    REQUIRE(seen.nested.size() == 1);
    CHECK(seen.nested[0] == "nobody waited");
}

TEST_CASE("buffers in a graph made without assume_buffer_outlives_graph, destroyed before the graph's last run") {
    sycl::queue q;
    constexpr std::size_t n = 64;
    test_memory<int> out_memory(q, n);
    int* out = out_memory.get();
    std::vector<int> host(n);
    std::iota(host.begin(), host.end(), 1);
    std::optional<exp_ext::command_graph<exp_ext::graph_state::executable>> exec;
    {
        exp_ext::command_graph g{q.get_context(), q.get_device()}; // no property, as DPC++ programs now write it
        sycl::buffer<int> b{host.data(), sycl::range<1>{n}};
        g.begin_recording(q);
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::read_write};
            multiply_by.parallel_for(h, sycl::range<1>{n}, a, 2);
        });
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::read_only};
            copy_of.parallel_for(h, sycl::range<1>{n}, out, a);
        });
        g.end_recording();
        exec.emplace(g.finalize());
    } // the buffer goes (writing back its unchanged contents), and the modifiable graph with it
    CHECK(host[n - 1] == static_cast<int>(n));
    q.ext_oneapi_graph(*exec).wait();
    CHECK(out_memory.read()[n - 1] == 2 * static_cast<int>(n)); // the graph's copy of the buffer lives on
    q.ext_oneapi_graph(*exec).wait();
    CHECK(out_memory.read()[n - 1] == 4 * static_cast<int>(n));
    CHECK(host[n - 1] == static_cast<int>(n)); // what the program gave up is not written to any more
}

TEST_CASE("a buffer destroyed while a graph that uses it runs waits for it and writes its result back") {
    sycl::queue q;
    std::vector<int> host(1000, 1);
    exp_ext::command_graph g{q};
    std::optional<sycl::buffer<int>> b{std::in_place, host.data(), sycl::range<1>{1000}};
    g.add([&](sycl::handler& h) {
        sycl::accessor a{*b, h, sycl::read_write};
        h.host_task([=] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20)); // still running when the buffer goes
            for (std::size_t i = 0; i < 1000; ++i) a[i] += 41;
        });
    });
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec);
    b.reset(); // SYCL's buffer destructor: waits for the launch, then writes back
    CHECK(host[0] == 42);
    CHECK(host[999] == 42);
    q.ext_oneapi_graph(exec).wait(); // and the graph runs again on its own copy
    CHECK(host[0] == 42);
}

TEST_CASE("whole-graph update from a graph whose buffer is gone: the executable graph keeps that buffer") {
    sycl::queue q;
    test_memory<int> out_memory(q, 1);
    int* out = out_memory.get();
    auto build = [&](exp_ext::command_graph<>& g, sycl::buffer<int>& b) {
        g.add([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::read_only};
            copy_of.single_task(h, out, a);
        });
    };
    std::vector<int> one{1}, two{2};
    sycl::buffer<int> first{one.data(), sycl::range<1>{1}};
    exp_ext::command_graph g1{q};
    build(g1, first);
    auto exec = g1.finalize({exp_ext::property::graph::updatable{}});
    {
        exp_ext::command_graph g2{q};
        sycl::buffer<int> second{two.data(), sycl::range<1>{1}};
        build(g2, second);
        exec.update(g2);
    } // g2 and its buffer go
    q.ext_oneapi_graph(exec).wait();
    CHECK(out_memory.read()[0] == 2);
}

TEST_CASE("raw kernel arguments (sycl_ext_oneapi_raw_kernel_arg), eagerly and as a graph's dynamic parameter") {
    struct params {
        int scale;
        int offset;
    };
    sycl::queue q;
    test_memory<int> memory(q, 8);
    int* data = memory.get();
    memory.fill(1);
    // The kernel takes the struct by value: an OpenCL C kernel of the same struct on devices without host kernels.
    const encore::device d = q.get_device().engine();
    sycl::kernel affine = sycl::ext::encore::make_kernel(
        encore::testing::runs_host_kernels(d)
            ? encore::make_kernel("affine",
                                  [](const encore::work_item& it, std::span<const encore::kernel_argument> args) {
                                      REQUIRE(args[1].bytes.size() == sizeof(params));
                                      const auto p = args[1].scalar<params>();
                                      int* d = static_cast<int*>(args[0].pointer());
                                      d[it.global_id[0]] = d[it.global_id[0]] * p.scale + p.offset;
                                  })
            : encore::testing::source_kernel(d,
                                             "typedef struct { int scale; int offset; } params;\n"
                                             "kernel void affine_raw(global int* d, params p) {\n"
                                             "    size_t i = get_global_id(0);\n"
                                             "    d[i] = d[i] * p.scale + p.offset;\n"
                                             "}\n",
                                             "affine_raw"));
    params first{3, 1};
    q.submit([&](sycl::handler& h) {
        h.set_arg(0, data);
        h.set_arg(1, exp_ext::raw_kernel_arg(&first, sizeof(first)));
        first.scale = 100; // the bytes were copied at set_arg
        h.parallel_for(sycl::range<1>{8}, affine);
    }).wait();
    CHECK(memory.read()[7] == 4);

    exp_ext::command_graph g{q};
    params p{2, 0};
    exp_ext::dynamic_parameter<exp_ext::raw_kernel_arg> dynamic(g, exp_ext::raw_kernel_arg(&p, sizeof(p)));
    auto node = g.add([&](sycl::handler& h) {
        h.set_arg(0, data);
        h.set_arg(1, dynamic);
        h.parallel_for(sycl::range<1>{8}, affine);
    });
    auto exec = g.finalize({exp_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait();
    CHECK(memory.read()[0] == 8);
    params next{1, 5};
    dynamic.update(exp_ext::raw_kernel_arg(&next, sizeof(next)));
    exec.update(node);
    q.ext_oneapi_graph(exec).wait();
    CHECK(memory.read()[0] == 13);
    try {
        exp_ext::raw_kernel_arg bad(nullptr, 4);
        FAIL("a null pointer with a count was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
    }
}

TEST_CASE("enable_native_recording: feature_not_supported on a backend without native capture, as specified") {
    sycl::queue q;
    try {
        exp_ext::command_graph g{q, {exp_ext::property::graph::enable_native_recording{}}};
        FAIL("the property was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::feature_not_supported);
        CHECK(std::string(e.what()).find("enable_native_recording") != std::string::npos);
    }
    static_assert(exp_ext::node_type::async_malloc != exp_ext::node_type::async_free);
    CHECK(q.get_device().has(sycl::aspect::ext_oneapi_graph));
    CHECK(q.get_device().has(sycl::aspect::ext_oneapi_limited_graph));
}

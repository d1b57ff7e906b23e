// Free-function kernels (sycl_ext_oneapi_free_function_kernels) with kernel bundles and graph update, written
// as the graph extension's own samples and DPC++'s graph tests write them: a function marked with
// SYCL_EXT_ONEAPI_FUNCTION_PROPERTY, its kernel_id, the application's executable bundle, set_arg(s) and
// dynamic parameters. One body built three ways: by g++ (tests/sycl/graph/meson.build), by encore++ for the
// native target and by encore++ for cuda:sm_90,native (tests/compiler/meson.build). The first two run on the
// native backend; the CUDA build's default queue is the GPU where there is one (run on an H100 by hand),
// where the kernels are the entries encore-outliner wrote for the functions. Also the kernel compiler under
// DPC++'s names where the device builds no OpenCL C or SYCL source: its refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include <sycl/sycl.hpp>

#include "../../support/sycl_error.hpp"

namespace syclexp = sycl::ext::oneapi::experimental;
using encore::testing::require_sycl_error;
namespace syclext = sycl::ext::oneapi;

constexpr std::size_t items = 64;

SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::single_task_kernel))
void ff_fill(int* out, int value, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
        out[i] = value + static_cast<int>(i);
}

SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void ff_scale(int* data, int factor) {
    const auto it = syclext::this_work_item::get_nd_item<1>();
    data[it.get_global_id(0)] *= factor;
}

// Reverses each work-group's slice through a barrier: every item writes, waits for its group, then reads
// another's.
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void ff_reverse_groups(const int* in, int* scratch, int* out) {
    const auto it = syclext::this_work_item::get_nd_item<1>();
    const std::size_t g = it.get_global_id(0), l = it.get_local_id(0), n = it.get_local_range(0);
    const std::size_t base = g - l;
    scratch[g] = in[g];
    sycl::group_barrier(syclext::this_work_item::get_work_group<1>());
    // Asked again after the barrier (the other items of the group ran meanwhile): still this item.
    const auto after = syclext::this_work_item::get_nd_item<1>();
    out[after.get_global_id(0)] = after.get_global_id(0) == g ? static_cast<int>(scratch[base + (n - 1 - l)]) : -1;
}

SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<3>))
void ff_linear_ids(int* out) {
    const auto it = syclext::this_work_item::get_nd_item<3>();
    out[it.get_global_linear_id()] = static_cast<int>(it.get_global_linear_id());
}

struct offset_pair {
    int add;
    int times;
};

SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void ff_affine(int* data, offset_pair p) {
    const auto i = syclext::this_work_item::get_nd_item<1>().get_global_id(0);
    data[i] = data[i] * p.times + p.add;
}

// Local memory parameters: a group reverses its slice through `tile`, with `spare` beside it (a size that did not
// follow its argument would make them overlap).
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void ff_local_reverse(int* data, sycl::local_accessor<int, 1> tile, syclexp::work_group_memory<int[]> spare) {
    const auto it = syclext::this_work_item::get_nd_item<1>();
    const std::size_t l = it.get_local_id(0), n = it.get_local_range(0), g = it.get_global_id(0);
    tile[l] = data[g];
    spare[l] = -1;
    sycl::group_barrier(it.get_group());
    data[g] = tile.size() == n ? tile[n - 1 - l] : -100; // the accessor holds the argument's elements
}

// The launch's work-group scratch memory (work_group_scratch_size), after a local memory parameter.
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void ff_scratch_reverse(int* data, sycl::local_accessor<int, 1> marks) {
    const auto it = syclext::this_work_item::get_nd_item<1>();
    const std::size_t l = it.get_local_id(0), n = it.get_local_range(0), g = it.get_global_id(0);
    int* scratch = static_cast<int*>(syclexp::get_work_group_scratch_memory());
    scratch[l] = data[g];
    marks[l] = -1;
    sycl::group_barrier(it.get_group());
    data[g] = scratch != &marks[0] ? scratch[n - 1 - l] : -100;
}

// dynamic_work_group_memory holds host state: the native backend's only.
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void ff_dynamic_reverse(int* data, syclexp::dynamic_work_group_memory<int[]> tile) {
    const auto it = syclext::this_work_item::get_nd_item<1>();
    const std::size_t l = it.get_local_id(0), n = it.get_local_range(0), g = it.get_global_id(0);
    auto t = tile.get();
    t[l] = data[g];
    sycl::group_barrier(it.get_group());
    data[g] = t[n - 1 - l];
}

namespace {

template <typename T> struct usm_array {
    usm_array(sycl::queue& q, std::size_t n) : q(q), data(sycl::malloc_shared<T>(n, q)), n(n) {
        REQUIRE(data != nullptr);
        std::fill(data, data + n, T{});
    }
    ~usm_array() { sycl::free(data, q); }
    usm_array(const usm_array&) = delete;
    usm_array& operator=(const usm_array&) = delete;
    std::vector<T> read() const { return std::vector<T>(data, data + n); }
    sycl::queue& q;
    T* data;
    std::size_t n;
};

sycl::kernel kernel_of(const sycl::context& c, sycl::kernel_id id) {
    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(c);
    REQUIRE(bundle.has_kernel(id));
    return bundle.get_kernel(id);
}

} // namespace

TEST_CASE("free-function kernels: single_task and nd_range kernels taken from the application's bundle") {
    sycl::queue q{sycl::property::queue::in_order{}}; // the second kernel reads what the first wrote
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    usm_array<int> a(q, items);
    sycl::kernel fill = kernel_of(q.get_context(), syclexp::get_kernel_id<ff_fill>());
    sycl::kernel scale = kernel_of(q.get_context(), syclexp::get_kernel_id<ff_scale>());
    CHECK(fill.get_info<sycl::info::kernel::function_name>() == "ff_fill");
    q.submit([&](sycl::handler& h) {
        h.set_args(a.data, 5, items);
        h.single_task(fill);
    });
    q.submit([&](sycl::handler& h) {
        h.set_arg(0, a.data);
        h.set_arg(1, 3);
        h.parallel_for(sycl::nd_range<1>{{items}, {16}}, scale);
    });
    q.wait();
    const auto got = a.read();
    for (std::size_t i = 0; i < items; ++i)
        CHECK(got[i] == 3 * (5 + static_cast<int>(i)));
}

TEST_CASE(
    "free-function kernels: get_nd_item and the group barrier inside; three dimensions; a struct value") {
    sycl::queue q;
    usm_array<int> in(q, items), scratch(q, items), out(q, items);
    std::iota(in.data, in.data + items, 0);
    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());
    sycl::kernel reverse = bundle.ext_oneapi_get_kernel<ff_reverse_groups>();
    q.submit([&](sycl::handler& h) {
         h.set_args(in.data, scratch.data, out.data);
         h.parallel_for(sycl::nd_range<1>{{items}, {8}}, reverse);
     }).wait();
    const auto reversed = out.read();
    for (std::size_t i = 0; i < items; ++i)
        CHECK(reversed[i] == static_cast<int>((i / 8) * 8 + (7 - i % 8)));

    usm_array<int> ids(q, 4 * 2 * 6);
    q.submit([&](sycl::handler& h) {
         h.set_arg(0, ids.data);
         h.parallel_for(sycl::nd_range<3>{{4, 2, 6}, {2, 1, 3}},
                        bundle.ext_oneapi_get_kernel<ff_linear_ids>());
     }).wait();
    const auto linear = ids.read();
    for (std::size_t i = 0; i < linear.size(); ++i)
        CHECK(linear[i] == static_cast<int>(i));

    std::fill(out.data, out.data + items, 2);
    q.submit([&](sycl::handler& h) {
         h.set_args(out.data, offset_pair{1, 10});
         h.parallel_for(sycl::nd_range<1>{{items}, {items}}, bundle.ext_oneapi_get_kernel<ff_affine>());
     }).wait();
    for (int v : out.read())
        CHECK(v == 21);
}

TEST_CASE("free-function kernels in a graph: dynamic parameters update a pointer and a value, node and whole "
          "graph") {
    sycl::queue q;
    usm_array<int> first(q, items), second(q, items);
    sycl::kernel fill = kernel_of(q.get_context(), syclexp::get_kernel_id<ff_fill>());
    sycl::kernel scale = kernel_of(q.get_context(), syclexp::get_kernel_id<ff_scale>());

    syclexp::command_graph g{q.get_context(), q.get_device()};
    syclexp::dynamic_parameter target(g, first.data);
    syclexp::dynamic_parameter factor(g, 2);
    auto fill_node = g.add([&](sycl::handler& h) {
        h.set_arg(0, target);
        h.set_arg(1, 1);
        h.set_arg(2, items);
        h.single_task(fill);
    });
    g.add(
        [&](sycl::handler& h) {
            h.set_arg(0, target);
            h.set_arg(1, factor);
            h.parallel_for(sycl::nd_range<1>{{items}, {16}}, scale);
        },
        {syclexp::property::node::depends_on(fill_node)});
    auto exec = g.finalize(syclexp::property::graph::updatable{});
    q.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < items; ++i)
        CHECK(first.data[i] == 2 * (1 + static_cast<int>(i)));

    target.update(second.data);
    factor.update(7);
    exec.update(g.get_nodes());
    q.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < items; ++i) {
        CHECK(second.data[i] == 7 * (1 + static_cast<int>(i)));
        CHECK(first.data[i] == 2 * (1 + static_cast<int>(i))); // untouched by the second launch
    }

    // Whole-graph update: the same topology, recorded with other arguments.
    syclexp::command_graph other{q.get_context(), q.get_device()};
    auto other_fill = other.add([&](sycl::handler& h) {
        h.set_args(first.data, 100, items);
        h.single_task(fill);
    });
    other.add(
        [&](sycl::handler& h) {
            h.set_args(first.data, -1);
            h.parallel_for(sycl::nd_range<1>{{items}, {16}}, scale);
        },
        {syclexp::property::node::depends_on(other_fill)});
    exec.update(other);
    q.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < items; ++i)
        CHECK(first.data[i] == -(100 + static_cast<int>(i)));
}

TEST_CASE("free-function kernels: arguments that do not fit, and work-item queries outside a kernel") {
    sycl::queue q;
    usm_array<int> a(q, items);
    sycl::kernel scale = kernel_of(q.get_context(), syclexp::get_kernel_id<ff_scale>());
    const sycl::nd_range<1> r{{items}, {16}};
    require_sycl_error(
        [&] {
            q.submit([&](sycl::handler& h) {
                h.set_args(a.data, 2.0);
                h.parallel_for(r, scale);
            });
        },
        sycl::errc::invalid, "kernel 'ff_scale' takes a 4-byte value there; it was given a 8-byte value");
    require_sycl_error(
        [&] {
            q.submit([&](sycl::handler& h) {
                h.set_args(7, 2);
                h.parallel_for(r, scale);
            });
        },
        sycl::errc::invalid, "set_arg(0): kernel 'ff_scale' takes a pointer there");
    require_sycl_error(
        [&] {
            q.submit([&](sycl::handler& h) {
                h.set_args(a.data, 2, 3);
                h.parallel_for(r, scale);
            });
        },
        sycl::errc::invalid, "has 2 arguments");
    require_sycl_error(
        [&] {
            q.submit([&](sycl::handler& h) {
                h.set_arg(0, a.data);
                h.parallel_for(r, scale);
            });
        },
        sycl::errc::kernel_argument, "argument 1 was not set");

    // The graph is left as it was when add refuses.
    syclexp::command_graph g{q.get_context(), q.get_device()};
    syclexp::dynamic_parameter wrong(g, 1.5f);
    require_sycl_error(
        [&] {
            g.add([&](sycl::handler& h) {
                h.set_arg(0, wrong);
                h.set_arg(1, 2);
                h.parallel_for(r, scale);
            });
        },
        sycl::errc::invalid, "takes a pointer there; it was given a 4-byte value");
    CHECK(g.get_nodes().empty());

    require_sycl_error([] { static_cast<void>(syclext::this_work_item::get_nd_item<1>()); },
                       sycl::errc::invalid, "outside a free-function kernel");
    // A kernel over 1 dimension asking for a 2-dimensional item: reported from inside the launch.
}

TEST_CASE("kernel bundles: ids, states, devices and what a bundle holds") {
    sycl::queue q;
    const auto c = q.get_context();
    const auto fill_id = syclexp::get_kernel_id<ff_fill>();
    const auto scale_id = syclexp::get_kernel_id<ff_scale>();
    CHECK(std::string(fill_id.get_name()) == "ff_fill");
    CHECK(fill_id == syclexp::get_kernel_id<ff_fill>());
    CHECK_FALSE(fill_id == scale_id);

    // Every free-function kernel this program names is registered before main.
    const auto all = sycl::get_kernel_ids();
    for (const char* name : {"ff_fill", "ff_scale", "ff_reverse_groups", "ff_linear_ids", "ff_affine"})
        CHECK_MESSAGE(
            std::any_of(all.begin(), all.end(),
                        [&](const sycl::kernel_id& id) { return std::string(id.get_name()) == name; }),
            name);

    auto input = sycl::get_kernel_bundle<sycl::bundle_state::input>(c);
    CHECK_FALSE(input.empty());
    CHECK(input.has_kernel(fill_id));
    CHECK(input.has_kernel(fill_id, q.get_device()));
    CHECK(input.get_devices() == c.get_devices());
    CHECK(input.get_backend() == q.get_device().get_backend());
    CHECK_FALSE(input.contains_specialization_constants());
    auto object = sycl::compile(input);
    auto executable = sycl::link(object);
    CHECK(executable.get_kernel_ids().size() == input.get_kernel_ids().size());
    CHECK(sycl::build(input).has_kernel(scale_id));
    CHECK(sycl::has_kernel_bundle<sycl::bundle_state::executable>(c));
    CHECK(sycl::is_compatible({fill_id, scale_id}, q.get_device()));

    // A bundle of one kernel: the other is not in it.
    auto only_fill = syclexp::get_kernel_bundle<ff_fill, sycl::bundle_state::executable>(c);
    CHECK(only_fill.get_kernel_ids().size() == 1);
    CHECK(only_fill.ext_oneapi_has_kernel<ff_fill>());
    CHECK_FALSE(only_fill.ext_oneapi_has_kernel<ff_scale>());
    require_sycl_error([&] { static_cast<void>(only_fill.get_kernel(scale_id)); }, sycl::errc::invalid,
                       "does not hold kernel 'ff_scale'");
    auto only_scale = sycl::get_kernel_bundle<sycl::bundle_state::executable>(c, {scale_id});
    auto both = sycl::join(std::vector{only_fill, only_scale});
    CHECK(both.has_kernel(fill_id));
    CHECK(both.has_kernel(scale_id));
    // Kernels by name are those of a bundle built from source.
    CHECK_FALSE(both.ext_oneapi_has_kernel("ff_fill"));
    require_sycl_error([&] { static_cast<void>(both.ext_oneapi_get_kernel("ff_fill")); }, sycl::errc::invalid,
                       "not built from source");

    require_sycl_error(
        [&] {
            static_cast<void>(
                sycl::get_kernel_bundle<sycl::bundle_state::executable>(c, std::vector<sycl::device>{}));
        },
        sycl::errc::invalid, "no device given");
    require_sycl_error(
        [] { static_cast<void>(sycl::link(std::vector<sycl::kernel_bundle<sycl::bundle_state::object>>{})); },
        sycl::errc::invalid, "no bundle given");
}

TEST_CASE("kernel compiler under DPC++'s names: what the native backend refuses") {
    sycl::queue q;
    const auto c = q.get_context();
    CHECK_FALSE(q.get_device().ext_oneapi_can_compile(syclexp::source_language::opencl));
    CHECK_FALSE(q.get_device().ext_oneapi_can_compile(syclexp::source_language::sycl));
    CHECK(
        syclexp::is_source_kernel_bundle_supported(sycl::backend::opencl, syclexp::source_language::opencl));
    CHECK(syclexp::is_source_kernel_bundle_supported(sycl::backend::opencl, syclexp::source_language::spirv));
    CHECK(syclexp::is_source_kernel_bundle_supported(sycl::backend::ext_oneapi_cuda,
                                                     syclexp::source_language::ext_encore_cuda));
    CHECK_FALSE(syclexp::is_source_kernel_bundle_supported(q.get_device().get_backend(),
                                                           syclexp::source_language::opencl));
    require_sycl_error(
        [&] {
            static_cast<void>(syclexp::create_kernel_bundle_from_source(c, syclexp::source_language::opencl,
                                                                        "kernel void k() {}"));
        },
        sycl::errc::invalid, "no device of the context builds OpenCL C");
    require_sycl_error(
        [&] {
            static_cast<void>(
                syclexp::create_kernel_bundle_from_source(c, syclexp::source_language::sycl, "void k() {}"));
        },
        sycl::errc::invalid, "ahead of time");
    require_sycl_error(
        [&] {
            static_cast<void>(
                syclexp::create_kernel_bundle_from_source(c, syclexp::source_language::spirv, "text"));
        },
        sycl::errc::invalid, "binary");
    require_sycl_error(
        [&] {
            static_cast<void>(syclexp::create_kernel_bundle_from_source(c, syclexp::source_language::opencl,
                                                                        std::vector<std::byte>(4)));
        },
        sycl::errc::invalid, "is text");
}

TEST_CASE("free-function kernels with local memory parameters: local_accessor, work_group_memory, dynamic memory") {
    sycl::queue q{sycl::property::queue::in_order{}};
    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());
    usm_array<int> a(q, items);
    std::iota(a.data, a.data + items, 0);
    sycl::kernel reverse = bundle.ext_oneapi_get_kernel<ff_local_reverse>();
    q.submit([&](sycl::handler& h) {
        h.set_args(a.data, sycl::local_accessor<int, 1>(sycl::range<1>{8}, h), syclexp::work_group_memory<int[]>(8, h));
        h.parallel_for(sycl::nd_range<1>{{items}, {8}}, reverse);
    });
    q.wait();
    for (std::size_t i = 0; i < items; ++i)
        REQUIRE(a.data[i] == static_cast<int>(i / 8 * 8 + (7 - i % 8)));
    require_sycl_error(
        [&] {
            q.submit([&](sycl::handler& h) {
                h.set_args(a.data, 8, syclexp::work_group_memory<int[]>(8, h));
                h.parallel_for(sycl::nd_range<1>{{items}, {8}}, reverse);
            });
        },
        sycl::errc::invalid, "set_arg(1): kernel 'ff_local_reverse' takes local memory");

    // The work-group scratch memory, a launch property.
    std::iota(a.data, a.data + items, 0);
    syclexp::launch_config scratch_config{sycl::nd_range<1>{{items}, {16}},
                                          syclexp::properties{syclexp::work_group_scratch_size{16 * sizeof(int)}}};
    q.submit([&](sycl::handler& h) {
        syclexp::nd_launch(h, scratch_config, bundle.ext_oneapi_get_kernel<ff_scratch_reverse>(), a.data,
                           sycl::local_accessor<int, 1>(sycl::range<1>{16}, h));
    });
    q.wait();
    for (std::size_t i = 0; i < items; ++i)
        REQUIRE(a.data[i] == static_cast<int>(i / 16 * 16 + (15 - i % 16)));

    // A dynamic_work_group_memory argument, resized with the node's nd_range.
    if (!bundle.ext_oneapi_has_kernel<ff_dynamic_reverse>()) {
        // encore++ writes no CUDA entry for it: on the GPU the bundle does not hold it.
        MESSAGE("skipped: '" << q.get_device().get_info<sycl::info::device::name>()
                             << "' has no code for free-function kernels with dynamic_work_group_memory parameters");
        CHECK_FALSE(q.get_device().engine().properties().host_kernels);
        return;
    }
    std::iota(a.data, a.data + items, 0);
    syclexp::command_graph g{q.get_context(), q.get_device()};
    syclexp::dynamic_work_group_memory<int[]> tile(g, 8);
    sycl::kernel dynamic = bundle.ext_oneapi_get_kernel<ff_dynamic_reverse>();
    auto node = g.add([&](sycl::handler& h) {
        h.set_args(a.data, tile);
        h.parallel_for(sycl::nd_range<1>{{items}, {8}}, dynamic);
    });
    auto exec = g.finalize(syclexp::property::graph::updatable{});
    q.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < items; ++i)
        REQUIRE(a.data[i] == static_cast<int>(i / 8 * 8 + (7 - i % 8)));
    std::iota(a.data, a.data + items, 0);
    tile.update(32);
    node.update_nd_range(sycl::nd_range<1>{{items}, {32}});
    exec.update(node);
    q.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < items; ++i)
        REQUIRE(a.data[i] == static_cast<int>(i / 32 * 32 + (31 - i % 32)));
}

// Graph update with plain SYCL lambda kernels, as DPC++ programs write it: one test body built three ways —
// by g++ for the native backend (tests/sycl/graph/meson.build), by encore++ for the native target and by
// encore++ for cuda:sm_90,native (tests/compiler/meson.build; the CUDA build is run on an H100 by hand, where its
// queue is the GPU). The kernels capture only what device code can take (USM pointers, scalars, structs), so the
// same lambdas run on the CPU and on the GPU.
//
// set_arg on a lambda kernel replaces a capture (DPC++'s index: one per pointer or std-layout capture, four per
// accessor and local_accessor, in the closure's order): it needs the kernel's description, which encore++ writes.
// In a g++ build the same calls are refused with errc::invalid, and these cases check that instead.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <sycl/sycl.hpp>

#include "encore/compiler/kernel_descriptor.hpp"

namespace {
namespace sycl_ext = sycl::ext::oneapi::experimental;

// Kernels are described when encore++ built this program (its integration header registered them).
bool built_by_encore_cxx() {
    return !encore::compiler::registered_kernels().empty();
}

template <typename T> struct shared_array {
    shared_array(sycl::queue& q, std::size_t n) : q(q), n(n), data(sycl::malloc_shared<T>(n, q)) {
        REQUIRE(data != nullptr);
        std::fill(data, data + n, T{});
    }
    ~shared_array() { sycl::free(data, q); }
    shared_array(const shared_array&) = delete;
    shared_array& operator=(const shared_array&) = delete;
    std::vector<T> read() const { return std::vector<T>(data, data + n); }
    void fill(T value) { std::fill(data, data + n, value); }
    sycl::queue& q;
    std::size_t n;
    T* data;
};

void check_refused(const std::function<void()>& f, const char* words) {
    try {
        f();
        FAIL("accepted; expected errc::invalid mentioning '" << words << "'");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
        CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
    }
}

struct affine {
    int scale;
    int offset;
};

// At namespace scope: a constant of the enclosing function that a kernel reads is captured by g++ 12 and not by
// Clang, and a kernel laid out differently by the two gets neither device code nor set_arg.
constexpr std::size_t group_size = 8;

// out[i] = (i's mirror in its work-group of 8) * f.scale + f.offset, through local memory and a barrier, over n
// items; `set_arguments` runs before the launch (set_arg). The closure, in the order the body first uses its
// captures: tile (a local_accessor: DPC++ indices 0 to 3), out (4), f (5).
void reverse_in_groups(sycl::handler& h, int* out, affine f, std::size_t n,
                       const std::function<void(sycl::handler&)>& set_arguments) {
    sycl::local_accessor<int, 1> tile(sycl::range<1>{group_size}, h);
    set_arguments(h);
    h.parallel_for(sycl::nd_range<1>{{n}, {group_size}}, [=](sycl::nd_item<1> it) {
        const auto l = it.get_local_id(0);
        tile[l] = static_cast<int>(it.get_global_id(0));
        sycl::group_barrier(it.get_group());
        out[it.get_global_id(0)] = tile[group_size - 1 - l] * f.scale + f.offset;
    });
}
} // namespace

TEST_CASE("set_arg on a lambda kernel: a pointer and a scalar capture follow their dynamic parameters") {
    sycl::queue q;
    constexpr std::size_t n = 64;
    shared_array<int> a(q, n), b(q, n);
    int* out = a.data;
    int value = 7;
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_parameter pointer(g, a.data);
    sycl_ext::dynamic_parameter scalar(g, value);
    auto add = [&] {
        return g.add([&](sycl::handler& h) {
            h.set_arg(0, pointer); // `out`: the first capture the body uses
            h.set_arg(1, scalar);  // `value`
            h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { out[i] = value + static_cast<int>(i[0]); });
        });
    };
    if (!built_by_encore_cxx()) {
        check_refused([&] { add(); }, "build the program with encore++");
        CHECK(g.empty());
        return;
    }
    auto node = add();
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait();
    CHECK(a.read()[5] == 12);
    pointer.update(b.data);
    scalar.update(100);
    a.fill(-1);
    q.ext_oneapi_graph(exec).wait();
    CHECK(a.read()[5] == 12); // the executable graph is not updated yet
    CHECK(b.read()[5] == 0);
    exec.update(node);
    q.ext_oneapi_graph(exec).wait();
    CHECK(b.read()[5] == 105);
    CHECK(b.read()[n - 1] == 100 + static_cast<int>(n) - 1);
    CHECK(a.read()[5] == 12);
}

TEST_CASE("set_arg on a lambda kernel: accessors count four indices, structs one; wrong indices are refused") {
    sycl::queue q;
    constexpr std::size_t n = 32;
    shared_array<int> a(q, n);
    int* out = a.data;
    affine f{2, 1};
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_parameter transform(g, f);
    sycl_ext::dynamic_parameter small(g, short{1});
    auto cgf = [&](int index, bool short_value) {
        return [&, index, short_value](sycl::handler& h) {
            reverse_in_groups(h, out, f, n, [&](sycl::handler& cgh) {
                if (short_value)
                    cgh.set_arg(index, small);
                else
                    cgh.set_arg(index, transform);
            });
        };
    };
    if (!built_by_encore_cxx()) {
        check_refused([&] { g.add(cgf(5, false)); }, "encore++");
        return;
    }
    check_refused([&] { g.add(cgf(2, false)); }, "inside local_accessor 'tile', which takes indices 0 to 3");
    check_refused([&] { g.add(cgf(0, false)); }, "not built");
    check_refused([&] { g.add(cgf(6, false)); }, "has 6 arguments after decomposition (indices 0 to 5)");
    check_refused([&] { g.add(cgf(5, true)); }, "capture 'f' of 8 bytes; the value set has 2");
    CHECK(g.empty());
    transform.update(affine{1, 0}); // no node registered it
    g.add(cgf(5, false));
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    CHECK(a.read()[0] == 7);
    CHECK(a.read()[8] == 15);
}

TEST_CASE("set_arg on a lambda kernel: a struct capture through a dynamic parameter, in a dynamic command group") {
    sycl::queue q;
    constexpr std::size_t n = 32;
    shared_array<int> a(q, n);
    int* out = a.data;
    affine f{2, 1};
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_parameter transform(g, f);
    // Two command groups with the parameter at different indices (each its own closure).
    const std::vector<std::function<void(sycl::handler&)>> groups{
            [&](sycl::handler& h) {
                reverse_in_groups(h, out, f, n, [&](sycl::handler& cgh) { cgh.set_arg(5, transform); });
            },
            [&](sycl::handler& h) {
                h.set_arg(1, transform); // out 0, f 1
                h.parallel_for(sycl::range<1>{n},
                               [=](sycl::id<1> i) { out[i] = -(static_cast<int>(i[0]) * f.scale + f.offset); });
            }};
    if (!built_by_encore_cxx()) {
        check_refused([&] { sycl_ext::dynamic_command_group(g, groups); }, "encore++");
        return;
    }
    sycl_ext::dynamic_command_group group_of_two(g, groups);
    auto node = g.add(group_of_two);
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait();
    auto seen = a.read();
    CHECK(seen[0] == 7 * 2 + 1); // reversed in its group of 8
    CHECK(seen[9] == 14 * 2 + 1);
    transform.update(affine{3, -5}); // both command groups take it
    exec.update(node);
    q.ext_oneapi_graph(exec).wait();
    CHECK(a.read()[0] == 7 * 3 - 5);
    group_of_two.set_active_index(1);
    exec.update(node);
    q.ext_oneapi_graph(exec).wait();
    seen = a.read();
    CHECK(seen[0] == 5);
    CHECK(seen[4] == -(4 * 3 - 5));
}

TEST_CASE("set_arg on a lambda kernel: an accessor capture follows its dynamic parameter to another buffer") {
    sycl::queue q;
    constexpr std::size_t n = 16;
    std::vector<int> first_data(n, 1), second_data(n, 100);
    {
        sycl::buffer<int> first(first_data.data(), sycl::range<1>{n}), second(second_data.data(), sycl::range<1>{n});
        sycl::accessor<int, 1> into_first(first), into_second(second); // placeholders
        // set_arg on a lambda replaces an accessor capture's pointer: Encore's accessor starts with it.
        void* leading = nullptr;
        std::memcpy(&leading, &into_first, sizeof leading);
        CHECK(leading == into_first.get_pointer());
        sycl_ext::command_graph g{q};
        sycl_ext::dynamic_parameter target(g, into_first);
        auto add = [&] {
            return g.add([&](sycl::handler& h) {
                h.require(target);
                h.set_arg(0, target); // `a`: an accessor, DPC++ indices 0 to 3
                auto a = into_first;
                h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { a[i] += static_cast<int>(i[0]); });
            });
        };
        if (!built_by_encore_cxx()) {
            check_refused([&] { add(); }, "encore++");
            return;
        }
        check_refused(
            [&] {
                g.add([&](sycl::handler& h) {
                    h.set_arg(0, 5);
                    auto a = into_first;
                    h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { a[i] = 0; });
                });
            },
            "takes a buffer's memory");
        auto node = add();
        auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
        q.ext_oneapi_graph(exec).wait();
        target.update(into_second);
        exec.update(node);
        q.ext_oneapi_graph(exec).wait();
        q.ext_oneapi_graph(exec).wait();
    }
    CHECK(first_data[3] == 1 + 3);        // one run into the first buffer
    CHECK(second_data[3] == 100 + 2 * 3); // two into the second
}

TEST_CASE("set_arg with a plain value on a lambda kernel submitted eagerly") {
    sycl::queue q;
    shared_array<int> a(q, 16);
    int* out = a.data;
    int value = 1;
    auto submit = [&] {
        q.submit([&](sycl::handler& h) {
             h.set_arg(1, 42);
             h.parallel_for(sycl::range<1>{16}, [=](sycl::id<1> i) { out[i] = value; });
         }).wait();
    };
    if (!built_by_encore_cxx()) {
        check_refused(submit, "encore++");
        return;
    }
    submit();
    CHECK(a.read()[15] == 42);
}

// The specification's range rules on plain lambdas: a dynamic command group's nodes share range updates and a
// command group keeps its range when made active again; kernel nodes switch between range and nd_range.
TEST_CASE("range updates of dynamic command groups and range / nd_range switches, on lambda kernels") {
    sycl::queue q;
    constexpr std::size_t n = 64;
    shared_array<int> a(q, n);
    int* v = a.data;
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_command_group group(
        g, {[&](sycl::handler& h) { h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { v[i] += 1; }); },
            [&](sycl::handler& h) { h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { v[i] += 100; }); }});
    auto first = g.add(group);
    auto second = g.add(group, {sycl_ext::property::node::depends_on(first)});
    first.update_range(sycl::range<1>{32});
    group.set_active_index(1);
    group.set_active_index(0);
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    auto run = [&] {
        a.fill(0);
        q.ext_oneapi_graph(exec).wait();
        return a.read();
    };
    auto seen = run();
    CHECK(std::count(seen.begin(), seen.end(), 2) == 32);
    CHECK(seen[32] == 0);
    second.update_nd_range(sycl::nd_range<1>{{16}, {8}}); // group 0 now runs 16 items in groups of 8
    exec.update({first, second});
    seen = run();
    CHECK(std::count(seen.begin(), seen.end(), 2) == 16);
    CHECK(seen[16] == 0);

    // An nd_range kernel with a barrier, updated with a plain range, keeps work-groups (6 for 12 items, from 8).
    shared_array<int> out(q, n);
    int* o = out.data;
    out.fill(-1);
    sycl_ext::command_graph h{q};
    auto reverse = h.add([&](sycl::handler& cgh) {
        sycl::local_accessor<int, 1> tile(sycl::range<1>{8}, cgh);
        cgh.parallel_for(sycl::nd_range<1>{{32}, {8}}, [=](sycl::nd_item<1> it) {
            const auto l = it.get_local_id(0), size = it.get_local_range(0);
            tile[l] = static_cast<int>(it.get_global_id(0));
            sycl::group_barrier(it.get_group());
            o[it.get_global_id(0)] = tile[size - 1 - l] * 100 + static_cast<int>(size);
        });
    });
    auto hexec = h.finalize({sycl_ext::property::graph::updatable{}});
    reverse.update_range(sycl::range<1>{12});
    hexec.update(reverse);
    q.ext_oneapi_graph(hexec).wait();
    seen = out.read();
    for (int i = 0; i < 12; ++i)
        CHECK(seen[i] == (i / 6 * 6 + 5 - i % 6) * 100 + 6);
    CHECK(seen[12] == -1);
}

// sycl_ext_oneapi_work_group_memory in a graph node (an array and a value per work-group), and its node updated to
// another nd_range: the memory follows the groups.
TEST_CASE("work_group_memory: an array and a value per work-group, in a graph node whose nd_range is updated") {
    sycl::queue q;
    constexpr std::size_t n = 64;
    shared_array<int> a(q, n);
    int* out = a.data;
    sycl_ext::command_graph g{q};
    auto node = g.add([&](sycl::handler& h) {
        sycl_ext::work_group_memory<int[]> tile{group_size, h};
        sycl_ext::work_group_memory<int> total{h};
        h.parallel_for(sycl::nd_range<1>{{n}, {group_size}}, [=](sycl::nd_item<1> it) {
            const auto l = it.get_local_id(0);
            tile[l] = static_cast<int>(it.get_global_id(0));
            sycl::group_barrier(it.get_group());
            if (l == 0) {
                int sum = 0;
                for (std::size_t k = 0; k < group_size; ++k)
                    sum += tile[k];
                total = sum;
            }
            sycl::group_barrier(it.get_group());
            out[it.get_global_id(0)] = tile[group_size - 1 - l] + static_cast<int>(total);
        });
    });
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    auto expected = [&](std::size_t i) {
        const int first = static_cast<int>(i / group_size * group_size);
        return first + static_cast<int>(group_size - 1 - i % group_size) + 8 * first + 28; // the group's sum
    };
    q.ext_oneapi_graph(exec).wait();
    auto seen = a.read();
    for (std::size_t i = 0; i < n; ++i)
        CHECK(seen[i] == expected(i));
    a.fill(-1);
    node.update_nd_range(sycl::nd_range<1>{{16}, {group_size}});
    exec.update(node);
    q.ext_oneapi_graph(exec).wait();
    seen = a.read();
    CHECK(seen[15] == expected(15));
    CHECK(seen[16] == -1);
    check_refused([&] { g.add([&](sycl::handler& h) { sycl_ext::work_group_memory<int[]> none{0, h}; }); },
                  "at least one element");
}

namespace {
// A work-group of `local` items reverses its slice through `tile` and `spare` (two local allocations, so a size
// that did not follow its update would make them overlap), then item 0 writes how many elements `spare` holds. One
// kernel type for every graph of the test: whole-graph update takes the same kernels.
sycl_ext::node add_reverse(sycl_ext::command_graph<sycl_ext::graph_state::modifiable>& g, std::size_t n,
                           std::size_t local, int* out, int* held, sycl_ext::dynamic_work_group_memory<int[]> tile,
                           sycl_ext::dynamic_local_accessor<int, 1> spare) {
    return g.add([&](sycl::handler& h) {
        h.parallel_for(sycl::nd_range<1>{{n}, {local}}, [=](sycl::nd_item<1> it) {
            auto t = tile.get();
            auto s = spare.get();
            const auto l = it.get_local_id(0), size = it.get_local_range(0);
            t[l] = static_cast<int>(it.get_global_id(0));
            s[l] = -1;
            sycl::group_barrier(it.get_group());
            out[it.get_global_id(0)] = t[size - 1 - l];
            if (l == 0) held[it.get_group(0)] = static_cast<int>(s.get_range()[0]);
        });
    });
}
} // namespace

TEST_CASE("dynamic_work_group_memory and dynamic_local_accessor captured by the kernel, resized by graph update") {
    sycl::queue q;
    constexpr std::size_t n = 64;
    shared_array<int> a(q, n), sizes(q, n);
    sycl_ext::command_graph g{q};
    sycl_ext::dynamic_work_group_memory<int[]> tile(g, 8);
    sycl_ext::dynamic_local_accessor<int, 1> spare(g, sycl::range<1>{8});
    auto node = add_reverse(g, n, 8, a.data, sizes.data, tile, spare);
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    auto check_reversed = [&](std::size_t local) {
        const auto seen = a.read();
        for (std::size_t i = 0; i < n; ++i)
            REQUIRE(seen[i] == static_cast<int>(i / local * local + (local - 1 - i % local)));
        const auto counts = sizes.read();
        for (std::size_t group = 0; group < n / local; ++group)
            CHECK(counts[group] == static_cast<int>(local));
    };
    q.ext_oneapi_graph(exec).wait();
    check_reversed(8);

    // Bigger work-groups need more of both: resized with the nd_range, in the executable graph by update(node).
    tile.update(32);
    spare.update(sycl::range<1>{32});
    node.update_nd_range(sycl::nd_range<1>{{n}, {32}});
    q.ext_oneapi_graph(exec).wait();
    check_reversed(8); // not updated yet
    exec.update(node);
    q.ext_oneapi_graph(exec).wait();
    check_reversed(32);

    // Whole-graph update from a graph whose objects hold other sizes.
    sycl_ext::command_graph other{q};
    sycl_ext::dynamic_work_group_memory<int[]> other_tile(other, 16);
    sycl_ext::dynamic_local_accessor<int, 1> other_spare(other, sycl::range<1>{16});
    add_reverse(other, n, 16, a.data, sizes.data, other_tile, other_spare);
    exec.update(other);
    q.ext_oneapi_graph(exec).wait();
    check_reversed(16);

    // Outside a kernel, get() has no work-group to answer for.
    check_refused([&] { static_cast<void>(tile.get()); }, "outside the kernel");
    check_refused([&] { static_cast<void>(spare.get()); }, "outside the kernel");
    check_refused([&] { tile.update(0); }, "at least one element");
}

TEST_CASE("dynamic local memory captured by two nodes and by an eager kernel: one allocation per kernel") {
    sycl::queue q{sycl::property::queue::in_order{}};
    constexpr std::size_t n = 32;
    shared_array<int> a(q, n);
    int* out = a.data;
    sycl_ext::dynamic_work_group_memory<int[]> tile(8); // made without a graph: joins the first that uses it
    auto reverse = [=](sycl::nd_item<1> it) {
        auto t = tile.get();
        const auto l = it.get_local_id(0), size = it.get_local_range(0);
        t[l] = out[it.get_global_id(0)];
        sycl::group_barrier(it.get_group());
        out[it.get_global_id(0)] = t[size - 1 - l];
    };
    for (std::size_t i = 0; i < n; ++i)
        a.data[i] = static_cast<int>(i);
    // Eagerly, like a dynamic_parameter: refused (it belongs to graph nodes).
    check_refused([&] { q.submit([&](sycl::handler& h) { h.parallel_for(sycl::nd_range<1>{{n}, {8}}, reverse); }); },
                  "added to its graph");

    sycl_ext::command_graph g{q};
    auto first = g.add([&](sycl::handler& h) { h.parallel_for(sycl::nd_range<1>{{n}, {8}}, reverse); });
    auto second = g.add([&](sycl::handler& h) { h.parallel_for(sycl::nd_range<1>{{n}, {8}}, reverse); },
                        {sycl_ext::property::node::depends_on(first)});
    auto exec = g.finalize({sycl_ext::property::graph::updatable{}});
    q.ext_oneapi_graph(exec).wait(); // reversed twice: back to the start
    CHECK(a.read()[0] == 0);
    CHECK(a.read()[9] == 9);
    tile.update(16);
    first.update_nd_range(sycl::nd_range<1>{{n}, {16}});
    exec.update(std::vector{first, second});
    q.ext_oneapi_graph(exec).wait(); // groups of 16, then of 8
    std::vector<int> expected(n); // the identity, reversed in 16-slices, then in 8-slices
    for (std::size_t i = 0; i < n; ++i)
        expected[i] = static_cast<int>(i);
    auto apply = [&](std::size_t local) {
        std::vector<int> next(n);
        for (std::size_t i = 0; i < n; ++i)
            next[i] = expected[i / local * local + (local - 1 - i % local)];
        expected = next;
    };
    apply(16);
    apply(8);
    CHECK(a.read() == expected);
}

// encore-outliner's layout and identity test input: kernels of every parameter kind and every launch form. The
// build runs encore-outliner on this file; the test is this file compiled by g++ with the integration header it
// wrote (-include), run on the native backend. Each kernel object is handed to check_kernel, which compares it as
// g++ laid it out with the header (tests/compiler/layout_check.hpp).
#include <sycl/sycl.hpp>

#include <array>
#include <cstdint>

#include "layout_check.hpp"

namespace syclex = sycl::ext::oneapi::experimental;
using layout_check::check_kernel;
using layout_check::expect;
using layout_check::expect_array;

namespace kinds {

struct params {
    float a;
    std::int32_t b;
    double c;
};

// A struct holding accessors: decomposed member by member.
struct acc_pair {
    int m;
    sycl::accessor<int, 1, sycl::access_mode::read> in[2];
    sycl::accessor<int, 1, sycl::access_mode::write> out;
};

int twice(int x) { return 2 * x; }

// A named functor with a USM pointer and scalars.
struct saxpy {
    float a;
    const float* x;
    float* y;
    void operator()(sycl::id<1> i) const { y[i] = a * x[i] + y[i]; }
};

// An unnamed functor holding an accessor.
struct increment {
    sycl::accessor<int, 1, sycl::access_mode::read_write> data;
    int by;
    void operator()(sycl::item<1> it) const { data[it] += by; }
};

// A lambda kernel in a function template, instantiated twice: two kernels.
template <typename T, int N> void fill_with(sycl::queue& q, T* p, T v) {
    constexpr int bias = 1; // read in the kernel, not captured
    auto k = [=](sycl::id<1> i) { p[i] = v * N + bias; };
    check_kernel(k, {expect("p", p), expect("v", v)});
    q.parallel_for(sycl::range<1>{4}, k).wait();
}

// A lambda kernel in a member function, reading a static member unqualified.
struct runner {
    static constexpr int factor = 3;
    void run(sycl::queue& q, int* p) {
        auto k = [=](sycl::id<1> i) { p[i] = twice(p[i]) * factor; };
        check_kernel(k, {expect("p", p)});
        q.parallel_for<class member_kernel>(sycl::range<1>{4}, k).wait();
    }
};

} // namespace kinds

TEST_CASE("every kernel of kernel_kinds.cpp is registered with the layout g++ gives it") {
    sycl::queue q;
    int* usm = sycl::malloc_shared<int>(64, q);
    float* fx = sycl::malloc_shared<float>(16, q);
    float* fy = sycl::malloc_shared<float>(16, q);
    for (int i = 0; i < 64; ++i) usm[i] = i;
    for (int i = 0; i < 16; ++i) fx[i] = fy[i] = 1.0f;

    // Scalars of several sizes (padding between them), a queue shortcut, named.
    {
        char c = 'x';
        double d = 2.5;
        std::int16_t s = 7;
        float f = 1.5f;
        int* out = usm;
        auto k = [=](sycl::id<1> i) { out[i] = static_cast<int>(c + d + s + f); };
        check_kernel(k, {expect("c", c), expect("d", d), expect("s", s), expect("f", f), expect("out", out)});
        q.parallel_for<class scalars>(sycl::range<1>{4}, k).wait();
        CHECK(usm[0] == static_cast<int>('x' + 2.5 + 7 + 1.5f));
    }
    // A std-layout struct, a C array, std::array and init-captures; unnamed, in a command group.
    {
        kinds::params ps{1.0f, 2, 3.0};
        int table[4] = {1, 2, 3, 4};
        std::array<float, 3> weights{0.5f, 0.25f, 0.125f};
        int* out = usm;
        q.submit([&](sycl::handler& h) {
            auto k = [=, scale = 3, target = out + 8](sycl::id<1> i) {
                target[i] = static_cast<int>(ps.a + ps.b + ps.c + table[i] * weights[i % 3]) * scale;
            };
            check_kernel(k, {expect("ps", ps), expect_array("table", table), expect("weights", weights),
                             expect("scale", 3), expect("target", out + 8)});
            h.parallel_for(sycl::range<1>{4}, k);
        }).wait();
        CHECK(usm[8] == static_cast<int>(1.0f + 2 + 3.0 + 1 * 0.5f) * 3);
    }
    // Accessors of 1, 2 and 3 dimensions and several modes.
    {
        sycl::buffer<int, 1> b1{sycl::range<1>{8}};
        sycl::buffer<float, 2> b2{sycl::range<2>{4, 4}};
        sycl::buffer<double, 3> b3{sycl::range<3>{2, 2, 2}};
        q.submit([&](sycl::handler& h) {
            sycl::accessor a1{b1, h, sycl::write_only, sycl::no_init};
            sycl::accessor a2{b2, h, sycl::read_write};
            sycl::accessor a3{b3, h, sycl::write_only};
            auto k = [=](sycl::id<1> i) {
                a1[i] = static_cast<int>(i[0]);
                a2[sycl::id<2>{i[0] % 4, 0}] = 1.0f;
                a3[sycl::id<3>{i[0] % 2, 0, 0}] = 2.0;
            };
            check_kernel(k, {expect("a1", a1), expect("a2", a2), expect("a3", a3)});
            h.parallel_for<class accessor_modes>(sycl::range<1>{8}, k);
        });
        {
            sycl::host_accessor r{b1, sycl::read_only}; // later commands on b1 wait while it lives
            CHECK(r[7] == 7);
        }
        q.submit([&](sycl::handler& h) {
            sycl::accessor in{b1, h, sycl::read_only};
            sycl::accessor a2{b2, h, sycl::read_write};
            auto k = [=](sycl::item<2> it) { a2[it] += static_cast<float>(in[it[0]]); };
            check_kernel(k, {expect("in", in), expect("a2", a2)});
            h.parallel_for(sycl::range<2>{4, 4}, k);
        }).wait();
    }
    // Local accessors with an nd_range, and an nd_range kernel in two dimensions.
    {
        int* out = usm + 16;
        q.submit([&](sycl::handler& h) {
            sycl::local_accessor<int, 1> scratch{sycl::range<1>{4}, h};
            auto k = [=](sycl::nd_item<1> it) {
                scratch[it.get_local_id(0)] = static_cast<int>(it.get_global_id(0));
                out[it.get_global_id(0)] = scratch[it.get_local_id(0)] + 1;
            };
            check_kernel(k, {expect("scratch", scratch), expect("out", out)});
            h.parallel_for(sycl::nd_range<1>{sycl::range<1>{8}, sycl::range<1>{4}}, k);
        }).wait();
        CHECK(usm[16 + 5] == 6);
        auto k2 = [=](sycl::nd_item<2> it) { out[it.get_global_linear_id()] = 0; };
        check_kernel(k2, {expect("out", out)});
        q.parallel_for<class nd_two>(sycl::nd_range<2>{sycl::range<2>{4, 2}, sycl::range<2>{2, 2}}, k2).wait();
    }
    // Constants of the enclosing function read in a kernel inside a [&] command group: g++ captures them (Clang
    // does not), in order of first use among the captures (compiler/outliner/gcc_captures.hpp).
    {
        constexpr std::size_t bins = 8;
        constexpr short bias = 3;
        int* out = usm + 24;
        q.submit([&](sycl::handler& h) {
            auto k = [=](sycl::id<1> i) { out[i % bins] = static_cast<int>(i[0]) + bias; };
            check_kernel(k, {expect("out", out), expect("bins", bins), expect("bias", bias)});
            h.parallel_for(sycl::range<1>{8}, k);
        }).wait();
        CHECK(usm[24 + 2] == 5);
    }
    // An array of accessors and a struct holding accessors.
    {
        sycl::buffer<int, 1> x{sycl::range<1>{4}}, y{sycl::range<1>{4}}, z{sycl::range<1>{4}};
        q.submit([&](sycl::handler& h) {
            sycl::accessor<int, 1, sycl::access_mode::write> outs[2] = {sycl::accessor{x, h, sycl::write_only},
                                                                         sycl::accessor{y, h, sycl::write_only}};
            auto k = [=](sycl::id<1> i) {
                outs[0][i] = 1;
                outs[1][i] = 2;
            };
            check_kernel(k, {expect("outs[0]", outs[0]), expect("outs[1]", outs[1])});
            h.parallel_for<class accessor_array>(sycl::range<1>{4}, k);
        });
        q.submit([&](sycl::handler& h) {
            kinds::acc_pair pair{5,
                                 {sycl::accessor{x, h, sycl::read_only}, sycl::accessor{y, h, sycl::read_only}},
                                 sycl::accessor{z, h, sycl::write_only}};
            auto k = [=](sycl::id<1> i) { pair.out[i] = pair.m + pair.in[0][i] + pair.in[1][i]; };
            check_kernel(k, {expect("pair.m", pair.m), expect("pair.in[0]", pair.in[0]),
                             expect("pair.in[1]", pair.in[1]), expect("pair.out", pair.out)});
            h.parallel_for(sycl::range<1>{4}, k);
        });
        sycl::host_accessor r{z, sycl::read_only};
        CHECK(r[3] == 8);
    }
    // single_task, the enqueue functions, a reduction.
    {
        int* out = usm + 32;
        auto one = [=] { out[0] = 42; };
        check_kernel(one, {expect("out", out)});
        q.single_task<class one_task>(one).wait();
        CHECK(usm[32] == 42);

        auto free_pf = [=](sycl::id<1> i) { out[1 + i[0]] = 7; };
        check_kernel(free_pf, {expect("out", out)});
        syclex::parallel_for(q, sycl::range<1>{2}, free_pf);
        auto free_nd = [=](sycl::nd_item<1> it) { out[3 + it.get_global_id(0)] = 8; };
        check_kernel(free_nd, {expect("out", out)});
        syclex::nd_launch(q, sycl::nd_range<1>{sycl::range<1>{2}, sycl::range<1>{1}}, free_nd);
        syclex::submit(q, [&](sycl::handler& h) {
            auto in_group = [=] { out[5] = 9; };
            check_kernel(in_group, {expect("out", out)});
            syclex::single_task(h, in_group);
        });
        q.wait();
        CHECK(usm[33] == 7);
        CHECK(usm[36] == 8);
        CHECK(usm[37] == 9);

        int* sum = sycl::malloc_shared<int>(1, q);
        *sum = 0;
        auto reduce = [=](sycl::id<1> i, auto& r) { r += out[i]; };
        check_kernel(reduce, {expect("out", out)});
        q.parallel_for(sycl::range<1>{2}, sycl::reduction(sum, sycl::plus<int>()), reduce).wait();
        CHECK(*sum == 42 + 7);
        sycl::free(sum, q);
    }
    // Functors, named and unnamed.
    {
        kinds::saxpy f{2.0f, fx, fy};
        check_kernel(f, {expect("a", 2.0f), expect("x", static_cast<const float*>(fx)), expect("y", fy)});
        q.parallel_for<class saxpy_kernel>(sycl::range<1>{16}, f).wait();
        CHECK(fy[3] == 3.0f);
        sycl::buffer<int, 1> b{sycl::range<1>{4}};
        q.submit([&](sycl::handler& h) {
            kinds::increment inc{sycl::accessor{b, h, sycl::read_write}, 2};
            check_kernel(inc, {expect("data", inc.data), expect("by", 2)});
            h.parallel_for(sycl::range<1>{4}, inc);
        });
    }
    // Graphs: a node added with command_graph::add, and a recorded submission.
    {
        syclex::command_graph g{q};
        int* out = usm + 40;
        g.add([&](sycl::handler& h) {
            auto k = [=](sycl::id<1> i) { out[i] = 11; };
            check_kernel(k, {expect("out", out)});
            h.parallel_for(sycl::range<1>{2}, k);
        });
        g.begin_recording(q);
        auto recorded = [=](sycl::id<1> i) { out[2 + i[0]] = 12; };
        check_kernel(recorded, {expect("out", out)});
        q.parallel_for<class recorded_kernel>(sycl::range<1>{2}, recorded);
        g.end_recording();
        auto exec = g.finalize();
        q.ext_oneapi_graph(exec).wait();
        CHECK(usm[41] == 11);
        CHECK(usm[43] == 12);
    }
    // A lambda in a function template instantiated twice; a lambda in a member function.
    {
        kinds::fill_with<int, 2>(q, usm + 48, 5);
        double* dp = sycl::malloc_shared<double>(4, q);
        kinds::fill_with<double, 3>(q, dp, 0.5);
        CHECK(usm[48] == 11);
        CHECK(dp[0] == 2.5);
        sycl::free(dp, q);
        kinds::runner{}.run(q, usm + 56);
        CHECK(usm[57] == 57 * 2 * 3);
    }
    q.wait();
    sycl::free(usm, q);
    sycl::free(fx, q);
    sycl::free(fy, q);

    // Every kernel of this file was registered and checked.
    std::set<std::string> registered;
    for (const encore::compiler::kernel_descriptor* d : encore::compiler::registered_kernels())
        registered.insert(d->type_name);
    CHECK(registered == layout_check::checked());
    CHECK(registered.size() == 21);
}

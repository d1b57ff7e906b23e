// SYCL 2020 section 4.9.5 (specialization constants): specialization_id at namespace scope, in a namespace, in an
// anonymous namespace and as a static member; handler::set/get_specialization_constant; kernel_handler in
// parallel_for over a range and an nd_range, single_task and a kernel with a reduction; values of scalar, bool and
// struct types; a new value for each launch of one kernel; the values kept by a graph node; the values of an input
// kernel bundle reaching a kernel through use_kernel_bundle; and the errors the specification gives. Each result is
// compared with the value the host set. One body built three ways (tests/conformance/meson.build,
// tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <sycl/sycl.hpp>

#include "shared_array.hpp"

namespace syclex = sycl::ext::oneapi::experimental;

struct coefficients {
    float scale;
    int offset;
    short steps[3];
};

constexpr sycl::specialization_id<int> width{16};
constexpr sycl::specialization_id<float> ratio{0.5f};
constexpr sycl::specialization_id<double> precise{2.25};
constexpr sycl::specialization_id<bool> enabled{true};
constexpr sycl::specialization_id<coefficients> coeffs{coefficients{1.5f, -3, {1, 2, 3}}};
namespace tuning {
constexpr sycl::specialization_id<std::uint64_t> seed{0x1234567890abcdefull};
struct limits {
    static constexpr sycl::specialization_id<int> depth{4};
};
} // namespace tuning
namespace {
constexpr sycl::specialization_id<char> marker{'a'};
}

struct big {
    char bytes[400];
};
constexpr sycl::specialization_id<big> first_big{};
constexpr sycl::specialization_id<big> second_big{};

class spec_bundle_kernel;
class spec_other_kernel;
class spec_missing_kernel;

TEST_CASE("spec constants: a kernel reads the values set, and the defaults of those not set") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    constexpr std::size_t n = 64;
    auto* ints = shared_array<std::int64_t>(q, n * 4);
    auto* reals = shared_array<double>(q, n * 3);
    q.submit([&](sycl::handler& h) {
         h.set_specialization_constant<width>(40);
         h.set_specialization_constant<precise>(-7.125);
         h.set_specialization_constant<tuning::seed>(0xfedcba9876543210ull);
         h.set_specialization_constant<tuning::limits::depth>(9);
         CHECK(h.get_specialization_constant<width>() == 40);
         CHECK(h.get_specialization_constant<ratio>() == 0.5f); // not set: the default
         h.parallel_for(sycl::range<1>{n}, [=](sycl::item<1> it, sycl::kernel_handler kh) {
             const std::size_t i = it.get_linear_id();
             ints[i * 4] = kh.get_specialization_constant<width>() + static_cast<int>(i);
             ints[i * 4 + 1] = static_cast<std::int64_t>(kh.get_specialization_constant<tuning::seed>() >> 4);
             ints[i * 4 + 2] = kh.get_specialization_constant<tuning::limits::depth>();
             ints[i * 4 + 3] = kh.get_specialization_constant<marker>();
             reals[i * 3] = kh.get_specialization_constant<ratio>();
             reals[i * 3 + 1] = kh.get_specialization_constant<precise>();
             reals[i * 3 + 2] = kh.get_specialization_constant<enabled>() ? 1.0 : 0.0;
         });
     }).wait();
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        CHECK(ints[i * 4] == 40 + static_cast<std::int64_t>(i));
        CHECK(ints[i * 4 + 1] == static_cast<std::int64_t>(0xfedcba9876543210ull >> 4));
        CHECK(ints[i * 4 + 2] == 9);
        CHECK(ints[i * 4 + 3] == 'a');
        CHECK(reals[i * 3] == 0.5);
        CHECK(reals[i * 3 + 1] == -7.125);
        CHECK(reals[i * 3 + 2] == 1.0);
    }
    sycl::free(ints, q);
    sycl::free(reals, q);
}

TEST_CASE("spec constants: struct values, bools, and a new value for each launch of one kernel") {
    sycl::queue q;
    constexpr std::size_t n = 32, launches = 3;
    auto* out = shared_array<float>(q, n * launches);
    auto launch = [&](std::size_t round) {
        q.submit([&](sycl::handler& h) {
             if (round > 0)
                 h.set_specialization_constant<coeffs>(coefficients{2.f * round, int(round), {4, 5, short(round)}});
             h.set_specialization_constant<enabled>(round != 2);
             h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i, sycl::kernel_handler kh) {
                 const coefficients c = kh.get_specialization_constant<coeffs>();
                 const float v = c.scale * i[0] + c.offset + c.steps[0] + c.steps[1] + c.steps[2];
                 out[round * n + i[0]] = kh.get_specialization_constant<enabled>() ? v : -v;
             });
         }).wait();
    };
    for (std::size_t round = 0; round < launches; ++round)
        launch(round);
    for (std::size_t round = 0; round < launches; ++round)
        for (std::size_t i = 0; i < n; ++i) {
            CAPTURE(round);
            CAPTURE(i);
            const coefficients c = round == 0 ? coefficients{1.5f, -3, {1, 2, 3}}
                                              : coefficients{2.f * round, int(round), {4, 5, short(round)}};
            const float v = c.scale * i + c.offset + c.steps[0] + c.steps[1] + c.steps[2];
            CHECK(out[round * n + i] == (round != 2 ? v : -v));
        }
    sycl::free(out, q);
}

TEST_CASE("spec constants: nd_range kernels and single_task take a kernel_handler") {
    sycl::queue q;
    constexpr std::size_t n = 256, local = 64;
    auto* out = shared_array<int>(q, n + 1);
    q.submit([&](sycl::handler& h) {
         h.set_specialization_constant<width>(3);
         h.parallel_for(sycl::nd_range<1>{n, local}, [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
             out[it.get_global_id(0)] = kh.get_specialization_constant<width>() * static_cast<int>(it.get_group(0));
         });
     }).wait();
    q.submit([&](sycl::handler& h) {
         h.set_specialization_constant<tuning::limits::depth>(-11);
         h.single_task([=](sycl::kernel_handler kh) {
             out[n] = kh.get_specialization_constant<tuning::limits::depth>();
         });
     }).wait();
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        CHECK(out[i] == 3 * static_cast<int>(i / local));
    }
    CHECK(out[n] == -11);
    sycl::free(out, q);
}

// Apart from the others: encore++'s spir64 target does not build reductions yet.
TEST_CASE("spec constants: a kernel with a reduction takes a kernel_handler" * doctest::test_suite("reduction")) {
    sycl::queue q;
    constexpr std::size_t n = 256;
    auto* sum = shared_array<int>(q, 1);
    q.submit([&](sycl::handler& h) {
         h.set_specialization_constant<width>(5);
         h.parallel_for(sycl::range<1>{n}, sycl::reduction(sum, sycl::plus<int>()),
                        [=](sycl::id<1> i, auto& total, sycl::kernel_handler kh) {
                            total += kh.get_specialization_constant<width>() + static_cast<int>(i[0] % 2);
                        });
     }).wait();
    CHECK(*sum == 5 * static_cast<int>(n) + static_cast<int>(n / 2));
    sycl::free(sum, q);
}

TEST_CASE("spec constants: a graph node keeps the values its command group set") {
    sycl::queue q;
    constexpr std::size_t n = 16;
    auto* out = shared_array<int>(q, n);
    syclex::command_graph g{q.get_context(), q.get_device()};
    g.add([&](sycl::handler& h) {
        h.set_specialization_constant<width>(70);
        h.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i, sycl::kernel_handler kh) {
            out[i] += kh.get_specialization_constant<width>();
        });
    });
    auto exec = g.finalize();
    q.ext_oneapi_graph(exec).wait();
    q.ext_oneapi_graph(exec).wait();
    for (std::size_t i = 0; i < n; ++i)
        CHECK(out[i] == 140);
    sycl::free(out, q);
}

TEST_CASE("spec constants: an input bundle's values reach the kernel through use_kernel_bundle") {
    sycl::queue q;
    constexpr std::size_t n = 8;
    auto* out = shared_array<int>(q, n * 2);
    auto launch = [&](const sycl::kernel_bundle<sycl::bundle_state::executable>& exe) {
        q.submit([&](sycl::handler& h) {
             h.use_kernel_bundle(exe);
             h.parallel_for<spec_bundle_kernel>(sycl::range<1>{n}, [=](sycl::id<1> i, sycl::kernel_handler kh) {
                 out[i[0] * 2] = kh.get_specialization_constant<width>();
                 out[i[0] * 2 + 1] = kh.get_specialization_constant<tuning::limits::depth>();
             });
         }).wait();
    };
    auto input = sycl::get_kernel_bundle<sycl::bundle_state::input>(q.get_context());
    CHECK(input.contains_specialization_constants());
    CHECK(input.has_specialization_constant<width>());
    CHECK_FALSE(input.native_specialization_constant());
    CHECK(input.get_specialization_constant<width>() == 16);
    input.set_specialization_constant<width>(123);
    CHECK(input.get_specialization_constant<width>() == 123);
    auto exe = sycl::build(input);
    CHECK(exe.get_specialization_constant<width>() == 123);
    launch(exe);
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(out[i * 2] == 123);
        CHECK(out[i * 2 + 1] == 4);
    }
    // Through compile and link, and a copy of the input bundle sharing its values.
    auto copy = input;
    copy.set_specialization_constant<tuning::limits::depth>(-2);
    CHECK(input.get_specialization_constant<tuning::limits::depth>() == -2);
    launch(sycl::link(sycl::compile(input)));
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(out[i * 2] == 123);
        CHECK(out[i * 2 + 1] == -2);
    }
    sycl::free(out, q);
}

TEST_CASE("spec constants: the errors the specification gives") {
    sycl::queue q;
    auto exe = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());
    auto code_of = [&](auto&& cgf) { return errc_of([&] { q.submit(cgf); }); };
    // A bound bundle's values are the group's: setting or reading the group's own is an error.
    CHECK(code_of([&](sycl::handler& h) {
              h.use_kernel_bundle(exe);
              h.set_specialization_constant<width>(1);
          }) == sycl::errc::invalid);
    CHECK(code_of([&](sycl::handler& h) {
              h.use_kernel_bundle(exe);
              static_cast<void>(h.get_specialization_constant<width>());
          }) == sycl::errc::invalid);
    CHECK(code_of([&](sycl::handler& h) {
              h.set_specialization_constant<width>(1);
              h.use_kernel_bundle(exe);
          }) == sycl::errc::invalid);
    // The values of one launch have a capacity.
    CHECK(code_of([&](sycl::handler& h) {
              h.set_specialization_constant<first_big>(big{});
              h.set_specialization_constant<second_big>(big{});
          }) == sycl::errc::invalid);
    // A bundle that lacks the kernel.
    auto other = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context(),
                                                                         {sycl::get_kernel_id<spec_other_kernel>()});
    int* out = shared_array<int>(q, 1);
    CHECK(code_of([&](sycl::handler& h) {
              h.use_kernel_bundle(other);
              h.single_task<spec_missing_kernel>(
                  [=](sycl::kernel_handler kh) { *out = kh.get_specialization_constant<width>(); });
          }) == sycl::errc::kernel_not_supported);
    q.submit([&](sycl::handler& h) { h.single_task<spec_other_kernel>([=] { *out = 1; }); }).wait();
    CHECK(*out == 1);
    sycl::free(out, q);
}

// sycl_ext_oneapi_kernel_properties as Encore takes them: work_group_size (checked against the nd_range, or
// the work-group size of a range launch), work_group_size_hint (accepted), sub_group_size (32 only), device_has
// (checked against the device); given to parallel_for / single_task, the queue shortcuts, launch_config, or
// by a functor's get(properties_tag). One body built three ways: by g++ (tests/sycl/meson.build; kernels compiled
// for the host, so the native backend only), by encore++ for the native target and for cuda:sm_90,native
// (tests/compiler/meson.build; the CUDA build's default queue is the GPU where there is one).
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include <sycl/sycl.hpp>

#include "../support/sycl_error.hpp"

namespace syclexp = sycl::ext::oneapi::experimental;
using encore::testing::require_sycl_error;

TEST_SUITE_BEGIN("native");

namespace {

// A functor that states its work-group size.
struct groups_of_four {
    int* out;
    void operator()(sycl::nd_item<1> it) const {
        out[it.get_global_id(0)] = static_cast<int>(it.get_local_range(0));
    }
    auto get(syclexp::properties_tag) const { return syclexp::properties{syclexp::work_group_size<4>}; }
};

} // namespace

TEST_CASE("work_group_size: the nd_range must have it; a range launch runs in it") {
    sycl::queue q{sycl::property::queue::in_order{}};
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    int* out = sycl::malloc_shared<int>(64, q);
    REQUIRE(out);
    const syclexp::properties eight{syclexp::work_group_size<8>};
    q.submit([&](sycl::handler& h) {
         h.parallel_for(sycl::nd_range<1>{{64}, {8}}, eight, [=](sycl::nd_item<1> it) {
             out[it.get_global_id(0)] = static_cast<int>(it.get_local_range(0));
         });
     }).wait();
    CHECK(out[63] == 8);
    require_sycl_error(
        [&] {
            q.parallel_for(sycl::nd_range<1>{{64}, {16}}, eight,
                           [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = 0; });
        },
        sycl::errc::nd_range, "runs in work-groups of 8 (work_group_size)");
    require_sycl_error(
        [&] {
            q.parallel_for(sycl::nd_range<2>{{8, 8}, {8, 1}}, eight, [=](sycl::nd_item<2>) {});
        },
        sycl::errc::nd_range, "has 1 dimension(s); the launch has 2");

    // A range launch takes the size (the kernel runs in groups of it), which must divide the range.
    q.parallel_for(sycl::range<1>{64}, eight, [=](sycl::id<1> i) { out[i] = 1; }).wait();
    CHECK(out[0] == 1);
    require_sycl_error([&] { q.parallel_for(sycl::range<1>{60}, eight, [=](sycl::id<1>) {}); },
                       sycl::errc::nd_range, "do not divide the range");
    const syclexp::properties two_d{syclexp::work_group_size<2, 4>};
    q.parallel_for(sycl::nd_range<2>{{4, 8}, {2, 4}}, two_d, [=](sycl::nd_item<2> it) {
         out[it.get_global_linear_id()] = static_cast<int>(it.get_local_range(1));
     }).wait();
    CHECK(out[31] == 4);
    require_sycl_error(
        [&] {
            q.parallel_for(sycl::nd_range<2>{{4, 8}, {4, 2}}, two_d, [=](sycl::nd_item<2>) {});
        },
        sycl::errc::nd_range, "differs in dimension 0");

    // single_task is one work-item.
    require_sycl_error(
        [&] { q.single_task(syclexp::properties{syclexp::work_group_size<2>}, [=] { out[0] = 2; }); },
        sycl::errc::nd_range, "do not divide");
    q.single_task(syclexp::properties{syclexp::work_group_size<1>}, [=] { out[0] = 3; }).wait();
    CHECK(out[0] == 3);
    sycl::free(out, q);
}

TEST_CASE("kernel properties from a functor's get(properties_tag), launch_config and the other properties") {
    sycl::queue q{sycl::property::queue::in_order{}};
    int* out = sycl::malloc_shared<int>(32, q);
    REQUIRE(out);
    q.parallel_for(sycl::nd_range<1>{{32}, {4}}, groups_of_four{out}).wait();
    CHECK(out[31] == 4);
    require_sycl_error(
        [&] {
            q.parallel_for(sycl::nd_range<1>{{32}, {8}}, groups_of_four{out});
        },
        sycl::errc::nd_range, "work-groups of 4");

    syclexp::nd_launch(q,
                       syclexp::launch_config(sycl::nd_range<1>{{32}, {16}},
                                              syclexp::properties{syclexp::work_group_size<16>}),
                       [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = 16; });
    q.wait();
    CHECK(out[0] == 16);
    require_sycl_error(
        [&] {
            syclexp::nd_launch(q,
                               syclexp::launch_config(sycl::nd_range<1>{{32}, {8}},
                                                      syclexp::properties{syclexp::work_group_size<16>}),
                               [=](sycl::nd_item<1>) {});
        },
        sycl::errc::nd_range, "work_group_size");

    // Accepted: the hint (without effect), and the sub-group size Encore's sub-groups have (32); another size is
    // refused (tests/conformance/sub_group.cpp has the functor form).
    q.parallel_for(sycl::nd_range<1>{{32}, {8}},
                   syclexp::properties{syclexp::work_group_size_hint<8>, syclexp::sub_group_size<32>},
                   [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = 5; })
        .wait();
    CHECK(out[7] == 5);
    auto six = [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = 6; };
    CHECK_THROWS_WITH_AS(q.parallel_for(sycl::nd_range<1>{{32}, {8}}, syclexp::properties{syclexp::sub_group_size<8>}, six),
                         doctest::Contains("requires sub-groups of 8"), sycl::exception);
    CHECK(out[7] == 5);

    // device_has: the device's own type is accepted, the other refused (the native CPU device is a cpu; a CUDA
    // device, in the program encore++ builds for it, a gpu).
    const bool gpu = q.get_device().has(sycl::aspect::gpu);
    auto launch_with = [&](auto property, int value) {
        q.parallel_for(sycl::range<1>{32}, syclexp::properties{property}, [=](sycl::id<1> i) { out[i] = value; });
    };
    if (gpu)
        launch_with(syclexp::device_has<sycl::aspect::gpu>, 6);
    else
        launch_with(syclexp::device_has<sycl::aspect::cpu>, 6);
    q.wait();
    CHECK(out[31] == 6);
    require_sycl_error(
        [&] {
            if (gpu)
                launch_with(syclexp::device_has<sycl::aspect::cpu>, 7);
            else
                launch_with(syclexp::device_has<sycl::aspect::gpu>, 7);
        },
        sycl::errc::kernel_not_supported, "device_has");
    CHECK(out[31] == 6);
    sycl::free(out, q);
}

TEST_CASE("kernel properties in a graph node: refused at add, the graph left as it was") {
    sycl::queue q;
    syclexp::command_graph g{q.get_context(), q.get_device()};
    require_sycl_error(
        [&] {
            g.add([&](sycl::handler& h) {
                h.parallel_for(sycl::nd_range<1>{{16}, {16}},
                               syclexp::properties{syclexp::work_group_size<8>}, [=](sycl::nd_item<1>) {});
            });
        },
        sycl::errc::nd_range, "work_group_size");
    CHECK(g.get_nodes().empty());
}

TEST_SUITE_END();

// SYCL 2020 section 4.11 (kernel bundles) for the application's lambda and function-object kernels: get_kernel_id
// of a named lambda kernel and of a function object, get_kernel_ids, bundles holding them on the queue's device
// (the GPU only when the kernel has code for it), get_kernel's name, use_kernel_bundle, the states (input, object,
// executable) and the errors the specification gives. One body built three ways (tests/conformance/meson.build,
// tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <sycl/sycl.hpp>

#include "shared_array.hpp"

class bundle_fill;
class bundle_twice;
class bundle_never_launched;

struct bundle_functor {
    int* out;
    SYCL_EXT_ENCORE_DEVICE_FUNCTOR;
    ENCORE_HOST_DEVICE void operator()(sycl::id<1> i) const { out[i] = 3 * static_cast<int>(i[0]); }
};

namespace {
void fill(sycl::queue& q, int* out, std::size_t n) {
    q.parallel_for<bundle_fill>(sycl::range<1>{n}, [=](sycl::id<1> i) { out[i] = static_cast<int>(i[0]) + 1; }).wait();
}
void twice(sycl::handler& h, int* out, std::size_t n) {
    h.parallel_for<bundle_twice>(sycl::range<1>{n}, [=](sycl::id<1> i) { out[i] *= 2; });
}
bool holds(const std::vector<sycl::kernel_id>& ids, const sycl::kernel_id& id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}
} // namespace

TEST_CASE("kernel bundle: lambda and function-object kernels have kernel ids before they first run") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    const sycl::kernel_id fill_id = sycl::get_kernel_id<bundle_fill>();
    const sycl::kernel_id twice_id = sycl::get_kernel_id<bundle_twice>();
    const sycl::kernel_id functor_id = sycl::get_kernel_id<bundle_functor>();
    CHECK(std::string(fill_id.get_name()) == "bundle_fill");
    CHECK(std::string(twice_id.get_name()) == "bundle_twice");
    CHECK(std::string(functor_id.get_name()) == "bundle_functor");
    CHECK_FALSE(fill_id == twice_id);
    CHECK(sycl::get_kernel_id<bundle_fill>() == fill_id);
    const auto all = sycl::get_kernel_ids();
    CHECK(holds(all, fill_id));
    CHECK(holds(all, twice_id));
    CHECK(holds(all, functor_id));

    // Every kernel of this program runs on the queue's device (the GPU: encore++ gave each its code).
    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context(), {q.get_device()});
    CHECK(bundle.has_kernel(fill_id));
    CHECK(bundle.has_kernel(fill_id, q.get_device()));
    CHECK(bundle.has_kernel(functor_id, q.get_device()));
    CHECK(sycl::is_compatible({fill_id, twice_id, functor_id}, q.get_device()));
    CHECK_FALSE(bundle.contains_specialization_constants()); // no kernel of this program takes a kernel_handler
    CHECK(bundle.get_kernel(fill_id).get_info<sycl::info::kernel::function_name>() == "bundle_fill");

    // A bundle of chosen kernels, through the states.
    auto input = sycl::get_kernel_bundle<sycl::bundle_state::input>(q.get_context(), {fill_id, functor_id});
    CHECK(input.has_kernel(fill_id));
    CHECK_FALSE(input.has_kernel(twice_id));
    auto exe = sycl::link(sycl::compile(input));
    CHECK(exe.get_kernel_ids().size() == 2);
    CHECK(sycl::has_kernel_bundle<sycl::bundle_state::executable>(q.get_context(), {q.get_device()}, {fill_id}));

    constexpr std::size_t n = 64;
    int* out = shared_array<int>(q, n);
    q.submit([&](sycl::handler& h) {
         h.use_kernel_bundle(exe);
         h.parallel_for(sycl::range<1>{n}, bundle_functor{out});
     }).wait();
    for (std::size_t i = 0; i < n; ++i)
        CHECK(out[i] == 3 * static_cast<int>(i));
    fill(q, out, n);
    q.submit([&](sycl::handler& h) {
         h.use_kernel_bundle(bundle);
         twice(h, out, n);
     }).wait();
    for (std::size_t i = 0; i < n; ++i)
        CHECK(out[i] == 2 * (static_cast<int>(i) + 1));
    sycl::free(out, q);
}

TEST_CASE("kernel bundle: the errors the specification gives") {
    sycl::queue q;
    // A name no launch of the program has.
    CHECK(errc_of([] { static_cast<void>(sycl::get_kernel_id<bundle_never_launched>()); }) == sycl::errc::invalid);
    // A lambda kernel's sycl::kernel names it; its arguments are its captures, so it is not launched by itself.
    auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());
    const sycl::kernel k = bundle.get_kernel(sycl::get_kernel_id<bundle_fill>());
    CHECK(errc_of([&] { q.submit([&](sycl::handler& h) { h.parallel_for(sycl::range<1>{4}, k); }); }) ==
          sycl::errc::invalid);
    // A bundle without the kernel launched.
    auto only_fill = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context(),
                                                                             {sycl::get_kernel_id<bundle_fill>()});
    CHECK_FALSE(only_fill.has_kernel(sycl::get_kernel_id<bundle_twice>()));
    CHECK(errc_of([&] { only_fill.get_kernel(sycl::get_kernel_id<bundle_twice>()); }) == sycl::errc::invalid);
    int* out = shared_array<int>(q, 4);
    CHECK(errc_of([&] {
              q.submit([&](sycl::handler& h) {
                  h.use_kernel_bundle(only_fill);
                  twice(h, out, 4);
              });
          }) == sycl::errc::kernel_not_supported);
    // A bundle of another context.
    sycl::context other{q.get_device()};
    auto foreign = sycl::get_kernel_bundle<sycl::bundle_state::executable>(other);
    CHECK(errc_of([&] { q.submit([&](sycl::handler& h) { h.use_kernel_bundle(foreign); }); }) == sycl::errc::invalid);
    sycl::free(out, q);
}

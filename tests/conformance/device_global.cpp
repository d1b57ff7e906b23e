// sycl_ext_oneapi_device_global: device_global variables of scalar, array, struct and pointer types, at namespace
// scope, in a namespace and in an anonymous namespace, zero-initialized or initialized by their constructor, with
// and without properties; kernels reading and writing them (get, conversions, operator[], operator->,
// get_multi_ptr, atomic_ref on the instance); queue and handler memcpy/copy both ways with offsets; an instance
// that keeps what one kernel wrote for the next; copies and kernels in a replayed graph; the errors. Each result
// is compared with what plain C++ on the host computes. One body built three ways (tests/conformance/meson.build,
// tests/compiler/meson.build).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <sycl/sycl.hpp>

#include "shared_array.hpp"

namespace syclex = sycl::ext::oneapi::experimental;

struct sample {
    int count;
    float weight;
};

syclex::device_global<int> counter;
syclex::device_global<int[4]> table;
syclex::device_global<float> scale{2.5f};
syclex::device_global<sample> last_sample{sample{3, 0.25f}};
syclex::device_global<const int*> lookup;
namespace physics {
syclex::device_global<double, decltype(syclex::properties{syclex::device_image_scope, syclex::host_access_read_write})>
    gravity{9.81};
}
namespace {
syclex::device_global<std::uint64_t> hidden;
}

// A device_global's instance is the device's: set it from the host before each use (another test case may have
// left a value there).
void set_counter(sycl::queue& q, int value) {
    q.memcpy(counter, &value).wait();
}

TEST_CASE("device_global: kernels see the declared initial values") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    auto* out = shared_array<double>(q, 9);
    q.single_task([=] {
         out[0] = scale;
         out[1] = physics::gravity.get();
         out[2] = last_sample.get().count;
         out[3] = last_sample.get().weight;
         for (int i = 0; i < 4; ++i)
             out[4 + i] = table[i];
         out[8] = static_cast<double>(hidden.get());
     }).wait();
    CHECK(out[0] == 2.5);
    CHECK(out[1] == 9.81);
    CHECK(out[2] == 3);
    CHECK(out[3] == 0.25);
    for (int i = 0; i < 4; ++i)
        CHECK(out[4 + i] == 0);
    CHECK(out[8] == 0);
    sycl::free(out, q);
}

TEST_CASE("device_global: copies from the host reach kernels, kernels' writes reach the host") {
    sycl::queue q;
    const int values[4] = {5, -7, 11, 13};
    q.copy(values, table).wait();
    set_counter(q, 3);
    auto* out = shared_array<int>(q, 4);
    q.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { out[i] = table[i] * counter; }).wait();
    for (int i = 0; i < 4; ++i)
        CHECK(out[i] == values[i] * 3);

    // Kernels write; the host reads with copy and memcpy.
    q.single_task([=] {
         counter = counter + 5;
         hidden = 0xfeedface12345678ull;
         last_sample = sample{counter, 0.5f};
         table[2] = 100;
     }).wait();
    int c = 0;
    q.copy(counter, &c).wait();
    CHECK(c == 8);
    std::uint64_t h = 0;
    q.memcpy(&h, hidden).wait();
    CHECK(h == 0xfeedface12345678ull);
    sample s{};
    q.memcpy(&s, last_sample).wait();
    CHECK(s.count == 8);
    CHECK(s.weight == 0.5f);

    // Offsets: one element in, three out from the second.
    const int nine = 9;
    q.copy(&nine, table, 1, 3).wait(); // table[3] = 9
    int back[3] = {};
    q.copy(table, back, 3, 1).wait(); // table[1..3]
    CHECK(back[0] == -7);
    CHECK(back[1] == 100);
    CHECK(back[2] == 9);
    int second = 0;
    q.memcpy(&second, table, sizeof(int), sizeof(int)).wait();
    CHECK(second == -7);
    sycl::free(out, q);
}

TEST_CASE("device_global: one instance per device, kept from one kernel to the next") {
    sycl::queue q{sycl::property::queue::in_order{}};
    set_counter(q, 0);
    for (int launch = 0; launch < 3; ++launch)
        q.parallel_for(sycl::range<1>(256), [=](sycl::id<1>) {
            sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device,
                             sycl::access::address_space::global_space>
                count(counter.get());
            count.fetch_add(1);
        });
    int c = 0;
    q.copy(counter, &c).wait();
    CHECK(c == 3 * 256);
}

TEST_CASE("device_global: operator->, get_multi_ptr and a pointer held by the instance") {
    sycl::queue q;
    auto* data = shared_array<int>(q, 8);
    for (int i = 0; i < 8; ++i)
        data[i] = i * i;
    const int* pointer = data;
    q.copy(&pointer, lookup).wait();
    const int values[4] = {1, 2, 3, 4};
    q.copy(values, table).wait();
    auto* out = shared_array<int>(q, 8);
    q.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) {
         const std::size_t k = i[0];
         auto p = table.get_multi_ptr();
         out[k] = lookup.get()[k] + (*p)[k % 4];
     }).wait();
    for (int i = 0; i < 8; ++i)
        CHECK(out[i] == i * i + values[i % 4]);
    sycl::free(out, q);
    sycl::free(data, q);
}

TEST_CASE("device_global: handler copies, and copies and kernels in a replayed graph") {
    sycl::queue q{sycl::property::queue::in_order{}};
    auto* source = shared_array<int>(q, 1);
    auto* out = shared_array<int>(q, 1);
    q.submit([&](sycl::handler& h) { h.memcpy(counter, source, sizeof(int)); }).wait();

    syclex::command_graph graph(q.get_context(), q.get_device());
    auto set = graph.add([&](sycl::handler& h) { h.copy(source, counter, 1); });
    auto twice = graph.add([&](sycl::handler& h) { h.single_task([=] { counter = counter * 2; }); },
                           {syclex::property::node::depends_on(set)});
    graph.add([&](sycl::handler& h) { h.copy(counter, out, 1); }, {syclex::property::node::depends_on(twice)});
    auto exec = graph.finalize();
    for (int value : {3, 21, -4}) {
        *source = value;
        q.ext_oneapi_graph(exec).wait();
        CHECK(*out == 2 * value);
    }
    sycl::free(source, q);
    sycl::free(out, q);
}

TEST_CASE("device_global: properties are known by key") {
    using gravity_type = std::remove_reference_t<decltype(physics::gravity)>;
    static_assert(gravity_type::has_property<syclex::device_image_scope_key>());
    static_assert(gravity_type::has_property<syclex::host_access_key>());
    static_assert(!gravity_type::has_property<syclex::init_mode_key>());
    static_assert(gravity_type::get_property<syclex::host_access_key>().value == syclex::host_access_enum::read_write);
    static_assert(!std::remove_reference_t<decltype(counter)>::has_property<syclex::device_image_scope_key>());
    static_assert(std::is_same_v<std::remove_reference_t<decltype(table)>::element_type, int>);
    CHECK(true); // the checks above are compile-time
}

TEST_CASE("device_global: copies that do not fit, or with no host memory, are errc::invalid") {
    sycl::queue q;
    int values[8] = {};
    CHECK(errc_of([&] { q.memcpy(counter, values, 2 * sizeof(int)); }) == sycl::errc::invalid);
    CHECK(errc_of([&] { q.memcpy(values, table, sizeof(int), 4 * sizeof(int)); }) == sycl::errc::invalid);
    CHECK(errc_of([&] { q.copy(values, table, 2, 3); }) == sycl::errc::invalid);
    CHECK(errc_of([&] { q.copy(table, values, 5); }) == sycl::errc::invalid);
    CHECK(errc_of([&] { q.memcpy(counter, static_cast<const void*>(nullptr)); }) == sycl::errc::invalid);
    CHECK(errc_of([&] { q.memcpy(static_cast<void*>(nullptr), counter); }) == sycl::errc::invalid);
    // Nothing copied: zero bytes at the end is fine.
    CHECK(errc_of([&] { q.memcpy(table, values, 0, 4 * sizeof(int)).wait(); }) == std::error_code{});
}

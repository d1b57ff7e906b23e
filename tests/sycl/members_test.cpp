// SYCL 2020 members of buffer, accessor, host_accessor, local_accessor, queue, handler, device and event that
// docs/sycl2020-members.md lists as closed by this file, written as ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iterator>
#include <list>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "support/sycl_host_usm.hpp"
#include "support/sycl_test_kernel.hpp"
#include "support/sycl_test_memory.hpp"

using namespace encore::testing::sycl_kernels;
using encore::testing::test_memory;

namespace {
ENCORE_SYCL_TEST_KERNEL(double_first_set_third, (int* a, int* b), {
    a[0] *= 2;
    b[2] = 30;
});
ENCORE_SYCL_TEST_KERNEL(index_as_float, (float* a), { a[i] = (float)i; });
ENCORE_SYCL_TEST_KERNEL(sum_of_three, (int* out, const int* a, const int* b, const int* c), {
    out[0] = a[1] + b[2] + c[0];
});
ENCORE_SYCL_TEST_KERNEL(read_first, (const int* r), { (void)r[0]; });

template <typename F> sycl::errc error_of(F&& f) {
    try {
        f();
    } catch (const sycl::exception& e) {
        return static_cast<sycl::errc>(e.code().value());
    }
    FAIL("no sycl::exception was thrown");
    return sycl::errc::success;
}
} // namespace

// --- buffer ------------------------------------------------------------------------------------------------

TEST_CASE("buffer: the allocator forms keep the allocator, and get_allocator returns it") {
    std::allocator<int> a;
    int raw[4] = {1, 2, 3, 4};
    const int craw[4] = {5, 6, 7, 8};
    std::vector<int> v{9, 10};
    {
        sycl::buffer b1{raw, sycl::range<1>{4}, a};
        sycl::buffer b2{craw, sycl::range<1>{4}, a};
        sycl::buffer b3{v, a};
        sycl::buffer b4{v.begin(), v.end(), a};
        sycl::buffer<int> b5{sycl::range<1>{3}, a};
        CHECK(b1.get_allocator() == a);
        CHECK(b3.size() == 2);
        CHECK(b4.size() == 2);
        CHECK(b5.size() == 3);
        sycl::host_accessor h1{b1};
        h1[0] = 100;
        sycl::host_accessor h2{b2, sycl::read_only};
        CHECK(h2[3] == 8);
    }
    CHECK(raw[0] == 100);

    // An allocator type that cannot be default-constructed: get_allocator without one is errc::invalid.
    sycl::queue q;
    using usm_alloc = sycl::usm_allocator<int, sycl::usm::alloc::shared>;
    sycl::buffer<int, 1, usm_alloc> with{sycl::range<1>{2}, usm_alloc{q}};
    CHECK(with.get_allocator() == usm_alloc{q});
    sycl::buffer<int, 1, usm_alloc> without{sycl::range<1>{2}};
    CHECK(error_of([&] { (void)without.get_allocator(); }) == sycl::errc::invalid);
}

TEST_CASE("buffer: shared_ptr host data is copied in, co-owned, and receives the results") {
    sycl::queue q;
    auto data = std::make_shared<int>(7);
    std::shared_ptr<int[]> array(new int[3]{1, 2, 3});
    {
        sycl::buffer<int> one{data, sycl::range<1>{1}};
        sycl::buffer<int> three{array, sycl::range<1>{3}};
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{one, h};
            sycl::accessor b{three, h};
            double_first_set_third.single_task(h, a, b);
        });
    }
    CHECK(*data == 14);
    CHECK(array[2] == 30);

    // The buffer shares ownership: the program may drop its pointer while the buffer lives.
    std::weak_ptr<int> watch;
    {
        auto owned = std::make_shared<int>(1);
        watch = owned;
        sycl::buffer<int> b{owned, sycl::range<1>{1}};
        owned.reset();
        CHECK_FALSE(watch.expired());
    }
    CHECK(watch.expired());
}

TEST_CASE("buffer: set_final_data takes a weak_ptr, a shared_ptr or an output iterator; no argument means "
          "nowhere") {
    sycl::queue q;
    std::vector<int> v{1, 2, 3};
    auto target = std::make_shared<std::array<int, 3>>();
    std::list<int> listed;
    std::vector<int> appended;
    {
        sycl::buffer b{v};
        b.set_final_data(std::weak_ptr<std::array<int, 3>>(target));
    }
    CHECK((*target)[2] == 3);
    {
        sycl::buffer b{v};
        b.set_final_data(std::back_inserter(appended));
    }
    CHECK(appended == v);
    listed.assign(3, 0);
    {
        sycl::buffer b{v};
        b.set_final_data(listed.begin()); // a non-contiguous iterator: element by element
    }
    CHECK(std::vector<int>(listed.begin(), listed.end()) == v);
    {
        // An expired weak_ptr: nothing is written, nothing crashes.
        auto gone = std::make_shared<std::array<int, 3>>();
        std::weak_ptr<std::array<int, 3>> weak = gone;
        gone.reset();
        sycl::buffer b{v};
        b.set_final_data(weak);
    }
    std::vector<int> kept{4, 5};
    {
        sycl::buffer b{kept};
        b.set_final_data();
        sycl::host_accessor h{b};
        h[0] = 40;
    }
    CHECK(kept[0] == 4);
}

TEST_CASE("buffer: get_access and get_host_access with tags, and the deprecated host forms") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{8}};
    q.submit([&](sycl::handler& h) {
        auto w = b.get_access(h, sycl::write_only, sycl::no_init);
        static_assert(std::is_same_v<decltype(w), sycl::accessor<int, 1, sycl::access_mode::write>>);
        index_times.parallel_for(h, sycl::range<1>{8}, w, 1);
    });
    {
        auto r = b.get_host_access(sycl::read_only);
        static_assert(std::is_same_v<decltype(r), sycl::host_accessor<int, 1, sycl::access_mode::read>>);
        CHECK(r[7] == 7);
        auto part = b.get_host_access(sycl::range<1>{2}, sycl::id<1>{3}, sycl::read_only);
        CHECK(part[0] == 3);
    }
    auto placeholder = b.get_access();
    CHECK(placeholder.is_placeholder());
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    {
        auto old = b.get_access<sycl::access::mode::read>();
        CHECK(old[5] == 5);
        auto ranged = b.get_access<sycl::access::mode::read>(sycl::range<1>{2}, sycl::id<1>{6});
        CHECK(ranged[1] == 7);
    }
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    CHECK(error_of([&] { (void)b.get_host_access(sycl::range<1>{4}, sycl::id<1>{6}); }) ==
          sycl::errc::invalid);
}

TEST_CASE("buffer, queue, event, device, context and platform hash like they compare") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{4}};
    auto copy = b;
    CHECK(std::hash<sycl::buffer<int>>()(b) == std::hash<sycl::buffer<int>>()(copy));
    std::unordered_set<sycl::queue> queues{q, q, sycl::queue{}};
    CHECK(queues.size() == 2);
    test_memory<int> scratch(q, 1);
    auto e = set_to.single_task(q, {}, scratch.get(), 0);
    CHECK(std::hash<sycl::event>()(e) == std::hash<sycl::event>()(sycl::event(e)));
    std::unordered_set<sycl::device> devices{q.get_device(), sycl::device{}};
    CHECK(devices.size() == 1);
    CHECK(std::hash<sycl::context>()(q.get_context()) == std::hash<sycl::context>()(q.get_context()));
    CHECK(std::hash<sycl::platform>()(q.get_device().get_platform()) ==
          std::hash<sycl::platform>()(sycl::platform{}));
    e.wait();
}

// --- accessor, host_accessor, local_accessor ---------------------------------------------------------------

TEST_CASE("accessor: static members, member types, size queries and properties") {
    using acc = sycl::accessor<float, 2, sycl::access_mode::read_write>;
    static_assert(acc::access_mode == sycl::access_mode::read_write);
    static_assert(acc::access_target == sycl::target::device);
    static_assert(acc::dimensions == 2);
    static_assert(std::random_access_iterator<acc::iterator>);
    static_assert(std::random_access_iterator<acc::const_iterator>);
    static_assert(std::is_same_v<acc::size_type, std::size_t>);
    static_assert(std::is_same_v<acc::const_reverse_iterator, std::reverse_iterator<acc::const_iterator>>);

    sycl::queue q;
    sycl::buffer<float, 2> b{sycl::range<2>{4, 3}};
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::write_only,
                         sycl::property_list{sycl::no_init, sycl::ext::oneapi::no_alias}};
        CHECK(a.has_property<sycl::property::no_init>());
        CHECK(a.has_property<sycl::ext::oneapi::property::no_alias>());
        CHECK_FALSE(a.has_property<sycl::ext::oneapi::property::no_offset>());
        (void)a.get_property<sycl::property::no_init>();
        CHECK(error_of([&] { (void)a.get_property<sycl::ext::oneapi::property::no_offset>(); }) ==
              sycl::errc::invalid);
        CHECK(a.max_size() >= a.size());
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
        CHECK(a.get_count() == 12);
        CHECK(a.get_size() == 12 * sizeof(float));
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
        index_as_float.parallel_for(h, sycl::range<2>{4, 3}, a); // a[it] = its linear id
    });
    // no_init with a read-only accessor is errc::invalid.
    q.submit([&](sycl::handler& h) {
        CHECK(error_of([&] {
                  sycl::accessor r{b, h, sycl::read_only, sycl::no_init};
              }) == sycl::errc::invalid);
    });
    CHECK(error_of([&] { sycl::host_accessor r{b, sycl::read_only, sycl::no_init}; }) == sycl::errc::invalid);
    sycl::host_accessor h{b, sycl::read_only};
    CHECK(h[3][2] == 11.0f);
}

// Iterators of accessors inside kernels are SYCL lambdas': lambda.
TEST_CASE("accessor and host_accessor iterate their region row-major; ranged ones only the range"
          * doctest::test_suite("lambda")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    std::vector<int> v(12);
    std::iota(v.begin(), v.end(), 0);
    sycl::buffer<int, 2> b{v.data(), sycl::range<2>{3, 4}};
    {
        sycl::host_accessor all{b, sycl::read_only};
        CHECK(std::vector<int>(all.begin(), all.end()) == v);
        CHECK(std::distance(all.cbegin(), all.cend()) == 12);
        CHECK(*all.rbegin() == 11);
        CHECK(*(all.crend() - 1) == 0);
        // rows 1..2, columns 1..2: 5 6 9 10
        sycl::host_accessor part{b, sycl::range<2>{2, 2}, sycl::id<2>{1, 1}, sycl::read_only};
        CHECK(std::vector<int>(part.begin(), part.end()) == std::vector<int>{5, 6, 9, 10});
        CHECK(part.begin()[3] == 10);
        CHECK(std::is_sorted(part.begin(), part.end()));
    }
    // In a kernel: sum a 1-D range with std::accumulate over the accessor's iterators.
    sycl::buffer<int> flat{v.data(), sycl::range<1>{12}};
    int* sum = sycl::malloc_shared<int>(1, q);
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{flat, h, sycl::range<1>{4}, sycl::id<1>{8}, sycl::read_only};
        h.single_task([=] { *sum = std::accumulate(a.begin(), a.end(), 0); });
    }).wait();
    CHECK(*sum == 8 + 9 + 10 + 11);
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::read_write};
        h.single_task([=] { std::fill(a.begin(), a.end(), 1); });
    });
    sycl::host_accessor ones{b};
    CHECK(std::count(ones.begin(), ones.end(), 1) == 12);
    sycl::free(sum, q);
}

TEST_CASE("accessor: the placeholder forms with a range or a target tag, bound by require") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{10}};
    sycl::accessor ranged{b, sycl::range<1>{4}};
    sycl::accessor ranged_tag{b, sycl::range<1>{4}, sycl::write_only};
    sycl::accessor ranged_offset_tag{b, sycl::range<1>{2}, sycl::id<1>{8}, sycl::write_only};
    sycl::accessor host_task_tag{b, sycl::read_write_host_task};
    static_assert(std::is_same_v<decltype(ranged_tag),
                                 sycl::accessor<int, 1, sycl::access_mode::write, sycl::target::device,
                                                sycl::access::placeholder::true_t>>);
    static_assert(std::is_same_v<decltype(host_task_tag),
                                 sycl::accessor<int, 1, sycl::access_mode::read_write,
                                                sycl::target::host_task, sycl::access::placeholder::true_t>>);
    CHECK(ranged.is_placeholder());
    CHECK(ranged_offset_tag.get_offset() == sycl::id<1>{8});
    q.submit([&](sycl::handler& h) {
        h.require(ranged_offset_tag);
        set_at.single_task(h, ranged_offset_tag, 9, 9); // the kernel gets the buffer's start: element 8 + 1
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor in_group{b, h, sycl::range<1>{3}, sycl::id<1>{1}, sycl::read_write_host_task};
        h.host_task([=] { in_group[0] = 1; });
    });
    sycl::host_accessor r{b};
    CHECK(r[9] == 9);
    CHECK(r[1] == 1);
    CHECK(error_of([&] { sycl::accessor bad{b, sycl::range<1>{4}, sycl::id<1>{8}}; }) == sycl::errc::invalid);
}

TEST_CASE("accessor: read-only views convert implicitly, and const elements read a non-const buffer") {
    sycl::queue q;
    std::vector<int> v{1, 2, 3};
    sycl::buffer b{v};
    q.submit([&](sycl::handler& h) {
        sycl::accessor<int, 1, sycl::access_mode::read_write> rw{b, h};
        sycl::accessor<const int, 1, sycl::access_mode::read> ro = rw;
        sycl::accessor<int, 1, sycl::access_mode::read> back = ro;
        sycl::accessor<const int, 1, sycl::access_mode::read> from_buffer{b, h};
        CHECK(ro == sycl::accessor<const int, 1, sycl::access_mode::read>(back));
        CHECK(from_buffer[2] == 3);
        sum_of_three.single_task(h, rw, ro, back, from_buffer);
    });
    sycl::host_accessor<int, 1, sycl::access_mode::read_write> h{b};
    CHECK(h[0] == 2 + 3 + 1);
    sycl::host_accessor<const int, 1, sycl::access_mode::read> hr = h;
    CHECK(hr[0] == 6);
}

TEST_CASE("accessors compare equal to their copies, swap, and default-construct empty") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{4}}, c{sycl::range<1>{2}};
    sycl::accessor x{b}, y{c};
    auto x2 = x;
    CHECK(x == x2);
    CHECK_FALSE(x == y);
    CHECK(std::hash<decltype(x)>()(x) == std::hash<decltype(x)>()(x2));
    x.swap(y);
    CHECK(x.size() == 2);
    CHECK(y == x2);

    sycl::local_accessor<int> no_memory;
    CHECK(no_memory.empty());
    sycl::accessor<int> no_buffer;
    CHECK(no_buffer.empty());
    CHECK_FALSE(x.empty());
    sycl::accessor zero_range{b, sycl::range<1>{0}};
    CHECK(zero_range.empty());
    test_memory<int> scratch(q, 1);
    q.submit([&](sycl::handler& h) {
        h.require(zero_range); // an empty range is still a buffer's accessor
        set_to.single_task(h, scratch.get(), 0);
    }).wait();

    // Last: a live host accessor holds the buffer's later command groups back.
    sycl::host_accessor<int> none;
    CHECK(none.empty());
    sycl::host_accessor<int> some{b};
    CHECK_FALSE(some.empty());
    CHECK(some == sycl::host_accessor<int>(some));
    none.swap(some);
    CHECK(some.empty());
    CHECK(none.size() == 4);
}

// Local memory, group barriers and 0-dimensional accessors in SYCL lambda kernels: lambda.
TEST_CASE("local_accessor: iterators, max_size, const view, in an nd_range kernel" * doctest::test_suite("lambda")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    int* out = sycl::malloc_shared<int>(2, q);
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<int> scratch{sycl::range<1>{4}, h};
        sycl::local_accessor<const int> view = scratch;
        CHECK(scratch.max_size() >= 4);
        CHECK_FALSE(scratch.has_property<sycl::property::no_init>());
        CHECK(error_of([&] { (void)scratch.get_property<sycl::property::no_init>(); }) ==
              sycl::errc::invalid);
        CHECK(view == sycl::local_accessor<const int>(scratch));
        h.parallel_for(sycl::nd_range<1>{sycl::range<1>{8}, sycl::range<1>{4}}, [=](sycl::nd_item<1> it) {
           scratch[it.get_local_id(0)] = static_cast<int>(it.get_local_id(0));
           sycl::group_barrier(it.get_group());
           if (it.get_local_id(0) == 0) out[it.get_group(0)] = std::accumulate(view.begin(), view.end(), 0);
       });
    }).wait();
    CHECK(out[0] == 6);
    CHECK(out[1] == 6);
    sycl::free(out, q);
}

// 0-dimensional accessors and local memory in SYCL lambda kernels: lambda.
TEST_CASE("zero-dimensional accessor, host_accessor and local_accessor reach one element"
          * doctest::test_suite("lambda")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{3}};
    q.submit([&](sycl::handler& h) {
        sycl::accessor<int, 0> one{b, h};
        static_assert(decltype(one)::dimensions == 0);
        CHECK(one.size() == 1);
        h.single_task([=] {
            one = 41;
            int v = one;
            one = v + 1;
        });
    });
    {
        sycl::host_accessor<int, 0, sycl::access_mode::read> r{b};
        CHECK(static_cast<int>(r) == 42);
    }
    {
        sycl::host_accessor<int, 0> w{b};
        w = 7;
    }
    sycl::accessor<int, 0, sycl::access_mode::read_write, sycl::target::device,
                   sycl::access::placeholder::true_t>
        placeholder{b};
    int* out = sycl::malloc_shared<int>(2, q);
    q.submit([&](sycl::handler& h) {
        h.require(placeholder);
        sycl::local_accessor<int, 0> shared{h};
        CHECK(shared.size() == 1);
        h.parallel_for(sycl::nd_range<1>{sycl::range<1>{8}, sycl::range<1>{4}}, [=](sycl::nd_item<1> it) {
           if (it.get_local_id(0) == 0) shared = static_cast<int>(it.get_group(0)) + placeholder;
           sycl::group_barrier(it.get_group());
           if (it.get_local_id(0) == 3) out[it.get_group(0)] = shared;
       });
    }).wait();
    CHECK(out[0] == 7);
    CHECK(out[1] == 8);
    sycl::free(out, q);
    CHECK(error_of([&] {
              sycl::host_accessor<int, 0, sycl::access_mode::read> bad{b, sycl::no_init};
          }) == sycl::errc::invalid);
}

TEST_CASE("the deprecated constant_buffer target and discard modes work as read, write and read_write") {
    sycl::queue q;
    std::vector<int> in{1, 2, 3, 4};
    sycl::buffer<int> source{in};
    sycl::buffer<int> target{sycl::range<1>{4}};
    q.submit([&](sycl::handler& h) {
        sycl::accessor<int, 1, sycl::access_mode::read, sycl::target::constant_buffer> c{source, h};
        sycl::accessor<int, 1, sycl::access_mode::discard_write> w{target, h};
        scaled_copy.parallel_for(h, sycl::range<1>{4}, w, c, 10);
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor<int, 1, sycl::access_mode::discard_read_write> rw{target, h};
        add_to.parallel_for(h, sycl::range<1>{4}, rw, 1);
    });
    sycl::host_accessor r{target, sycl::read_only};
    CHECK(std::vector<int>(r.begin(), r.end()) == std::vector<int>{11, 21, 31, 41});
}

// Local memory in a SYCL lambda kernel: lambda.
TEST_CASE("local_accessor::get_pointer gives this work-group's array inside the kernel"
          * doctest::test_suite("lambda")) {
    ENCORE_SKIP_WITHOUT_HOST_USM();
    sycl::queue q;
    int* out = sycl::malloc_shared<int>(1, q);
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<int, 2> tile{sycl::range<2>{2, 2}, h};
        h.parallel_for(sycl::nd_range<1>{sycl::range<1>{4}, sycl::range<1>{4}}, [=](sycl::nd_item<1> it) {
           tile.get_pointer()[it.get_local_id(0)] = 1;
           sycl::group_barrier(it.get_group());
           if (it.get_local_id(0) == 0)
               *out = tile[1][0] + tile[1][1] + static_cast<int>(tile.get_range().size());
       });
    }).wait();
    CHECK(*out == 2 + 4);
    sycl::free(out, q);
}

// --- handler and queue -------------------------------------------------------------------------------------

TEST_CASE("handler::copy with shared_ptr host memory, and the queue's placeholder accessor shortcuts") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{4}};
    auto source = std::shared_ptr<int[]>(new int[4]{1, 2, 3, 4});
    auto destination = std::shared_ptr<int[]>(new int[4]{});
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::write_only};
        h.copy(source, a);
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::read_only};
        h.copy(a, destination);
    }).wait();
    CHECK(destination[3] == 4);

    sycl::accessor placeholder{b};
    std::vector<int> plain(4, 0);
    q.fill(placeholder, 7);
    q.copy(placeholder, plain.data()).wait();
    CHECK(plain == std::vector<int>(4, 7));
    const std::vector<int> fresh{5, 6, 7, 8};
    q.copy(fresh.data(), placeholder);
    auto shared = std::shared_ptr<int[]>(new int[4]{});
    q.copy(placeholder, shared).wait();
    CHECK(shared[0] == 5);
    q.copy(std::shared_ptr<int[]>(new int[4]{9, 9, 9, 9}), placeholder);
    sycl::buffer<int> other{sycl::range<1>{4}};
    sycl::accessor other_placeholder{other};
    q.copy(placeholder, other_placeholder);
    q.update_host(other_placeholder).wait();
    sycl::host_accessor r{other};
    CHECK(r[2] == 9);

    CHECK(error_of([&] {
              q.submit([&](sycl::handler& h) {
                  sycl::accessor a{b, h};
                  h.copy(a, std::shared_ptr<int>());
              });
          }) == sycl::errc::invalid);
    CHECK(error_of([&] {
              q.submit([&](sycl::handler& h) {
                  sycl::accessor a{b, h};
                  h.copy(std::shared_ptr<int>(), a);
              });
          }) == sycl::errc::invalid);
    CHECK(error_of([&] { q.fill(sycl::accessor<int>{}, 1); }) == sycl::errc::invalid);
}

// A kernel that throws is host code (a SYCL lambda): native.
TEST_CASE("queue: a context and selector with an async handler" * doctest::test_suite("native")) {
    int handled = 0;
    sycl::context c;
    sycl::queue q{c, sycl::default_selector_v,
                  [&](sycl::exception_list errors) { handled += int(errors.size()); }};
    CHECK(q.get_context() == c);
    q.single_task([] { throw sycl::exception(sycl::errc::kernel, "from the kernel"); });
    q.wait_and_throw();
    CHECK(handled == 1);
}

TEST_CASE("queue::submit with a secondary queue: a submission the primary refuses goes to the secondary") {
    sycl::queue primary, secondary;
    int calls = 0;
    // A command group that cannot be submitted to the primary: its first run asks for a second command.
    auto e = primary.submit(
        [&](sycl::handler& h) {
            ++calls;
            h.host_task([] {});
            if (calls == 1) h.host_task([] {}); // errc::invalid: one command per group
        },
        secondary);
    e.wait();
    CHECK(calls == 2);
    CHECK(secondary.khr_empty());
    // Accepted by the primary: runs once.
    calls = 0;
    auto accepted = primary.submit(
        [&](sycl::handler& h) {
            ++calls;
            h.host_task([] {});
        },
        secondary);
    accepted.wait();
    CHECK(calls == 1);
    // Refused by both: the secondary's error propagates.
    CHECK(error_of([&] {
              primary.submit(
                  [&](sycl::handler& h) {
                      h.host_task([] {});
                      h.host_task([] {});
                  },
                  secondary);
          }) == sycl::errc::invalid);
}

TEST_CASE("queue::khr_empty and ext_oneapi_empty tell whether everything submitted has completed") {
    static_assert(SYCL_KHR_QUEUE_EMPTY_QUERY == 1);
    for (bool in_order : {false, true}) {
        sycl::queue q = in_order ? sycl::queue{sycl::property::queue::in_order{}} : sycl::queue{};
        test_memory<int> scratch(q, 1);
        CHECK(q.khr_empty());
        std::atomic<bool> release{false};
        auto blocked = q.submit([&](sycl::handler& h) {
            h.host_task([&] {
                while (!release)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            });
        });
        CHECK_FALSE(q.khr_empty());
        auto after = set_to.single_task(q, {blocked}, scratch.get(), 0);
        CHECK_FALSE(q.ext_oneapi_empty());
        release = true;
        after.wait();
        blocked.wait();
        CHECK(q.khr_empty());
        CHECK(q.ext_oneapi_empty());
    }
}

// --- event -------------------------------------------------------------------------------------------------

TEST_CASE("event::get_wait_list lists what the command group waited for") {
    sycl::queue q;
    CHECK(sycl::event{}.get_wait_list().empty());
    test_memory<int> scratch_memory(q, 3);
    int* scratch = scratch_memory.get();
    auto a = set_to.single_task(q, {}, scratch, 0);
    auto b = set_to.single_task(q, {}, scratch + 1, 0);
    auto c = set_to.single_task(q, {a, b, a}, scratch + 2, 0);
    auto waited = c.get_wait_list();
    CHECK(waited.size() == 2); // a once
    CHECK(std::find(waited.begin(), waited.end(), a) != waited.end());
    CHECK(std::find(waited.begin(), waited.end(), b) != waited.end());
    CHECK(a.get_wait_list().empty());

    // Accessors imply dependencies too.
    sycl::buffer<int> buf{sycl::range<1>{1}};
    auto writer = q.submit([&](sycl::handler& h) {
        sycl::accessor w{buf, h, sycl::write_only};
        set_to.single_task(h, w, 1);
    });
    auto reader = q.submit([&](sycl::handler& h) {
        sycl::accessor r{buf, h, sycl::read_only};
        read_first.single_task(h, r);
    });
    auto implied = reader.get_wait_list();
    REQUIRE(implied.size() == 1);
    CHECK(implied[0] == writer);
    implied[0].wait(); // a usable event
    q.wait();
}

// --- device ------------------------------------------------------------------------------------------------

// The native CPU device's info descriptors: native.
TEST_CASE("device: the remaining info descriptors answer what the native CPU device is"
          * doctest::test_suite("native")) {
    sycl::device d;
    using namespace sycl::info;
    CHECK(d.get_info<device::max_work_item_dimensions>() == 3);
    const auto wg = d.get_info<device::max_work_group_size>();
    CHECK(d.get_info<device::max_work_item_sizes<1>>() == sycl::range<1>{wg});
    CHECK(d.get_info<device::max_work_item_sizes<3>>()[2] == wg);
    CHECK(d.get_info<device::max_work_item_sizes<>>() == d.get_info<device::max_work_item_sizes<3>>());
    CHECK(d.get_info<device::preferred_vector_width_float>() == 1);
    CHECK(d.get_info<device::native_vector_width_double>() == (d.has(sycl::aspect::fp64) ? 1u : 0u));
    CHECK(d.get_info<device::preferred_vector_width_half>() == 0); // no fp16
    CHECK(d.get_info<device::address_bits>() == sizeof(void*) * 8);
    CHECK(d.get_info<device::max_mem_alloc_size>() == d.get_info<device::global_mem_size>());
    CHECK(d.get_info<device::max_mem_alloc_size>() > 0);
    CHECK_FALSE(d.get_info<device::image_support>());
    CHECK(d.get_info<device::image2d_max_width>() == 0);
    CHECK(d.get_info<device::max_samplers>() == 0);
    CHECK(d.get_info<device::max_parameter_size>() >= 1024);
    CHECK(d.get_info<device::half_fp_config>().empty());
    const auto single = d.get_info<device::single_fp_config>();
    CHECK(std::count(single.begin(), single.end(), fp_config::round_to_nearest) == 1);
    CHECK(std::count(single.begin(), single.end(), fp_config::inf_nan) == 1);
    CHECK(d.get_info<device::double_fp_config>().empty() == !d.has(sycl::aspect::fp64));
    CHECK(d.get_info<device::global_mem_cache_type>() == global_mem_cache_type::read_write);
    CHECK(d.get_info<device::local_mem_type>() == local_mem_type::global);
    CHECK(d.get_info<device::max_constant_buffer_size>() > 0);
    CHECK(d.get_info<device::max_constant_args>() >= 8);
    CHECK_FALSE(d.get_info<device::error_correction_support>());
    CHECK(d.get_info<device::host_unified_memory>());
    CHECK(d.get_info<device::atomic_memory_order_capabilities>().size() == 5);
    CHECK(d.get_info<device::atomic_fence_order_capabilities>().size() == 5);
    const auto scopes = d.get_info<device::atomic_memory_scope_capabilities>();
    CHECK(std::count(scopes.begin(), scopes.end(), sycl::memory_scope::system) == 1);
    CHECK(d.get_info<device::atomic_fence_scope_capabilities>() == scopes);
    CHECK(d.get_info<device::profiling_timer_resolution>() >= 1);
    CHECK(d.get_info<device::is_endian_little>());
    CHECK(d.get_info<device::is_available>());
    CHECK_FALSE(d.get_info<device::is_compiler_available>());
    CHECK_FALSE(d.get_info<device::is_linker_available>());
    CHECK(d.get_info<device::execution_capabilities>() ==
          std::vector<execution_capability>{execution_capability::exec_kernel});
    CHECK(d.get_info<device::built_in_kernels>().empty());
    CHECK(d.get_info<device::platform>() == d.get_platform());
    CHECK(d.get_info<device::profile>() == "FULL_PROFILE");
    CHECK(d.get_info<device::backend_version>() == d.get_info<device::driver_version>());
    CHECK(d.get_info<device::extensions>().empty());
    CHECK(d.get_info<device::printf_buffer_size>() >= (1u << 20));
    CHECK_FALSE(d.get_info<device::preferred_interop_user_sync>());
    (void)d.get_info<device::vendor_id>();
    (void)d.get_info<device::max_clock_frequency>();
    (void)d.get_info<device::global_mem_cache_line_size>();
    (void)d.get_info<device::global_mem_cache_size>();
    for (auto w :
         {d.get_info<device::preferred_vector_width_char>(),
          d.get_info<device::preferred_vector_width_short>(),
          d.get_info<device::preferred_vector_width_int>(), d.get_info<device::preferred_vector_width_long>(),
          d.get_info<device::native_vector_width_char>(), d.get_info<device::native_vector_width_short>(),
          d.get_info<device::native_vector_width_int>(), d.get_info<device::native_vector_width_long>(),
          d.get_info<device::native_vector_width_float>()})
        CHECK(w == 1);
    for (auto z : {d.get_info<device::max_read_image_args>(), d.get_info<device::max_write_image_args>()})
        CHECK(z == 0);
    for (auto z : {d.get_info<device::image2d_max_height>(), d.get_info<device::image3d_max_height>(),
                   d.get_info<device::image3d_max_width>(), d.get_info<device::image3d_max_depth>(),
                   d.get_info<device::image_max_buffer_size>(), d.get_info<device::image_max_array_size>()})
        CHECK(z == 0);
    (void)d.get_info<device::preferred_vector_width_double>();
    (void)d.get_info<device::native_vector_width_half>();
}

TEST_CASE("device: aspects lists has(); partitioning is refused as unsupported") {
    sycl::device d;
    const auto aspects = d.get_info<sycl::info::device::aspects>();
    CHECK((std::find(aspects.begin(), aspects.end(), sycl::aspect::cpu) != aspects.end()) == d.is_cpu());
    CHECK((std::find(aspects.begin(), aspects.end(), sycl::aspect::gpu) != aspects.end()) == d.is_gpu());
    CHECK(std::find(aspects.begin(), aspects.end(), sycl::aspect::fp16) == aspects.end());
    for (auto a : aspects)
        CHECK(d.has(a));

    using sycl::info::partition_property;
    CHECK(d.get_info<sycl::info::device::partition_max_sub_devices>() == 0);
    CHECK(d.get_info<sycl::info::device::partition_properties>().empty());
    CHECK(d.get_info<sycl::info::device::partition_affinity_domains>().empty());
    CHECK(d.get_info<sycl::info::device::partition_type_property>() == partition_property::no_partition);
    CHECK(d.get_info<sycl::info::device::partition_type_affinity_domain>() ==
          sycl::info::partition_affinity_domain::not_applicable);
    CHECK(error_of([&] { (void)d.get_info<sycl::info::device::parent_device>(); }) == sycl::errc::invalid);
    CHECK(error_of([&] { (void)d.create_sub_devices<partition_property::partition_equally>(2); }) ==
          sycl::errc::feature_not_supported);
    CHECK(error_of([&] { (void)d.create_sub_devices<partition_property::partition_equally>(0); }) ==
          sycl::errc::invalid);
    CHECK(error_of([&] {
              (void)d.create_sub_devices<partition_property::partition_by_counts>({1, 1});
          }) == sycl::errc::feature_not_supported);
    CHECK(error_of([&] {
              (void)d.create_sub_devices<partition_property::partition_by_affinity_domain>(
                  sycl::info::partition_affinity_domain::numa);
          }) == sycl::errc::feature_not_supported);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    CHECK_FALSE(d.has_extension("cl_khr_fp64"));
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
}

TEST_CASE("aspect traits: any_device_has and all_devices_have") {
    static_assert(sycl::any_device_has_v<sycl::aspect::cpu>);
    static_assert(sycl::any_device_has_v<sycl::aspect::usm_shared_allocations>);
    static_assert(!sycl::any_device_has_v<sycl::aspect::fp16>);
    static_assert(!sycl::any_device_has_v<sycl::aspect::image>);
    static_assert(sycl::all_devices_have_v<sycl::aspect::usm_device_allocations>);
    static_assert(!sycl::all_devices_have_v<sycl::aspect::fp64>);
    // Consistent with the devices present: what all devices have, each has; what none has, none has (shared USM
    // only some devices have: not NVIDIA's OpenCL).
    for (const auto& d : sycl::device::get_devices()) {
        CHECK(d.has(sycl::aspect::usm_device_allocations));
        CHECK_FALSE(d.has(sycl::aspect::fp16));
    }
}

TEST_CASE("device: the common descriptors agree with each other; buffer's deprecated size queries") {
    sycl::device d;
    using namespace sycl::info;
    CHECK_FALSE(d.get_info<device::vendor>().empty());
    CHECK(d.get_info<device::version>() == d.get_info<device::driver_version>());
    CHECK(d.get_info<device::mem_base_addr_align>() % 8 == 0);
    CHECK(d.get_info<device::mem_base_addr_align>() >= 8 * alignof(std::max_align_t));
    CHECK(d.get_info<device::local_mem_size>() > 0);
    CHECK(d.get_info<device::global_mem_size>() >= d.get_info<device::local_mem_size>());
    CHECK(d.get_info<device::queue_profiling>() == d.has(sycl::aspect::queue_profiling));

    sycl::buffer<double, 2> b{sycl::range<2>{3, 5}};
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    CHECK(b.get_count() == 15);
    CHECK(b.get_size() == 15 * sizeof(double));
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
}

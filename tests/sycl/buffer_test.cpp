// sycl::buffer, accessors, host_accessor, sub-buffers and the ordering of command groups derived from their
// accesses (RAW, WAR, WAW), written as ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <chrono>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "order_log.hpp"
#include "support/sycl_test_kernel.hpp"

using namespace encore::testing::sycl_kernels;

namespace {
ENCORE_SYCL_TEST_KERNEL(plus_of, (int* out, const int* in, int x), { out[i] = in[i] + x; });
ENCORE_SYCL_TEST_KERNEL(index_plus, (int* v, int x), { v[i] = (int)i + x; });
ENCORE_SYCL_TEST_KERNEL(first_byte_of_words, (unsigned char* bytes), { bytes[i] = (i % 4 == 0) ? 1 : 0; });
ENCORE_SYCL_TEST_KERNEL(add_row, (unsigned* grid, unsigned width), { grid[i] += (unsigned)(i / width); });
} // namespace

TEST_CASE("a buffer over host data writes the results back when it goes away") {
    std::vector<int> v(100);
    std::iota(v.begin(), v.end(), 0);
    sycl::queue q;
    {
        sycl::buffer b{v};
        CHECK(b.size() == 100);
        CHECK(b.byte_size() == 100 * sizeof(int));
        CHECK(b.get_range() == sycl::range<1>{100});
        CHECK_FALSE(b.is_sub_buffer());
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::read_write};
            multiply_by.parallel_for(h, sycl::range<1>{100}, a, 2);
        });
        CHECK(v[99] == 99); // the buffer works on its own copy until it goes away
    }
    CHECK(v[0] == 0);
    CHECK(v[99] == 198);

    int raw[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    {
        sycl::buffer<int, 1> b(raw, sycl::range<1>{8});
        q.submit([&](sycl::handler& h) {
            auto a = b.get_access<sycl::access_mode::read_write>(h);
            set_at.single_task(h, a, 7, 80);
        });
    }
    CHECK(raw[7] == 80);
}

TEST_CASE("buffers over const data, iterator ranges and owning storage write nothing back") {
    const std::vector<int> input(10, 3);
    sycl::queue q;
    sycl::buffer<int> out{sycl::range<1>{10}};
    {
        sycl::buffer in{input};
        q.submit([&](sycl::handler& h) {
            sycl::accessor i{in, h, sycl::read_only};
            sycl::accessor o{out, h, sycl::write_only, sycl::no_init};
            plus_of.parallel_for(h, sycl::range<1>{10}, o, i, 1);
        });
    }
    {
        sycl::host_accessor r{out, sycl::read_only};
        CHECK(r[0] == 4);
        CHECK(r[9] == 4);
    }
    std::vector<int> source{5, 6, 7};
    {
        sycl::buffer copied(source.begin(), source.end());
        sycl::host_accessor w{copied};
        CHECK(w[2] == 7);
        w[2] = 0;
    }
    CHECK(source[2] == 7);

    sycl::buffer<float, 2> zeroed{sycl::range<2>{4, 4}};
    sycl::host_accessor z{zeroed, sycl::read_only};
    CHECK(z[3][3] == 0.0f);
}

TEST_CASE("set_final_data and set_write_back choose where the contents go") {
    std::vector<int> v(4, 1), elsewhere(4, 0);
    sycl::queue q;
    {
        sycl::buffer b{v};
        b.set_final_data(elsewhere.data());
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h};
            set_to.parallel_for(h, sycl::range<1>{4}, a, 5);
        });
    }
    CHECK(v[0] == 1);
    CHECK(elsewhere[3] == 5);
    {
        sycl::buffer b{v};
        b.set_write_back(false);
        sycl::host_accessor a{b};
        a[0] = 9;
    }
    CHECK(v[0] == 1);
    {
        sycl::buffer b{v};
        b.set_final_data(nullptr);
        sycl::host_accessor a{b};
        a[0] = 9;
    }
    CHECK(v[0] == 1);
}

// Subscripts of accessors inside kernels are SYCL lambdas': lambda.
TEST_CASE("2-D and 3-D accessors index row-major, by id and by chained subscripts" * doctest::test_suite("lambda")) {
    sycl::queue q;
    sycl::buffer<int, 2> m{sycl::range<2>{3, 5}};
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{m, h, sycl::write_only};
        h.parallel_for(sycl::range<2>{3, 5}, [=](sycl::id<2> i) { a[i] = static_cast<int>(10 * i[0] + i[1]); });
    });
    sycl::buffer<int, 3> cube{sycl::range<3>{2, 3, 4}};
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{cube, h, sycl::write_only};
        h.parallel_for(sycl::range<3>{2, 3, 4}, [=](sycl::item<3> it) { a[it.get_id()] = static_cast<int>(it.get_linear_id()); });
    });
    sycl::host_accessor r{m, sycl::read_only};
    CHECK(r[2][4] == 24);
    CHECK(r[sycl::id<2>{1, 3}] == 13);
    CHECK(r.get_pointer()[5] == 10); // row 1 starts after 5 elements
    sycl::host_accessor c{cube, sycl::read_only};
    CHECK(c[1][2][3] == 23);
    CHECK(c[sycl::id<3>{1, 0, 0}] == 12);
}

// As above: the subscripts under test are those of the lambda kernel's accessors (lambda).
TEST_CASE("ranged accessors: subscripts are relative to the offset" * doctest::test_suite("lambda")) {
    std::vector<int> v(10, 0);
    sycl::queue q;
    {
        sycl::buffer b{v};
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::range<1>{4}, sycl::id<1>{3}, sycl::write_only};
            CHECK(a.get_range() == sycl::range<1>{4});
            CHECK(a.get_offset() == sycl::id<1>{3});
            CHECK(a.size() == 4);
            h.parallel_for(a.get_range(), [=](sycl::id<1> i) { a[i] = 1; });
        });
        sycl::buffer<int, 2> grid{sycl::range<2>{4, 4}};
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{grid, h, sycl::range<2>{2, 2}, sycl::id<2>{1, 2}};
            h.single_task([=] { a[0][0] = 7; });
        });
        sycl::host_accessor g{grid, sycl::range<2>{1, 4}, sycl::id<2>{1, 0}, sycl::read_only};
        CHECK(g[0][2] == 7);
        CHECK(g[0][1] == 0);
    }
    CHECK(v == std::vector<int>{0, 0, 0, 1, 1, 1, 1, 0, 0, 0});
}

TEST_CASE("sub-buffers are regions of their parent") {
    std::vector<int> v(12, 0);
    sycl::queue q;
    {
        sycl::buffer parent{v};
        sycl::buffer<int> left{parent, sycl::id<1>{0}, sycl::range<1>{6}};
        sycl::buffer<int> right{parent, sycl::id<1>{6}, sycl::range<1>{6}};
        CHECK(left.is_sub_buffer());
        CHECK(right.size() == 6);
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{left, h};
            set_to.parallel_for(h, sycl::range<1>{6}, a, 1);
        });
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{right, h};
            index_plus.parallel_for(h, sycl::range<1>{6}, a, 2);
        });
        sycl::buffer<int, 2> grid{sycl::range<2>{4, 3}};
        sycl::buffer<int, 2> rows{grid, sycl::id<2>{2, 0}, sycl::range<2>{2, 3}};
        {
            sycl::host_accessor r{rows};
            r[0][0] = 42;
        }
        sycl::host_accessor g{grid, sycl::read_only};
        CHECK(g[2][0] == 42);
    }
    CHECK(v == std::vector<int>{1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("placeholder accessors are bound with handler::require") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{8}};
    sycl::accessor placeholder{b, sycl::write_only};
    CHECK(placeholder.is_placeholder());
    q.submit([&](sycl::handler& h) {
        h.require(placeholder);
        set_to.parallel_for(h, sycl::range<1>{8}, placeholder, 3);
    });
    sycl::host_accessor r{b, sycl::read_only};
    CHECK(r[7] == 3);
}

TEST_CASE("host_task reads buffers through host_task accessors") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{16}};
    int sum = 0;
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::write_only};
        index_times.parallel_for(h, sycl::range<1>{16}, a, 1);
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::read_only_host_task};
        h.host_task([=, &sum] {
            for (int i = 0; i < 16; ++i) sum += a[i];
        });
    });
    q.wait();
    CHECK(sum == 120);
}

TEST_CASE("RAW: a reader waits for the writer before it") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{1}};
    order_log log;
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::write_only_host_task};
        h.host_task([=, &log] {
            nap();
            a[0] = 1;
            log.add(1);
        });
    });
    int read = 0;
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::read_only_host_task};
        h.host_task([=, &log, &read] {
            read = a[0];
            log.add(2);
        });
    });
    q.wait();
    CHECK(log.order == std::vector<int>{1, 2});
    CHECK(read == 1);
}

TEST_CASE("WAR: a writer waits for every reader since the last write; readers run together") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{1}};
    order_log log;
    for (int reader = 1; reader <= 2; ++reader)
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::read_only_host_task};
            h.host_task([=, &log] {
                nap();
                log.add(reader);
            });
        });
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::write_only_host_task};
        h.host_task([=, &log] {
            a[0] = 5;
            log.add(3);
        });
    });
    q.wait();
    REQUIRE(log.order.size() == 3);
    CHECK(log.order.back() == 3);
}

TEST_CASE("WAW: a writer waits for the writer before it") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{1}};
    order_log log;
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::write_only_host_task};
        h.host_task([=, &log] {
            nap();
            a[0] = 1;
            log.add(1);
        });
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::write_only_host_task, sycl::no_init};
        h.host_task([=, &log] {
            a[0] = 2;
            log.add(2);
        });
    });
    sycl::host_accessor r{b, sycl::read_only};
    CHECK(r[0] == 2);
    CHECK(log.order == std::vector<int>{1, 2});
}

TEST_CASE("independent buffers do not order command groups") {
    sycl::queue q;
    sycl::buffer<int> slow_buffer{sycl::range<1>{1}}, fast_buffer{sycl::range<1>{1}};
    order_log log;
    std::mutex gate;
    std::unique_lock hold(gate); // the first task cannot finish until the second has run
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{slow_buffer, h, sycl::write_only_host_task};
        h.host_task([=, &log, &gate] {
            std::lock_guard wait_for_gate(gate);
            log.add(1);
        });
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{fast_buffer, h, sycl::write_only_host_task};
        h.host_task([=, &log] { log.add(2); });
    });
    // Wait (boundedly) for the second task; if the buffers wrongly ordered it after the first, it never comes.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < give_up) {
        {
            std::lock_guard lock(log.mutex);
            if (!log.order.empty()) break;
        }
        std::this_thread::yield();
    }
    hold.unlock();
    q.wait();
    CHECK(log.order == std::vector<int>{2, 1});
}

TEST_CASE("a host_accessor waits for the writers, and later command groups wait for it") {
    sycl::queue q;
    sycl::buffer<int> b{sycl::range<1>{1}};
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{b, h, sycl::write_only_host_task};
        h.host_task([=] {
            nap();
            a[0] = 1;
        });
    });
    order_log log;
    sycl::event later;
    {
        sycl::host_accessor r{b};
        CHECK(r[0] == 1);
        later = q.submit([&](sycl::handler& h) {
            sycl::accessor a{b, h, sycl::read_write_host_task};
            h.host_task([=, &log] {
                log.add(static_cast<int>(a[0]));
            });
        });
        nap();
        r[0] = 2; // the command group above must see this: it waits for the host accessor to go
        log.add(0);
    }
    later.wait();
    CHECK(log.order == std::vector<int>{0, 2});
}

TEST_CASE("handler::copy and fill with accessors") {
    sycl::queue q;
    std::vector<int> host(8, 0);
    sycl::buffer<int> a{sycl::range<1>{8}}, b{sycl::range<1>{8}};
    q.submit([&](sycl::handler& h) {
        sycl::accessor acc{a, h, sycl::write_only};
        h.fill(acc, 6);
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor from{a, h, sycl::read_only};
        sycl::accessor to{b, h, sycl::write_only};
        h.copy(from, to);
    });
    q.submit([&](sycl::handler& h) {
        sycl::accessor from{b, h, sycl::read_only};
        h.copy(from, host.data());
    });
    q.wait();
    CHECK(host == std::vector<int>(8, 6));
    std::vector<int> source{1, 2, 3, 4, 5, 6, 7, 8};
    q.submit([&](sycl::handler& h) {
        sycl::accessor to{a, h, sycl::write_only};
        h.copy(source.data(), to);
    });
    sycl::host_accessor r{a, sycl::read_only};
    CHECK(r[7] == 8);
}

TEST_CASE("buffer properties") {
    std::vector<int> v(4);
    sycl::buffer b{v, sycl::property_list{sycl::property::buffer::use_host_ptr{}}};
    CHECK(b.has_property<sycl::property::buffer::use_host_ptr>());
    sycl::buffer<int> c{sycl::range<1>{4}};
    CHECK_FALSE(c.has_property<sycl::property::buffer::use_host_ptr>());
    CHECK_THROWS_AS((void)c.get_property<sycl::property::buffer::use_host_ptr>(), sycl::exception);
}

TEST_CASE("buffer::reinterpret views the same memory with another type and range") {
    sycl::queue q;
    std::vector<std::uint32_t> words(8, 0);
    {
        sycl::buffer<std::uint32_t> b{words.data(), sycl::range<1>{8}};
        auto bytes = b.reinterpret<std::uint8_t>(sycl::range<1>{32});
        auto grid = b.reinterpret<std::uint32_t, 2>(sycl::range<2>{2, 4});
        auto same = b.reinterpret<float>(); // one dimension, 8 floats
        CHECK(bytes.size() == 32);
        CHECK(same.size() == 8);
        q.submit([&](sycl::handler& h) {
            sycl::accessor a{bytes, h, sycl::write_only};
            first_byte_of_words.parallel_for(h, sycl::range<1>{32}, a);
        });
        q.submit([&](sycl::handler& h) { // tracked with the byte view: runs after it
            sycl::accessor g{grid, h, sycl::read_write};
            add_row.parallel_for(h, sycl::range<2>{2, 4}, g, 4u); // g[i0][i1] += i0
        });
        sycl::host_accessor check{b, sycl::read_only};
        CHECK(check[0] == 1u); // little endian: byte 0 of each word
        CHECK(check[7] == 2u);
        CHECK_THROWS_AS(b.reinterpret<std::uint8_t>(sycl::range<1>{31}), sycl::exception);
        CHECK_THROWS_AS((b.reinterpret<std::uint64_t, 2>(sycl::range<2>{3, 1})), sycl::exception);
        sycl::buffer<char> odd{sycl::range<1>{6}};
        CHECK_THROWS_AS(odd.reinterpret<std::uint32_t>(), sycl::exception);
    }
    CHECK(words[7] == 2u); // written back through the original buffer
}

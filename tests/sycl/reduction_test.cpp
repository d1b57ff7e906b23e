// sycl::reduction with plus, min, max and custom operations over range and nd_range parallel_for, into USM
// memory and buffers, written as ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

#include <limits>
#include <numeric>
#include <vector>

TEST_CASE("sum, min and max over a range into USM memory") {
    sycl::queue q;
    constexpr std::size_t n = 100000;
    int* data = sycl::malloc_shared<int>(n, q);
    for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<int>((i * 7919) % 10007) - 5000;
    long long* sum = sycl::malloc_shared<long long>(1, q);
    int* lo = sycl::malloc_shared<int>(1, q);
    int* hi = sycl::malloc_shared<int>(1, q);
    *sum = 10; // without initialize_to_identity the old value takes part
    *lo = std::numeric_limits<int>::max();
    *hi = std::numeric_limits<int>::min();
    q.parallel_for(sycl::range<1>{n}, sycl::reduction(sum, sycl::plus<long long>()),
                   sycl::reduction(lo, sycl::minimum<int>()), sycl::reduction(hi, sycl::maximum<int>()),
                   [=](sycl::id<1> i, auto& s, auto& mn, auto& mx) {
                       s += data[i];
                       mn.combine(data[i]);
                       mx.combine(data[i]);
                   })
        .wait();
    long long expected = 10;
    int emin = data[0], emax = data[0];
    for (std::size_t i = 0; i < n; ++i) {
        expected += data[i];
        emin = std::min(emin, data[i]);
        emax = std::max(emax, data[i]);
    }
    CHECK(*sum == expected);
    CHECK(*lo == emin);
    CHECK(*hi == emax);
    for (void* p : {static_cast<void*>(data), static_cast<void*>(sum), static_cast<void*>(lo), static_cast<void*>(hi)})
        sycl::free(p, q);
}

TEST_CASE("initialize_to_identity ignores the old value") {
    sycl::queue q;
    float* sum = sycl::malloc_shared<float>(1, q);
    *sum = 1000.0f;
    q.submit([&](sycl::handler& h) {
        h.parallel_for(sycl::range<1>{64},
                       sycl::reduction(sum, sycl::plus<>(), sycl::property::reduction::initialize_to_identity{}),
                       [=](sycl::id<1>, auto& s) { s += 0.5f; });
    });
    q.wait();
    CHECK(*sum == 32.0f);
    sycl::free(sum, q);
}

TEST_CASE("a reduction over a 2-D range and over an nd_range with local memory") {
    sycl::queue q;
    int* count = sycl::malloc_shared<int>(1, q);
    *count = 0;
    q.parallel_for(sycl::range<2>{30, 40}, sycl::reduction(count, sycl::plus<int>()),
                   [=](sycl::item<2> it, auto& c) {
                       if ((it[0] + it[1]) % 2 == 0) ++c;
                   })
        .wait();
    CHECK(*count == 600);

    constexpr std::size_t n = 1024, wg = 64;
    double* values = sycl::malloc_shared<double>(n, q);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<double>(i);
    double* total = sycl::malloc_shared<double>(1, q);
    *total = 0;
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<double> tile{sycl::range<1>{wg}, h};
        h.parallel_for(sycl::nd_range<1>{n, wg}, sycl::reduction(total, sycl::plus<double>()),
                       [=](sycl::nd_item<1> it, auto& t) {
                           tile[it.get_local_id(0)] = values[it.get_global_id(0)];
                           sycl::group_barrier(it.get_group());
                           if (it.get_local_id(0) == 0) {
                               double group_sum = 0;
                               for (std::size_t k = 0; k < wg; ++k) group_sum += tile[k];
                               t += group_sum;
                           }
                       });
    });
    q.wait();
    CHECK(*total == doctest::Approx(n * (n - 1) / 2.0));
    sycl::free(count, q);
    sycl::free(values, q);
    sycl::free(total, q);
}

TEST_CASE("a custom operation with an explicit identity") {
    struct pair_max {
        int value, index;
    };
    auto larger = [](pair_max a, pair_max b) { return b.value > a.value || (b.value == a.value && b.index < a.index) ? b : a; };
    sycl::queue q;
    constexpr int n = 5000;
    int* data = sycl::malloc_shared<int>(n, q);
    for (int i = 0; i < n; ++i) data[i] = (i * 37) % 4999;
    pair_max* best = sycl::malloc_shared<pair_max>(1, q);
    *best = {-1, -1};
    q.parallel_for(sycl::range<1>{n}, sycl::reduction(best, pair_max{-1, -1}, larger),
                   [=](sycl::id<1> i, auto& b) { b.combine(pair_max{data[i], static_cast<int>(i[0])}); })
        .wait();
    int expected = 0;
    for (int i = 1; i < n; ++i)
        if (data[i] > data[expected]) expected = i;
    CHECK(best->value == data[expected]);
    CHECK(best->index == expected);

    // A custom operation without an identity: only combined values count.
    int* product = sycl::malloc_shared<int>(1, q);
    *product = 1;
    q.parallel_for(sycl::range<1>{10}, sycl::reduction(product, [](int a, int b) { return a * b; }),
                   [=](sycl::id<1> i, auto& p) {
                       if (i[0] < 5) p.combine(2);
                   })
        .wait();
    CHECK(*product == 32);

    // The reducer of a custom operation reports the identity it was given.
    int* seen = sycl::malloc_shared<int>(1, q);
    *seen = 0;
    q.parallel_for(sycl::range<1>{4}, sycl::reduction(seen, 100, [](int a, int b) { return a > b ? a : b; }),
                   [=](sycl::id<1>, auto& m) { m.combine(m.identity() + 1); })
        .wait();
    CHECK(*seen == 101);
    sycl::free(seen, q);
    sycl::free(data, q);
    sycl::free(best, q);
    sycl::free(product, q);
}

TEST_CASE("a reduction into a buffer orders the command group like a read_write accessor") {
    sycl::queue q;
    std::vector<int> input(1000);
    std::iota(input.begin(), input.end(), 1);
    sycl::buffer in{input};
    sycl::buffer<int> result{sycl::range<1>{1}};
    {
        sycl::host_accessor r{result};
        r[0] = 7;
    }
    q.submit([&](sycl::handler& h) {
        sycl::accessor a{in, h, sycl::read_only};
        h.parallel_for(sycl::range<1>{1000}, sycl::reduction(result, h, sycl::plus<>()),
                       [=](sycl::id<1> i, auto& s) { s += a[i]; });
    });
    q.submit([&](sycl::handler& h) {
        h.parallel_for(sycl::range<1>{4}, sycl::reduction(result, h, 1, sycl::multiplies<int>()),
                       [=](sycl::id<1>, auto& p) { p *= 2; });
    });
    sycl::host_accessor r{result, sycl::read_only};
    CHECK(r[0] == (7 + 500500) * 16);
}

TEST_CASE("reducers know their identity; known_identity gives SYCL's identities") {
    CHECK(sycl::known_identity_v<sycl::plus<int>, int> == 0);
    CHECK(sycl::known_identity_v<sycl::multiplies<float>, float> == 1.0f);
    CHECK(sycl::known_identity_v<sycl::minimum<int>, int> == std::numeric_limits<int>::max());
    CHECK(sycl::known_identity_v<sycl::maximum<double>, double> == -std::numeric_limits<double>::infinity());
    CHECK(sycl::known_identity_v<sycl::bit_and<unsigned>, unsigned> == ~0u);
    CHECK(sycl::has_known_identity_v<sycl::bit_or<int>, int>);
    CHECK_FALSE(sycl::has_known_identity_v<sycl::bit_or<float>, float>);

    sycl::queue q;
    unsigned* bits = sycl::malloc_shared<unsigned>(1, q);
    int* identity_seen = sycl::malloc_shared<int>(1, q);
    *bits = 0;
    *identity_seen = 0;
    q.parallel_for(sycl::range<1>{32}, sycl::reduction(bits, sycl::bit_or<unsigned>()),
                   sycl::reduction(identity_seen, sycl::maximum<int>()), [=](sycl::id<1> i, auto& b, auto& m) {
                       b |= 1u << i[0];
                       m.combine(m.identity() == std::numeric_limits<int>::min() ? 1 : -1);
                   })
        .wait();
    CHECK(*bits == 0xffffffffu);
    CHECK(*identity_seen == 1);
    sycl::free(bits, q);
    sycl::free(identity_seen, q);
}

TEST_CASE("a reduction over an empty range leaves the result as it was") {
    sycl::queue q;
    int* sum = sycl::malloc_shared<int>(1, q);
    *sum = 3;
    q.parallel_for(sycl::range<1>{0}, sycl::reduction(sum, sycl::plus<int>()), [=](sycl::id<1>, auto& s) { s += 1; })
        .wait();
    CHECK(*sum == 3);
    sycl::free(sum, q);
}

TEST_CASE("a reduction with a null result pointer throws errc::invalid") {
    int* none = nullptr;
    try {
        (void)sycl::reduction(none, sycl::plus<int>());
        FAIL("a null result was accepted");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
    }
}

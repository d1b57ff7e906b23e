// sycl::atomic_ref for int, float and double in kernels, written as ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

TEST_CASE("atomic_ref<int>: concurrent fetch_add, fetch_min, fetch_max and bit operations") {
    sycl::queue q;
    constexpr int n = 20000;
    int* cells = sycl::malloc_shared<int>(6, q);
    cells[0] = 0;       // sum
    cells[1] = 1 << 30; // min
    cells[2] = -1;      // max
    cells[3] = 0;       // or
    cells[4] = -1;      // and
    cells[5] = 0;       // counter by ++
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) {
        const int v = static_cast<int>(i[0]);
        using ref = sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device>;
        ref(cells[0]).fetch_add(v);
        ref(cells[1]).fetch_min(v + 5);
        ref(cells[2]).fetch_max(v);
        ref(cells[3]).fetch_or(1 << (v % 31));
        ref(cells[4]).fetch_and(~(1 << (v % 7)));
        ref counter(cells[5]);
        counter++;
    }).wait();
    CHECK(cells[0] == n * (n - 1) / 2);
    CHECK(cells[1] == 5);
    CHECK(cells[2] == n - 1);
    CHECK(cells[3] == 0x7fffffff);
    CHECK(cells[4] == ~0x7f);
    CHECK(cells[5] == n);
    sycl::free(cells, q);
}

TEST_CASE("atomic_ref<float> and atomic_ref<double>: add, min, max, exchange, compare_exchange") {
    sycl::queue q;
    float* f = sycl::malloc_shared<float>(3, q);
    double* d = sycl::malloc_shared<double>(2, q);
    f[0] = 0.0f;
    f[1] = 1e30f;
    f[2] = -1e30f;
    d[0] = 0.0;
    d[1] = 0.0;
    constexpr std::size_t n = 4096;
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) {
        sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> sum(f[0]);
        sum += 0.25f; // exactly representable: the total is exact whatever the order
        sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device>(f[1]).fetch_min(
            static_cast<float>(i[0]) - 10.0f);
        sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device>(f[2]).fetch_max(
            static_cast<float>(i[0]));
        sycl::atomic_ref<double, sycl::memory_order::acq_rel, sycl::memory_scope::device> total(d[0]);
        total.fetch_add(0.5);
        // A compare-exchange loop that doubles-and-adds, the way kernels build their own atomic operations.
        sycl::atomic_ref<double, sycl::memory_order::seq_cst, sycl::memory_scope::system> count(d[1]);
        double expected = count.load();
        while (!count.compare_exchange_weak(expected, expected + 1.0)) {
        }
    }).wait();
    CHECK(f[0] == 1024.0f);
    CHECK(f[1] == -10.0f);
    CHECK(f[2] == static_cast<float>(n - 1));
    CHECK(d[0] == 2048.0);
    CHECK(d[1] == static_cast<double>(n));

    sycl::atomic_ref<double, sycl::memory_order::relaxed, sycl::memory_scope::device> one(d[0]);
    CHECK(one.exchange(3.0) == 2048.0);
    CHECK(one.load() == 3.0);
    one.store(4.0);
    CHECK(static_cast<double>(one) == 4.0);
    double wrong = 1.0;
    CHECK_FALSE(one.compare_exchange_strong(wrong, 5.0));
    CHECK(wrong == 4.0);
    CHECK(one.compare_exchange_strong(wrong, 5.0));
    CHECK(one.load() == 5.0);
    CHECK(decltype(one)::default_read_order == sycl::memory_order::relaxed);
    sycl::free(f, q);
    sycl::free(d, q);
}

TEST_CASE("atomic_ref in an nd_range kernel: a histogram in local memory merged into global memory") {
    sycl::queue q;
    constexpr std::size_t n = 8192, wg = 128, bins = 16;
    unsigned* data = sycl::malloc_shared<unsigned>(n, q);
    unsigned* histogram = sycl::malloc_shared<unsigned>(bins, q);
    for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<unsigned>((i * 2654435761u) % 1000);
    std::fill(histogram, histogram + bins, 0u);
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<unsigned> local{sycl::range<1>{bins}, h};
        h.parallel_for(sycl::nd_range<1>{n, wg}, [=](sycl::nd_item<1> it) {
            const std::size_t l = it.get_local_id(0);
            if (l < bins) local[l] = 0;
            sycl::group_barrier(it.get_group());
            sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                             sycl::access::address_space::local_space>
                bin(local[data[it.get_global_id(0)] % bins]);
            bin.fetch_add(1u);
            sycl::group_barrier(it.get_group());
            if (l < bins)
                sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::device>(histogram[l])
                    .fetch_add(local[l]);
        });
    });
    q.wait();
    unsigned expected[bins] = {};
    for (std::size_t i = 0; i < n; ++i) ++expected[data[i] % bins];
    bool ok = true;
    for (std::size_t b = 0; b < bins; ++b) ok = ok && histogram[b] == expected[b];
    CHECK(ok);
    sycl::free(data, q);
    sycl::free(histogram, q);
}

// Work-group local memory, group barriers and reductions together: per-group sums through local memory, a
// reduction over a range that does not fill its last work-group, an nd_range reduction with work-groups of 40
// (a partial warp on a GPU), a recorded graph whose reductions start from their identities, replayed, then
// updated to another graph of the same shape, and two sums in one kernel over 2-D work-groups, and a sum over
// work-groups smaller than a warp.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

namespace sycl_exp = sycl::ext::oneapi::experimental;

// The minimum and maximum of data[i] + add (one kernel: a whole-graph update keeps the kernels of the graph).
void min_max(sycl::queue& q, const int* data, std::size_t n, int* lo, int* hi, int add) {
    q.parallel_for(sycl::range<1>{n},
                   sycl::reduction(lo, sycl::minimum<int>(), sycl::property::reduction::initialize_to_identity{}),
                   sycl::reduction(hi, sycl::maximum<int>(), sycl::property::reduction::initialize_to_identity{}),
                   [=](sycl::id<1> i, auto& mn, auto& mx) {
                       mn.combine(data[i] + add);
                       mx.combine(data[i] + add);
                   });
}

int main() {
    const std::size_t n = 1000003, group = 64, groups = 4096;
    std::vector<int> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<int>((i * 2654435761u) % 1001) - 500;
    sycl::queue q;
    int* data = sycl::malloc_shared<int>(n, q);
    int* sums = sycl::malloc_shared<int>(groups, q);
    long long* total = sycl::malloc_shared<long long>(1, q);
    int* lo = sycl::malloc_shared<int>(1, q);
    int* hi = sycl::malloc_shared<int>(1, q);
    double* nd_total = sycl::malloc_shared<double>(1, q);
    for (std::size_t i = 0; i < n; ++i) data[i] = host[i];
    int wrong = 0;

    // 1. Per-group sums in local memory (a tree between barriers).
    q.submit([&](sycl::handler& h) {
        sycl::local_accessor<int> scratch{sycl::range<1>{group}, h};
        h.parallel_for(sycl::nd_range<1>{groups * group, group}, [=](sycl::nd_item<1> it) {
            const std::size_t local = it.get_local_id(0);
            scratch[local] = data[it.get_global_id(0)];
            for (std::size_t stride = it.get_local_range(0) / 2; stride > 0; stride /= 2) {
                sycl::group_barrier(it.get_group());
                if (local < stride) scratch[local] += scratch[local + stride];
            }
            if (local == 0) sums[it.get_group(0)] = scratch[0];
        });
    });
    q.wait_and_throw();
    for (std::size_t g = 0; g < groups; ++g) {
        int expected = 0;
        for (std::size_t i = g * group; i < (g + 1) * group; ++i) expected += host[i];
        wrong += sums[g] != expected;
    }

    // 2. A range reduction (n is prime: the last work-group is partial), added to the result's value.
    *total = 1000;
    q.parallel_for(sycl::range<1>{n}, sycl::reduction(total, sycl::plus<long long>()),
                   [=](sycl::id<1> i, auto& s) { s += data[i]; })
        .wait_and_throw();
    long long expected_total = 1000;
    for (int v : host) expected_total += v;
    wrong += *total != expected_total;

    // 3. nd_range, work-groups of 40.
    *nd_total = 0.5;
    q.parallel_for(sycl::nd_range<1>{40 * 1000, 40}, sycl::reduction(nd_total, sycl::plus<double>()),
                   [=](sycl::nd_item<1> it, auto& s) { s += 0.25 * data[it.get_global_id(0)]; })
        .wait_and_throw();
    double expected_nd = 0.5;
    for (std::size_t i = 0; i < 40 * 1000; ++i) expected_nd += 0.25 * host[i];
    wrong += *nd_total != expected_nd;

    // 4. A recorded graph: minimum and maximum from their identities, replayed after changing the data.
    sycl_exp::command_graph graph{q.get_context(), q.get_device()};
    graph.begin_recording(q);
    min_max(q, data, n, lo, hi, 0);
    graph.end_recording();
    auto exec = graph.finalize({sycl_exp::property::graph::updatable{}});
    for (int replay = 0; replay < 5; ++replay) {
        data[replay * 1000] = -100000 - replay; // a new minimum each time
        data[replay * 1000 + 1] = 100000 + replay;
        q.ext_oneapi_graph(exec).wait_and_throw();
        wrong += *lo != -100000 - replay || *hi != 100000 + replay;
    }

    // 5. The whole graph updated to one of the same shape whose reductions write elsewhere.
    int* lo2 = sycl::malloc_shared<int>(1, q);
    int* hi2 = sycl::malloc_shared<int>(1, q);
    sycl_exp::command_graph other{q.get_context(), q.get_device()};
    other.begin_recording(q);
    min_max(q, data, n, lo2, hi2, 1);
    other.end_recording();
    exec.update(other);
    *lo = *hi = 0;
    q.ext_oneapi_graph(exec).wait_and_throw();
    wrong += *lo2 != -100003 || *hi2 != 100005 || *lo != 0 || *hi != 0;
    const int updated_lo = *lo2, updated_hi = *hi2;
    sycl::free(lo2, q);
    sycl::free(hi2, q);

    // 6. Two sums of the same type in one kernel, over 2-D work-groups of 6 x 8 (48 items: a whole warp and a
    //    partial one on a GPU), and a sum over work-groups of 16 (less than a warp).
    int* pair = sycl::malloc_shared<int>(3, q);
    pair[0] = pair[1] = pair[2] = 7;
    q.parallel_for(sycl::nd_range<2>{{60, 80}, {6, 8}},
                   sycl::reduction(pair, sycl::plus<int>(), sycl::property::reduction::initialize_to_identity{}),
                   sycl::reduction(pair + 1, sycl::plus<int>(), sycl::property::reduction::initialize_to_identity{}),
                   [=](sycl::nd_item<2> it, auto& a, auto& b) {
                       const std::size_t i = it.get_global_linear_id();
                       a += data[i];
                       b += 2 * data[i] + 1;
                   })
        .wait_and_throw();
    q.parallel_for(sycl::nd_range<1>{16 * 300, 16}, sycl::reduction(pair + 2, sycl::plus<int>()),
                   [=](sycl::nd_item<1> it, auto& s) { s += data[it.get_global_id(0)]; })
        .wait_and_throw();
    int expected_a = 0, expected_b = 0, expected_small = 7;
    for (std::size_t i = 0; i < 60 * 80; ++i) {
        expected_a += data[i]; // the graph's replays changed some
        expected_b += 2 * data[i] + 1;
    }
    for (std::size_t i = 0; i < 16 * 300; ++i) expected_small += data[i];
    wrong += pair[0] != expected_a || pair[1] != expected_b || pair[2] != expected_small;

    std::printf("group_reduction: group sums %d, %d, ...; range sum %lld (expected %lld); nd_range sum %g "
                "(expected %g); updated graph min %d max %d; 2-D sums %d, %d (expected %d, %d); small-group sum %d "
                "(expected %d); %d wrong\n",
                sums[0], sums[1], *total, expected_total, *nd_total, expected_nd, updated_lo, updated_hi, pair[0],
                pair[1], expected_a, expected_b, pair[2], expected_small, wrong);
    sycl::free(pair, q);
    for (void* p : {static_cast<void*>(data), static_cast<void*>(sums), static_cast<void*>(total),
                    static_cast<void*>(lo), static_cast<void*>(hi), static_cast<void*>(nd_total)})
        sycl::free(p, q);
    return wrong == 0 ? 0 : 1;
}

// Heap allocations per SYCL submission on the eager path (issue 40): each form below is submitted many times on
// the native backend, and the allocations the submitting thread makes per submission are counted (operator new
// is replaced in this program). The budget of each form is what it costs today: the test fails when a change
// makes a form allocate more, and its message gives the new count (lower a budget when a change saves some).
// The work the backend's threads do to run a command is not counted: this is the submission path only.
//
// What is left (2026-11-28, second change): nothing for a command group whose captures fit its kernel object. The
// kernel object (which holds the lambda's captures) and the engine's record of the command with its event come from
// pools of blocks of their size (backends/detail/block_pool.hpp), refilled by the threads that drop them; the
// warm-up fills those pools. A kernel with local accessors still has its list of local allocations (1: the kernel
// command's argument vector). Before the pools: 2 per submission (3 with local accessors); before that, 4 to 9.
// A budget of 0.05 allows one refill of a pool in 20 submissions (none was seen here); a form that allocates
// again per submission shows 1.00 and fails. Not yet for the out-of-order form: on an idle machine it allocates
// nothing either, but with the cores busy (meson running other tests beside it; three busy loops on the 2-core
// VM) its events miss their pool 0.2 to 1.0 times per submission (they are dropped on worker threads, whose caches
// keep them), so its budget stays 1.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/experimental/enqueue_functions.hpp>

#include "encore/runtime/runtime.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

namespace {

thread_local bool counting = false;
thread_local long counted = 0;

void* allocate(std::size_t bytes, std::size_t alignment) {
    if (counting) ++counted;
    if (bytes == 0) bytes = 1;
    void* p = alignment > alignof(std::max_align_t) ? std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment)
                                                   : std::malloc(bytes);
    if (!p) throw std::bad_alloc();
    return p;
}

} // namespace

void* operator new(std::size_t bytes) { return allocate(bytes, alignof(std::max_align_t)); }
void* operator new[](std::size_t bytes) { return allocate(bytes, alignof(std::max_align_t)); }
void* operator new(std::size_t bytes, std::align_val_t a) { return allocate(bytes, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t bytes, std::align_val_t a) { return allocate(bytes, static_cast<std::size_t>(a)); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept try {
    return allocate(bytes, alignof(std::max_align_t));
} catch (...) {
    return nullptr;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

namespace syclex = sycl::ext::oneapi::experimental;

constexpr int warm_up = 2000; // fills the pools: a worker keeps up to 64 free blocks of each before it gives back
constexpr int submissions = 400;

// Allocations per call of `submit` on this thread, after a warm-up (pools, caches and first-use state filled).
template <typename Submit> double allocations_per_submission(sycl::queue& q, Submit submit) {
    for (int i = 0; i < warm_up; ++i) submit();
    q.wait();
    counted = 0;
    counting = true;
    for (int i = 0; i < submissions; ++i) submit();
    counting = false;
    q.wait();
    return static_cast<double>(counted) / submissions;
}

void check_budget(const char* form, double measured, double budget) {
    std::printf("%-44s %5.2f allocations per submission (budget %.2f)\n", form, measured, budget);
    CHECK_MESSAGE(measured <= budget, form << ": " << measured << " allocations per submission, over its budget of "
                                           << budget);
}

} // namespace

TEST_CASE("the eager SYCL submission path allocates no more than its budget per command group") {
    sycl::queue q{sycl::property::queue::in_order{}};
    REQUIRE(q.get_device().is_cpu());
    int* p = sycl::malloc_shared<int>(1024, q);
    q.fill(p, 0, 1024).wait();

    check_budget("parallel_for(range) on USM, shortcut",
                 allocations_per_submission(q, [&] { q.parallel_for(sycl::range<1>{1024}, [=](sycl::id<1> i) { p[i] += 1; }); }),
                 0.05);
    check_budget("single_task, shortcut",
                 allocations_per_submission(q, [&] { q.single_task([=] { p[0] += 1; }); }), 0.05);
    check_budget("submit: nd_range + local_accessor + barrier",
                 allocations_per_submission(q,
                                            [&] {
                                                q.submit([&](sycl::handler& h) {
                                                    sycl::local_accessor<int, 1> tile(64, h);
                                                    h.parallel_for(sycl::nd_range<1>{64, 64}, [=](sycl::nd_item<1> it) {
                                                        const auto l = it.get_local_id(0);
                                                        tile[l] = p[l];
                                                        sycl::group_barrier(it.get_group());
                                                        p[l] = tile[63 - l];
                                                    });
                                                });
                                            }),
                 1.05);
    check_budget("nd_launch (enqueue functions, no event)",
                 allocations_per_submission(q,
                                            [&] {
                                                syclex::nd_launch(q, sycl::nd_range<1>{64, 64},
                                                                  [=](sycl::nd_item<1> it) { p[it.get_global_id(0)] += 1; });
                                            }),
                 0.05);
    sycl::buffer<int, 1> b{sycl::range<1>{1024}};
    check_budget("submit: buffer accessor",
                 allocations_per_submission(q,
                                            [&] {
                                                q.submit([&](sycl::handler& h) {
                                                    sycl::accessor a{b, h, sycl::read_write};
                                                    h.parallel_for(sycl::range<1>{1024}, [=](sycl::id<1> i) { a[i] += 1; });
                                                });
                                            }),
                 0.05);

    sycl::queue ooo;
    sycl::event last = ooo.single_task([=] { p[1] = 0; });
    check_budget("out-of-order submit with depends_on(event)",
                 allocations_per_submission(ooo,
                                            [&] {
                                                last = ooo.submit([&](sycl::handler& h) {
                                                    h.depends_on(last);
                                                    h.single_task([=] { p[1] += 1; });
                                                });
                                            }),
                 1.05); // 0.00 on an idle machine; see the top of the file

    // The floor: the engine-level submission of a kernel made once (the SYCL path's "raw" peer in
    // bench/sycl_submit): its command's record comes from a pool too.
    const auto devices = encore::device::all();
    const auto native = std::find_if(devices.begin(), devices.end(),
                                     [](const encore::device& d) { return d.properties().host_kernels; });
    REQUIRE(native != devices.end());
    encore::queue engine(*native, encore::queue_properties{.in_order = true});
    const auto add = encore::make_kernel("add_one", [p](const encore::work_item& it) { p[it.global_id[0]] += 1; });
    double engine_count = 0;
    {
        for (int i = 0; i < warm_up; ++i) engine.parallel_for(encore::range(1024), add, encore::event_list{});
        engine.wait();
        counted = 0;
        counting = true;
        for (int i = 0; i < submissions; ++i) engine.parallel_for(encore::range(1024), add, encore::event_list{});
        counting = false;
        engine.wait();
        engine_count = static_cast<double>(counted) / submissions;
    }
    check_budget("engine: encore::queue::parallel_for (the floor)", engine_count, 0.05);
    sycl::free(p, q);
}

// Kernels for the Level Zero tests, as a native binary of the test driver: a host shared object exporting
// encore_ze_kernels (tests/level_zero/driver/kernel_abi.h). Each entry runs one work-group and loops over its
// items.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>

#include "../driver/kernel_abi.h"

namespace {

template <typename T> T argument(const encore_ze_group* g, int i) {
    return *static_cast<const T*>(g->arguments[i]);
}

std::uint32_t group_items(const encore_ze_group* g) {
    return g->group_size[0] * g->group_size[1] * g->group_size[2];
}

// x[i] *= a   (float a, float* x)
void scale_f32(const encore_ze_group* g) {
    const float a = argument<float>(g, 0);
    float* x = argument<float*>(g, 1);
    for (std::uint32_t i = 0; i < g->group_size[0]; ++i)
        x[g->group_id[0] * g->group_size[0] + i] *= a;
}

// x[i] += 1   (int* x)
void add_one(const encore_ze_group* g) {
    int* x = argument<int*>(g, 0);
    for (std::uint32_t i = 0; i < g->group_size[0]; ++i)
        x[g->group_id[0] * g->group_size[0] + i] += 1;
}

// dst[i] = src[i] + 1   (int* dst, const int* src)
void copy_plus_one(const encore_ze_group* g) {
    int* dst = argument<int*>(g, 0);
    const int* src = argument<const int*>(g, 1);
    for (std::uint32_t i = 0; i < g->group_size[0]; ++i) {
        const std::size_t at = g->group_id[0] * g->group_size[0] + i;
        dst[at] = src[at] + 1;
    }
}

// out[y * width + x] = y * 1000 + x over a 2D range: Level Zero's x is SYCL's last dimension.
// (int* out, uint32_t width)
void index_2d(const encore_ze_group* g) {
    int* out = argument<int*>(g, 0);
    const std::uint32_t width = argument<std::uint32_t>(g, 1);
    for (std::uint32_t ly = 0; ly < g->group_size[1]; ++ly)
        for (std::uint32_t lx = 0; lx < g->group_size[0]; ++lx) {
            const std::uint32_t x = g->group_id[0] * g->group_size[0] + lx;
            const std::uint32_t y = g->group_id[1] * g->group_size[1] + ly;
            out[y * width + x] = static_cast<int>(y * 1000 + x);
        }
}

// out[group] = sum of in[] over the group, staged through local memory.   (int* out, const int* in, local
// int*)
void group_sum(const encore_ze_group* g) {
    int* out = argument<int*>(g, 0);
    const int* in = argument<const int*>(g, 1);
    int* local = argument<int*>(g, 2);
    const std::uint32_t n = group_items(g);
    for (std::uint32_t i = 0; i < n; ++i) // every item writes its value ...
        local[i] = in[g->group_id[0] * n + i];
    int sum = 0; // ... and after the group barrier (the loop's end) item 0 adds them up
    for (std::uint32_t i = 0; i < n; ++i)
        sum += local[i];
    out[g->group_id[0]] = sum;
}

// Spins until *flag is 1 (at most 5 s), then sets *seen to 1 if it was.   (int* flag, int* seen)
// With set_flag in another partition it shows that the two run at the same time: one after the other, the
// wait would time out (or never end).
void wait_for_flag(const encore_ze_group* g) {
    auto* flag = argument<int*>(g, 0);
    int* seen = argument<int*>(g, 1);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != 1 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
    *seen = __atomic_load_n(flag, __ATOMIC_ACQUIRE) == 1 ? 1 : 0;
}

// *flag = 1   (int* flag)
void set_flag(const encore_ze_group* g) {
    __atomic_store_n(argument<int*>(g, 0), 1, __ATOMIC_RELEASE);
}

// does nothing: the cost of a launch itself
void noop(const encore_ze_group*) {}

// The behaviour suites' kernels (tests/support/test_kernels.hpp says what each does), in this driver's form.

// the global id of work-item `local` of the group along x
std::size_t global_x(const encore_ze_group* g, std::uint32_t local) {
    return std::size_t{g->group_id[0]} * g->group_size[0] + local;
}

// p[i] += v   (int* p, int v)
void add(const encore_ze_group* g) {
    int* p = argument<int*>(g, 0);
    const int v = argument<int>(g, 1);
    for (std::uint32_t i = 0; i < g->group_size[0]; ++i)
        p[global_x(g, i)] += v;
}

// p[0] = a * p[0] + b   (unsigned* p, unsigned a, unsigned b), one work-item
void affine(const encore_ze_group* g) {
    auto* p = argument<unsigned*>(g, 0);
    *p = argument<unsigned>(g, 1) * *p + argument<unsigned>(g, 2);
}

// p[i] *= f   (int* p, int f)
void scale(const encore_ze_group* g) {
    int* p = argument<int*>(g, 0);
    const int f = argument<int>(g, 1);
    for (std::uint32_t i = 0; i < g->group_size[0]; ++i)
        p[global_x(g, i)] *= f;
}

// p[i0 * width + i1] = value over a 2-D range; SYCL's i1 (the fastest) is x   (int* p, int value, unsigned
// width)
void set_2d(const encore_ze_group* g) {
    int* p = argument<int*>(g, 0);
    const int value = argument<int>(g, 1);
    const unsigned width = argument<unsigned>(g, 2);
    for (std::uint32_t ly = 0; ly < g->group_size[1]; ++ly)
        for (std::uint32_t lx = 0; lx < g->group_size[0]; ++lx) {
            const std::size_t i1 = global_x(g, lx), i0 = std::size_t{g->group_id[1]} * g->group_size[1] + ly;
            p[i0 * width + i1] = value;
        }
}

// v[i] = i + sum over j < count of v[preds[j]] * (preds[j] % 7 + 1)   (unsigned* v, unsigned i, const
// unsigned* preds, unsigned count), one work-item
void combine(const encore_ze_group* g) {
    auto* v = argument<unsigned*>(g, 0);
    const unsigned i = argument<unsigned>(g, 1);
    const auto* preds = argument<const unsigned*>(g, 2);
    const unsigned count = argument<unsigned>(g, 3);
    unsigned sum = i;
    for (unsigned j = 0; j < count; ++j)
        sum += v[preds[j]] * (preds[j] % 7 + 1);
    v[i] = sum;
}

// c[j*w+i] = (1 + c[(j-1)*w+i] + c[j*w+i-1]) % 1000003, 0 outside   (int* c, unsigned i, unsigned j, unsigned
// w)
void cell(const encore_ze_group* g) {
    int* c = argument<int*>(g, 0);
    const unsigned i = argument<unsigned>(g, 1), j = argument<unsigned>(g, 2), w = argument<unsigned>(g, 3);
    const int up = j > 0 ? c[(j - 1) * w + i] : 0, left = i > 0 ? c[j * w + i - 1] : 0;
    c[j * w + i] = (1 + up + left) % 1000003;
}

// dst[i] = dst[i] * 2654435761 + src[i] + salt   (unsigned* dst, const unsigned* src, unsigned salt)
void mix(const encore_ze_group* g) {
    auto* dst = argument<unsigned*>(g, 0);
    const auto* src = argument<const unsigned*>(g, 1);
    const unsigned salt = argument<unsigned>(g, 2);
    for (std::uint32_t l = 0; l < g->group_size[0]; ++l) {
        const std::size_t i = global_x(g, l);
        dst[i] = dst[i] * 2654435761u + src[i] + salt;
    }
}

const std::uint32_t pointer_and_int[] = {sizeof(void*), sizeof(int)};
const std::uint32_t affine_sizes[] = {sizeof(void*), sizeof(unsigned), sizeof(unsigned)};
const std::uint32_t set_2d_sizes[] = {sizeof(void*), sizeof(int), sizeof(unsigned)};
const std::uint32_t combine_sizes[] = {sizeof(void*), sizeof(unsigned), sizeof(void*), sizeof(unsigned)};
const std::uint32_t cell_sizes[] = {sizeof(void*), sizeof(unsigned), sizeof(unsigned), sizeof(unsigned)};
const std::uint32_t mix_sizes[] = {sizeof(void*), sizeof(void*), sizeof(unsigned)};
const std::uint32_t scale_sizes[] = {sizeof(float), sizeof(void*)};
const std::uint32_t pointer_size[] = {sizeof(void*)};
const std::uint32_t two_pointers[] = {sizeof(void*), sizeof(void*)};
const std::uint32_t index_2d_sizes[] = {sizeof(void*), sizeof(std::uint32_t)};
const std::uint32_t group_sum_sizes[] = {sizeof(void*), sizeof(void*), 0};

const encore_ze_kernel_info kernels[] = {
    {"scale_f32", 2, scale_sizes, scale_f32},
    {"add", 2, pointer_and_int, add},
    {"affine", 3, affine_sizes, affine},
    {"scale", 2, pointer_and_int, scale},
    {"set_2d", 3, set_2d_sizes, set_2d},
    {"combine", 4, combine_sizes, combine},
    {"cell", 4, cell_sizes, cell},
    {"mix", 3, mix_sizes, mix},
    {"add_one", 1, pointer_size, add_one},
    {"copy_plus_one", 2, two_pointers, copy_plus_one},
    {"index_2d", 2, index_2d_sizes, index_2d},
    {"group_sum", 3, group_sum_sizes, group_sum},
    {"wait_for_flag", 2, two_pointers, wait_for_flag},
    {"set_flag", 1, pointer_size, set_flag},
    {"noop", 0, nullptr, noop},
};

} // namespace

ENCORE_ZE_EXPORT const encore_ze_kernel_table encore_ze_kernels = {
    ENCORE_ZE_KERNEL_ABI_VERSION, sizeof kernels / sizeof kernels[0], kernels};

// C = A * B for square matrices, with buffers and an nd_range kernel that stages tiles of A and B in local
// memory between group barriers.
#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
    constexpr std::size_t n = 96, tile = 16;
    std::vector<float> a(n * n), b(n * n), c(n * n, 0.0f);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            a[i * n + j] = static_cast<float>((i + j) % 5);
            b[i * n + j] = static_cast<float>((i * 3 + j) % 7) - 3.0f;
        }
    sycl::queue q;
    {
        sycl::buffer<float, 2> ba{a.data(), sycl::range<2>{n, n}};
        sycl::buffer<float, 2> bb{b.data(), sycl::range<2>{n, n}};
        sycl::buffer<float, 2> bc{c.data(), sycl::range<2>{n, n}};
        q.submit([&](sycl::handler& h) {
            sycl::accessor A{ba, h, sycl::read_only};
            sycl::accessor B{bb, h, sycl::read_only};
            sycl::accessor C{bc, h, sycl::write_only, sycl::no_init};
            sycl::local_accessor<float, 2> ta{sycl::range<2>{tile, tile}, h};
            sycl::local_accessor<float, 2> tb{sycl::range<2>{tile, tile}, h};
            h.parallel_for(sycl::nd_range<2>{{n, n}, {tile, tile}}, [=](sycl::nd_item<2> it) {
                const std::size_t row = it.get_global_id(0), col = it.get_global_id(1);
                const std::size_t lr = it.get_local_id(0), lc = it.get_local_id(1);
                float sum = 0.0f;
                for (std::size_t t = 0; t < n / tile; ++t) {
                    ta[lr][lc] = A[row][t * tile + lc];
                    tb[lr][lc] = B[t * tile + lr][col];
                    sycl::group_barrier(it.get_group());
                    for (std::size_t k = 0; k < tile; ++k) sum += ta[lr][k] * tb[k][lc];
                    sycl::group_barrier(it.get_group());
                }
                C[row][col] = sum;
            });
        });
    }
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            float expected = 0.0f;
            for (std::size_t k = 0; k < n; ++k) expected += a[i * n + k] * b[k * n + j];
            if (std::fabs(c[i * n + j] - expected) > 1e-3f) {
                std::printf("C[%zu][%zu] = %f, expected %f\n", i, j, c[i * n + j], expected);
                return 1;
            }
        }
    std::printf("matrix_multiply: %zux%zu ok\n", n, n);
    return 0;
}

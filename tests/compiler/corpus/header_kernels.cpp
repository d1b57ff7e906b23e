// A program laid out as code bases are: kernels and the functions they call in its own headers (nested, templated,
// unannotated), kernels in a source it includes, a generic lambda, a lambda in a function template of this file.
// Each result is compared with the same arithmetic on the host. Built by g++ and by encore++ for native and CUDA
// (tests/compiler/meson.build, "corpus").
#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include <sycl/sycl.hpp>

#include "../../conformance/shared_array.hpp"
#include "corpus/kernels.hpp"
#include "kernels_impl.cpp"

namespace {

template <typename T> void add_offset(sycl::queue& q, T* data, std::size_t n, T offset) {
    q.parallel_for(sycl::range<1>(n), [=](auto i) { data[i] += offset; }).wait(); // a generic lambda
}

} // namespace

TEST_CASE("corpus: kernels and device functions in the program's headers and included sources") {
    sycl::queue q;
    MESSAGE("device: " << q.get_device().get_info<sycl::info::device::name>());
    constexpr std::size_t n = 100;
    int* data = shared_array<int>(q, n);
    for (std::size_t i = 0; i < n; ++i)
        data[i] = static_cast<int>(i) - 50;
    q.parallel_for(sycl::range<1>(n), corpus::scale_kernel{data, 2}).wait();
    for (std::size_t i = 0; i < n; ++i) {
        const int x = static_cast<int>(i) - 50;
        CHECK(data[i] == (x * x - 1 + 3) * 2);
    }

    long* squares = shared_array<long>(q, n);
    corpus::fill_squares(q, squares, n).wait();
    double* real_squares = shared_array<double>(q, n);
    corpus::fill_squares(q, real_squares, n).wait();
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(squares[i] == 1 + static_cast<long>(i * i));
        CHECK(real_squares[i] == 1.0 + static_cast<double>(i * i));
    }

    int* pairs = shared_array<int>(q, n);
    corpus::sum_pairs(q, data, pairs, n).wait();
    for (std::size_t i = 0; i < n; ++i)
        CHECK(pairs[i] == data[i] + (i + 1 < n ? data[i + 1] : 0) + 3);

    add_offset(q, pairs, n, 7);
    add_offset(q, real_squares, n, 0.5);
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(pairs[i] == data[i] + (i + 1 < n ? data[i + 1] : 0) + 10);
        CHECK(real_squares[i] == 1.5 + static_cast<double>(i * i));
    }
    for (void* p : {static_cast<void*>(data), static_cast<void*>(squares), static_cast<void*>(real_squares),
                    static_cast<void*>(pairs)})
        sycl::free(p, q);
}

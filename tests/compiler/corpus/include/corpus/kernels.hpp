// Kernels of a program's own header: a functor, a function template that launches a lambda, a function that
// launches a named kernel. None carries an annotation.
#pragma once

#include <cstddef>

#include <sycl/sycl.hpp>

#include "math/ops.hpp"

namespace corpus {

// A functor kernel whose call operator is defined here.
struct scale_kernel {
    int* data;
    int factor;
    void operator()(sycl::id<1> i) const { data[i] = math::mix(data[i], 1) * factor; }
};

// A lambda kernel inside a function template of the header.
template <typename T> sycl::event fill_squares(sycl::queue& q, T* out, std::size_t n) {
    return q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        math::accumulator<T> a(T(1));
        a.add(static_cast<T>(i[0]));
        out[i] = a.total();
    });
}

// A named kernel of a plain function declared here and defined in an included source (kernels_impl.cpp).
sycl::event sum_pairs(sycl::queue& q, const int* in, int* out, std::size_t n);

} // namespace corpus

// The kernels the behaviour suites launch, in the form each backend runs: C++ lambdas (encore::make_kernel) on the
// native backend and the plugins that forward to it, OpenCL C programs built for the device on the OpenCL backend,
// a native binary of the test driver on the Level Zero backend (tests/level_zero/kernels).
// One test body so runs unchanged on every backend; a body that needs what only host code can do (a kernel that
// throws, captures host state) asks runs_host_kernels() and says why it skips the others.
//
//     for (const auto& d : devices_under_test()) {
//         const auto& k = kernels_for(d);
//         q.submit(kernel_command{k.affine, {from_pointer(x), from_scalar(3u), from_scalar(1u)}, range(1)});
//     }
//
// Every kernel takes USM pointers of the device (kernel_argument::from_pointer) and scalars, in this order:
//   add(int* p, int v)                         p[i] += v for each work-item i (1-D)
//   affine(unsigned* p, unsigned a, unsigned b) p[0] = a * p[0] + b (one work-item: order-sensitive)
//   scale(int* p, int f)                       p[i] *= f (1-D)
//   set_2d(int* p, int value, unsigned width)  p[i0 * width + i1] = value (2-D, SYCL ids i0, i1)
//   combine(unsigned* v, unsigned i, const unsigned* preds, unsigned count)
//                                              v[i] = i + sum over j < count of v[preds[j]] * (preds[j] % 7 + 1)
//   cell(int* c, unsigned i, unsigned j, unsigned w)
//                                              c[j*w+i] = (1 + c[(j-1)*w+i] + c[j*w+i-1]) % 1000003, with 0
//                                              outside the grid (one work-item: a wavefront cell)
//   mix(unsigned* dst, const unsigned* src, unsigned salt)
//                                              dst[i] = dst[i] * 2654435761 + src[i] + salt (1-D; its OpenCL C
//                                              name is mix_step: `mix` is an OpenCL C built-in, which PoCL
//                                              lists as `_cl_mix`)
#pragma once

#include <memory>
#include <string>

#include "encore/runtime/device.hpp"
#include "encore/graph/kernel.hpp"

namespace encore::testing {

struct test_kernels {
    std::shared_ptr<const kernel> add, affine, scale, set_2d, combine, cell, mix;
};

// The kernels for `d`'s backend, built once per device. Throws encore::error(feature_not_supported) for a backend
// that has no form of them.
const test_kernels& kernels_for(const device& d);

// Whether `d` runs host-compiled kernels (make_kernel lambdas): the native backend and the plugins forwarding
// to it. Other backends reject them with errc::kernel_not_supported.
bool runs_host_kernels(const device& d);

// Why a body that needs host-compiled kernels does not run on `d`, for the test's MESSAGE.
std::string host_kernels_skip_reason(const device& d);

} // namespace encore::testing

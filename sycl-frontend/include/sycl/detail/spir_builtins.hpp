// sycl::detail::spir — the OpenCL built-ins encore++'s spir64 device code calls for what CUDA code gets from nvcc:
// the work-group barrier and memory fences, and the math functions sycl/builtins.hpp computes with (CUDA's device
// math library there). Declared in C++ under their OpenCL C mangled names (asm labels), which
// llvm-spirv and the OpenCL drivers know, so no OpenCL name enters the program's namespaces.
// Not for you: include <sycl/sycl.hpp>.
#pragma once

#if !defined(ENCORE_DEVICE_SPIR)
#error "sycl/detail/spir_builtins.hpp is for encore++'s spir64 device compile"
#endif

namespace sycl {
inline namespace _V1 {
namespace detail::spir {

// OpenCL's cl_mem_fence_flags.
inline constexpr unsigned local_fence = 1, global_fence = 2;

// Every work-item of the work-group waits here; `flags`: the memory its accesses before are ordered for.
__attribute__((device)) void barrier(unsigned flags) __asm__("_Z7barrierj");
__attribute__((device)) void mem_fence(unsigned flags) __asm__("_Z9mem_fencej");

// The group barrier SYCL's group_barrier and nd_item::barrier mean: global and local memory ordered.
__attribute__((host, device)) inline void group_barrier() { barrier(local_fence | global_fence); }

// The math functions, for float and double (OpenCL C's `sin(float)` and `sin(double)`). The names are OpenCL C's
// mangled names, so each is the driver's own built-in: its precision is the device's, within OpenCL's bounds, as
// SYCL specifies. Pointer arguments are private memory (OpenCL 1.2 has no generic address space, and PoCL's library
// has no generic overloads): the caller passes a local variable.
using private_int = __attribute__((opencl_private)) int;
#define ENCORE_SPIR_MATH1(length, name)                                                                              \
    __attribute__((device)) float name(float) __asm__("_Z" #length #name "f");                                      \
    __attribute__((device)) double name(double) __asm__("_Z" #length #name "d");
#define ENCORE_SPIR_MATH2(length, name)                                                                              \
    __attribute__((device)) float name(float, float) __asm__("_Z" #length #name "ff");                              \
    __attribute__((device)) double name(double, double) __asm__("_Z" #length #name "dd");
ENCORE_SPIR_MATH1(4, acos)
ENCORE_SPIR_MATH1(5, acosh)
ENCORE_SPIR_MATH1(4, asin)
ENCORE_SPIR_MATH1(5, asinh)
ENCORE_SPIR_MATH1(4, atan)
ENCORE_SPIR_MATH2(5, atan2)
ENCORE_SPIR_MATH1(5, atanh)
ENCORE_SPIR_MATH1(4, cbrt)
ENCORE_SPIR_MATH1(4, ceil)
ENCORE_SPIR_MATH2(8, copysign)
ENCORE_SPIR_MATH1(3, cos)
ENCORE_SPIR_MATH1(4, cosh)
ENCORE_SPIR_MATH1(5, cospi)
ENCORE_SPIR_MATH1(4, erfc)
ENCORE_SPIR_MATH1(3, erf)
ENCORE_SPIR_MATH1(3, exp)
ENCORE_SPIR_MATH1(4, exp2)
ENCORE_SPIR_MATH1(5, exp10)
ENCORE_SPIR_MATH1(5, expm1)
ENCORE_SPIR_MATH1(4, fabs)
ENCORE_SPIR_MATH2(4, fdim)
ENCORE_SPIR_MATH1(5, floor)
ENCORE_SPIR_MATH2(4, fmax)
ENCORE_SPIR_MATH2(4, fmin)
ENCORE_SPIR_MATH2(4, fmod)
ENCORE_SPIR_MATH2(5, hypot)
ENCORE_SPIR_MATH1(6, lgamma)
ENCORE_SPIR_MATH1(3, log)
ENCORE_SPIR_MATH1(4, log2)
ENCORE_SPIR_MATH1(5, log10)
ENCORE_SPIR_MATH1(5, log1p)
ENCORE_SPIR_MATH1(4, logb)
ENCORE_SPIR_MATH2(9, nextafter)
ENCORE_SPIR_MATH2(3, pow)
ENCORE_SPIR_MATH2(9, remainder)
ENCORE_SPIR_MATH1(4, rint)
ENCORE_SPIR_MATH1(5, round)
ENCORE_SPIR_MATH1(5, rsqrt)
ENCORE_SPIR_MATH1(3, sin)
ENCORE_SPIR_MATH1(4, sinh)
ENCORE_SPIR_MATH1(5, sinpi)
ENCORE_SPIR_MATH1(4, sqrt)
ENCORE_SPIR_MATH1(3, tan)
ENCORE_SPIR_MATH1(4, tanh)
ENCORE_SPIR_MATH1(6, tgamma)
ENCORE_SPIR_MATH1(5, trunc)
#undef ENCORE_SPIR_MATH1
#undef ENCORE_SPIR_MATH2
__attribute__((device)) float fma(float, float, float) __asm__("_Z3fmafff");
__attribute__((device)) double fma(double, double, double) __asm__("_Z3fmaddd");
__attribute__((device)) int ilogb(float) __asm__("_Z5ilogbf");
__attribute__((device)) int ilogb(double) __asm__("_Z5ilogbd");
__attribute__((device)) float ldexp(float, int) __asm__("_Z5ldexpfi");
__attribute__((device)) double ldexp(double, int) __asm__("_Z5ldexpdi");
__attribute__((device)) float frexp(float, private_int*) __asm__("_Z5frexpfPi");
__attribute__((device)) double frexp(double, private_int*) __asm__("_Z5frexpdPi");
__attribute__((device)) float remquo(float, float, private_int*) __asm__("_Z6remquoffPi");
__attribute__((device)) double remquo(double, double, private_int*) __asm__("_Z6remquoddPi");
// The same with a pointer to an int anywhere, for sycl/builtins.hpp's callers: through a local variable of the
// function, which is private memory (the cast only says so).
template <typename T> __attribute__((device)) inline T frexp(T x, int* e) {
    int mine = 0;
    const T m = frexp(x, (private_int*)&mine);
    *e = mine;
    return m;
}
template <typename T> __attribute__((device)) inline T remquo(T x, T y, int* q) {
    int mine = 0;
    const T r = remquo(x, y, (private_int*)&mine);
    *q = mine;
    return r;
}
// The high half of a 64-bit product.
__attribute__((device)) long mul_hi(long, long) __asm__("_Z6mul_hill");
__attribute__((device)) unsigned long mul_hi(unsigned long, unsigned long) __asm__("_Z6mul_himm");

} // namespace detail::spir
} // namespace _V1
} // namespace sycl

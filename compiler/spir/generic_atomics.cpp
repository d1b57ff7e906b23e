// The atomics SPIR modules call on generic pointers, and mem_fence, for OpenCL devices that take SPIR 1.2 bitcode
// (cl_khr_spir) but whose kernel library has no generic-address-space atomics (PoCL 3.1: "Cannot find symbol
// _Z10atomic_addPU3AS4Vii in kernel library").
//
// encore++'s spir64 device code is C++ compiled by Clang 15 in HIP device mode for spirv64, where pointers are
// generic (docs/compiler.md, "The SPIR-V target"). Its atomics are LLVM atomic instructions (the __sync builtins:
// Clang 15's SPIR targets give every __atomic builtin to a library call, __atomic_fetch_add_4 and kin, which no
// device has). llvm-spirv-15 turns them into SPIR-V's OpAtomic*, and its reverse translation (SPIR-V to SPIR 1.2
// bitcode, the form PoCL loads) into calls of OpenCL 1.2's atomic functions on generic pointers: atomic_add etc.
// for 32-bit values (signless, except min and max), atom_add etc. (cl_khr_int64_*_atomics) for 64-bit ones. This
// file defines exactly those, under their mangled names, as the atomic instructions PoCL's own LLVM compiles;
// llvm-link puts them into the module before it is loaded. Built by compiler/spir/meson.build
// (generic_atomics.bc); the functions are sequentially consistent, as the __sync builtins are.
//
// A device that takes SPIR-V (clCreateProgramWithIL, zeModuleCreate) gets the module before the reverse
// translation: its driver has these atomics itself.
#include <cstdint>

#define ENCORE_SPIR_ATOMIC(name, T, body)                                                                    \
    __attribute__((device)) T encore_##name(volatile T* p, T v) __asm__(#name);                              \
    __attribute__((device)) T encore_##name(volatile T* p, T v) {                                            \
        return body;                                                                                         \
    }

// Stores `v` where `better(old, v)`, by compare-and-exchange (Clang has __sync min and max for 32 bits only).
template <typename T, typename Better>
__attribute__((device)) T exchange_if(volatile T* p, T v, Better better) {
    T old = *p;
    while (better(old, v)) {
        const T seen = __sync_val_compare_and_swap(p, old, v);
        if (seen == old) break;
        old = seen;
    }
    return old;
}

// 32-bit: OpenCL 1.2's atomic_* (SPIR-V's integers are signless: one int form, but min and max per sign).
ENCORE_SPIR_ATOMIC(_Z10atomic_addPU3AS4Vii, int, __sync_fetch_and_add(p, v))
ENCORE_SPIR_ATOMIC(_Z10atomic_subPU3AS4Vii, int, __sync_fetch_and_sub(p, v))
ENCORE_SPIR_ATOMIC(_Z10atomic_andPU3AS4Vii, int, __sync_fetch_and_and(p, v))
ENCORE_SPIR_ATOMIC(_Z9atomic_orPU3AS4Vii, int, __sync_fetch_and_or(p, v))
ENCORE_SPIR_ATOMIC(_Z10atomic_xorPU3AS4Vii, int, __sync_fetch_and_xor(p, v))
ENCORE_SPIR_ATOMIC(_Z11atomic_xchgPU3AS4Vii, int, __sync_lock_test_and_set(p, v))
ENCORE_SPIR_ATOMIC(_Z10atomic_minPU3AS4Vii, int, __sync_fetch_and_min(p, v))
ENCORE_SPIR_ATOMIC(_Z10atomic_maxPU3AS4Vii, int, __sync_fetch_and_max(p, v))
ENCORE_SPIR_ATOMIC(_Z10atomic_minPU3AS4Vjj, unsigned, __sync_fetch_and_umin(p, v))
ENCORE_SPIR_ATOMIC(_Z10atomic_maxPU3AS4Vjj, unsigned, __sync_fetch_and_umax(p, v))

// 64-bit: cl_khr_int64_base_atomics' and cl_khr_int64_extended_atomics' atom_*.
ENCORE_SPIR_ATOMIC(_Z8atom_addPU3AS4Vll, long, __sync_fetch_and_add(p, v))
ENCORE_SPIR_ATOMIC(_Z8atom_subPU3AS4Vll, long, __sync_fetch_and_sub(p, v))
ENCORE_SPIR_ATOMIC(_Z8atom_andPU3AS4Vll, long, __sync_fetch_and_and(p, v))
ENCORE_SPIR_ATOMIC(_Z7atom_orPU3AS4Vll, long, __sync_fetch_and_or(p, v))
ENCORE_SPIR_ATOMIC(_Z8atom_xorPU3AS4Vll, long, __sync_fetch_and_xor(p, v))
ENCORE_SPIR_ATOMIC(_Z9atom_xchgPU3AS4Vll, long, __sync_lock_test_and_set(p, v))
ENCORE_SPIR_ATOMIC(_Z8atom_minPU3AS4Vll, long, exchange_if(p, v, [](long a, long b) { return b < a; }))
ENCORE_SPIR_ATOMIC(_Z8atom_maxPU3AS4Vll, long, exchange_if(p, v, [](long a, long b) { return b > a; }))
ENCORE_SPIR_ATOMIC(_Z8atom_minPU3AS4Vmm, unsigned long,
                   exchange_if(p, v, [](unsigned long a, unsigned long b) { return b < a; }))
ENCORE_SPIR_ATOMIC(_Z8atom_maxPU3AS4Vmm, unsigned long,
                   exchange_if(p, v, [](unsigned long a, unsigned long b) { return b > a; }))

// Compare-and-exchange: (pointer, expected, desired), the old value.
__attribute__((device)) int encore_atomic_cmpxchg(volatile int* p, int expected, int desired) __asm__(
    "_Z14atomic_cmpxchgPU3AS4Viii");
__attribute__((device)) int encore_atomic_cmpxchg(volatile int* p, int expected, int desired) {
    return __sync_val_compare_and_swap(p, expected, desired);
}
__attribute__((device)) long encore_atom_cmpxchg(volatile long* p, long expected, long desired) __asm__(
    "_Z12atom_cmpxchgPU3AS4Vlll");
__attribute__((device)) long encore_atom_cmpxchg(volatile long* p, long expected, long desired) {
    return __sync_val_compare_and_swap(p, expected, desired);
}

// OpenCL 1.2's mem_fence (what sycl::atomic_fence calls in SPIR-V device code: sycl/detail/spir_builtins.hpp), which
// PoCL 3.1's kernel library lacks too ("Cannot find symbol _Z9mem_fencej"): a sequentially consistent fence, at
// least as strong as any flags ask for.
__attribute__((device)) void encore_mem_fence(unsigned flags) __asm__("_Z9mem_fencej");
__attribute__((device)) void encore_mem_fence(unsigned flags) {
    static_cast<void>(flags);
    __sync_synchronize();
}

// The kernel objects of spir_entry.cpp, as the host and the device both see them (the test passes them by value).
#pragma once

#include <cstddef>

#if defined(__HIP_DEVICE_COMPILE__)
#define SPIR_ENTRY_HOST_DEVICE __attribute__((host, device))
#else
#define SPIR_ENTRY_HOST_DEVICE
#endif

struct scale_kernel {
    int* out;
    int factor;
    SPIR_ENTRY_HOST_DEVICE void operator()(std::size_t i) const { out[i] = factor * static_cast<int>(i); }
};

struct group_sum_kernel {
    int* data;
    int* total;
    long* largest;
    unsigned* groups;
    // LLVM atomic instructions (the __sync builtins): what the SYCL headers' atomics will be on this target. The
    // 32-bit add becomes OpenCL's atomic_add on a generic pointer, the loops atomic_cmpxchg and atom_cmpxchg.
    SPIR_ENTRY_HOST_DEVICE void add_sum(int sum) const { __sync_fetch_and_add(total, sum); }
    SPIR_ENTRY_HOST_DEVICE void raise_largest(long value) const {
        long seen = *largest;
        while (value > seen) {
            const long before = __sync_val_compare_and_swap(largest, seen, value);
            if (before == seen) return;
            seen = before;
        }
    }
    SPIR_ENTRY_HOST_DEVICE void count_group() const {
        unsigned seen = *groups;
        for (;;) {
            const unsigned before = __sync_val_compare_and_swap(groups, seen, seen + 1);
            if (before == seen) return;
            seen = before;
        }
    }
};

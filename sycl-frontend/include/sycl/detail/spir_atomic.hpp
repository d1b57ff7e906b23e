// sycl::detail::spir_atomic — what sycl::atomic_ref runs on in encore++'s spir64 device code: std::atomic_ref's
// members, as LLVM atomic instructions (the __sync builtins). Clang 15's SPIR targets give every __atomic and
// std::atomic operation to a library call (__atomic_fetch_add_4) that no device has; __sync_* always emits
// `atomicrmw`/`cmpxchg`, sequentially consistent, which is at least as strong as any order SYCL asks for. Values of
// 4 and 8 bytes; floating-point and other non-integral types go through their bits with compare-and-exchange.
// Not for you: include <sycl/sycl.hpp>.
#pragma once

#if !defined(ENCORE_DEVICE_SPIR)
#error "sycl/detail/spir_atomic.hpp is for encore++'s spir64 device compile"
#endif

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sycl {
inline namespace _V1 {
namespace detail {

template <typename T> class spir_atomic {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomic_ref in SPIR-V device code: values of 4 or 8 bytes");
    using bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

public:
    __attribute__((host, device)) explicit spir_atomic(T& object) noexcept : object_(&object) {}

    template <typename Order> __attribute__((host, device)) T load(Order) const noexcept {
        return from(__sync_fetch_and_or(word(), bits{0}));
    }
    template <typename Order> __attribute__((host, device)) void store(T value, Order) const noexcept {
        exchange(value, 0);
    }
    template <typename Order> __attribute__((host, device)) T exchange(T value, Order) const noexcept {
        bits seen = *word();
        for (;;) {
            const bits before = __sync_val_compare_and_swap(word(), seen, to(value));
            if (before == seen) return from(before);
            seen = before;
        }
    }
    template <typename Order>
    __attribute__((host, device)) bool compare_exchange_strong(T& expected, T desired, Order, Order) const noexcept {
        const bits want = to(expected);
        const bits before = __sync_val_compare_and_swap(word(), want, to(desired));
        if (before == want) return true;
        expected = from(before);
        return false;
    }
    template <typename Order>
    __attribute__((host, device)) bool compare_exchange_weak(T& expected, T desired, Order s, Order f) const noexcept {
        return compare_exchange_strong(expected, desired, s, f);
    }
    template <typename Order> __attribute__((host, device)) T fetch_add(T operand, Order) const noexcept {
        if constexpr (std::is_integral_v<T>)
            return __sync_fetch_and_add(object_, operand);
        else
            return update([operand](T old) { return old + operand; });
    }
    template <typename Order> __attribute__((host, device)) T fetch_sub(T operand, Order) const noexcept {
        if constexpr (std::is_integral_v<T>)
            return __sync_fetch_and_sub(object_, operand);
        else
            return update([operand](T old) { return old - operand; });
    }
    template <typename Order> __attribute__((host, device)) T fetch_and(T operand, Order) const noexcept {
        return __sync_fetch_and_and(object_, operand);
    }
    template <typename Order> __attribute__((host, device)) T fetch_or(T operand, Order) const noexcept {
        return __sync_fetch_and_or(object_, operand);
    }
    template <typename Order> __attribute__((host, device)) T fetch_xor(T operand, Order) const noexcept {
        return __sync_fetch_and_xor(object_, operand);
    }

private:
    __attribute__((host, device)) bits* word() const noexcept { return reinterpret_cast<bits*>(object_); }
    __attribute__((host, device)) static bits to(T value) noexcept {
        bits b;
        __builtin_memcpy(&b, &value, sizeof b);
        return b;
    }
    __attribute__((host, device)) static T from(bits b) noexcept {
        T value;
        __builtin_memcpy(&value, &b, sizeof value);
        return value;
    }
    // The old value, after storing f(old) by compare-and-exchange.
    template <typename F> __attribute__((host, device)) T update(F f) const noexcept {
        bits seen = *word();
        for (;;) {
            const bits before = __sync_val_compare_and_swap(word(), seen, to(f(from(seen))));
            if (before == seen) return from(before);
            seen = before;
        }
    }

    T* object_;
};

} // namespace detail
} // namespace _V1
} // namespace sycl

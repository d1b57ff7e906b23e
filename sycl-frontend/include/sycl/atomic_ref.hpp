// sycl::atomic_ref (SYCL 2020 section 4.15.3): atomic operations on an object that is not itself atomic, for
// integral and floating-point types. On the host (the native backend's kernels run on host threads) each
// operation is std::atomic_ref's, with SYCL's interface (default order and scope, fetch_min/fetch_max); in CUDA
// device code (nvcc: kernels outlined by encore++, single-source kernels) it is libcu++'s cuda::atomic_ref at
// device scope. memory_scope only widens what that already gives.
//
//     sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> count{*counter};
//     count.fetch_add(1);
#pragma once

#include <atomic>
#include <type_traits>

#if defined(__CUDACC__)
#include <cuda/atomic>
#endif

#include "detail/host_device.hpp"
#if defined(ENCORE_DEVICE_SPIR)
#include "detail/spir_atomic.hpp"
#endif

#include "buffer.hpp" // access::address_space
#include "detail/host_device.hpp"
#include "item.hpp"

namespace sycl {
inline namespace _V1 {

enum class memory_order { relaxed, acquire, release, acq_rel, seq_cst };
inline constexpr auto memory_order_relaxed = memory_order::relaxed;
inline constexpr auto memory_order_acquire = memory_order::acquire;
inline constexpr auto memory_order_release = memory_order::release;
inline constexpr auto memory_order_acq_rel = memory_order::acq_rel;
inline constexpr auto memory_order_seq_cst = memory_order::seq_cst;

namespace detail {
ENCORE_HOST_DEVICE constexpr std::memory_order to_std(memory_order o) noexcept {
    switch (o) {
    case memory_order::relaxed: return std::memory_order_relaxed;
    case memory_order::acquire: return std::memory_order_acquire;
    case memory_order::release: return std::memory_order_release;
    case memory_order::acq_rel: return std::memory_order_acq_rel;
    case memory_order::seq_cst: return std::memory_order_seq_cst;
    }
    return std::memory_order_seq_cst;
}
// The order a load may use when the operation's order is `o` (a load cannot release).
ENCORE_HOST_DEVICE constexpr memory_order load_order(memory_order o) noexcept {
    return o == memory_order::release ? memory_order::relaxed
           : o == memory_order::acq_rel ? memory_order::acquire
                                        : o;
}
ENCORE_HOST_DEVICE constexpr memory_order store_order(memory_order o) noexcept {
    return o == memory_order::acquire ? memory_order::relaxed
           : o == memory_order::acq_rel ? memory_order::release
                                        : o;
}
} // namespace detail

template <typename T, memory_order DefaultOrder, memory_scope DefaultScope,
          access::address_space AddressSpace = access::address_space::generic_space>
class atomic_ref {
    static_assert(std::is_integral_v<T> || std::is_floating_point_v<T>,
                  "sycl::atomic_ref supports integral and floating-point types");

public:
    using value_type = T;
    using difference_type = T;
    static constexpr std::size_t required_alignment = std::atomic_ref<T>::required_alignment;
    static constexpr bool is_always_lock_free = std::atomic_ref<T>::is_always_lock_free;
    static constexpr memory_order default_read_order = detail::load_order(DefaultOrder);
    static constexpr memory_order default_write_order = detail::store_order(DefaultOrder);
    static constexpr memory_order default_read_modify_write_order = DefaultOrder;
    static constexpr memory_scope default_scope = DefaultScope;

    ENCORE_HOST_DEVICE explicit atomic_ref(T& object) : object_(&object) {}
    atomic_ref(const atomic_ref&) noexcept = default;
    atomic_ref& operator=(const atomic_ref&) = delete;

    bool is_lock_free() const noexcept { return std::atomic_ref<T>(*object_).is_lock_free(); }

    ENCORE_HOST_DEVICE void store(T value, memory_order order = default_write_order,
                          memory_scope = default_scope) const noexcept {
        ref_().store(value, order_(order));
    }
    ENCORE_HOST_DEVICE T operator=(T value) const noexcept {
        store(value);
        return value;
    }
    ENCORE_HOST_DEVICE T load(memory_order order = default_read_order, memory_scope = default_scope) const noexcept {
        return ref_().load(order_(order));
    }
    ENCORE_HOST_DEVICE operator T() const noexcept { return load(); }
    ENCORE_HOST_DEVICE T exchange(T value, memory_order order = DefaultOrder,
                          memory_scope = default_scope) const noexcept {
        return ref_().exchange(value, order_(order));
    }
    ENCORE_HOST_DEVICE bool compare_exchange_weak(T& expected, T desired, memory_order success, memory_order failure,
                               memory_scope = default_scope) const noexcept {
        return ref_().compare_exchange_weak(expected, desired, order_(success), order_(failure));
    }
    ENCORE_HOST_DEVICE bool compare_exchange_weak(T& expected, T desired, memory_order order = DefaultOrder,
                               memory_scope scope = default_scope) const noexcept {
        return compare_exchange_weak(expected, desired, order, detail::load_order(order), scope);
    }
    ENCORE_HOST_DEVICE bool compare_exchange_strong(T& expected, T desired, memory_order success, memory_order failure,
                                 memory_scope = default_scope) const noexcept {
        return ref_().compare_exchange_strong(expected, desired, order_(success), order_(failure));
    }
    ENCORE_HOST_DEVICE bool compare_exchange_strong(T& expected, T desired, memory_order order = DefaultOrder,
                                 memory_scope scope = default_scope) const noexcept {
        return compare_exchange_strong(expected, desired, order, detail::load_order(order), scope);
    }

    ENCORE_HOST_DEVICE T fetch_add(T operand, memory_order order = DefaultOrder,
                          memory_scope = default_scope) const noexcept {
        return ref_().fetch_add(operand, order_(order));
    }
    ENCORE_HOST_DEVICE T fetch_sub(T operand, memory_order order = DefaultOrder,
                          memory_scope = default_scope) const noexcept {
        return ref_().fetch_sub(operand, order_(order));
    }
    ENCORE_HOST_DEVICE T fetch_and(T operand, memory_order order = DefaultOrder,
                          memory_scope = default_scope) const noexcept
        requires std::is_integral_v<T>
    {
        return ref_().fetch_and(operand, order_(order));
    }
    ENCORE_HOST_DEVICE T fetch_or(T operand, memory_order order = DefaultOrder,
                          memory_scope = default_scope) const noexcept
        requires std::is_integral_v<T>
    {
        return ref_().fetch_or(operand, order_(order));
    }
    ENCORE_HOST_DEVICE T fetch_xor(T operand, memory_order order = DefaultOrder,
                          memory_scope = default_scope) const noexcept
        requires std::is_integral_v<T>
    {
        return ref_().fetch_xor(operand, order_(order));
    }
    // A compare-exchange loop: C++ has no atomic min and max.
    ENCORE_HOST_DEVICE T fetch_min(T operand, memory_order order = DefaultOrder,
                          memory_scope = default_scope) const noexcept {
        T old = ref_().load(order_(memory_order::relaxed));
        while (operand < old && !compare_exchange_weak(old, operand, order)) {
        }
        return old;
    }
    ENCORE_HOST_DEVICE T fetch_max(T operand, memory_order order = DefaultOrder,
                          memory_scope = default_scope) const noexcept {
        T old = ref_().load(order_(memory_order::relaxed));
        while (old < operand && !compare_exchange_weak(old, operand, order)) {
        }
        return old;
    }

    ENCORE_HOST_DEVICE T operator+=(T operand) const noexcept { return fetch_add(operand) + operand; }
    ENCORE_HOST_DEVICE T operator-=(T operand) const noexcept { return fetch_sub(operand) - operand; }
    ENCORE_HOST_DEVICE T operator&=(T operand) const noexcept
        requires std::is_integral_v<T>
    {
        return fetch_and(operand) & operand;
    }
    ENCORE_HOST_DEVICE T operator|=(T operand) const noexcept
        requires std::is_integral_v<T>
    {
        return fetch_or(operand) | operand;
    }
    ENCORE_HOST_DEVICE T operator^=(T operand) const noexcept
        requires std::is_integral_v<T>
    {
        return fetch_xor(operand) ^ operand;
    }
    ENCORE_HOST_DEVICE T operator++(int) const noexcept requires std::is_integral_v<T> { return fetch_add(1); }
    ENCORE_HOST_DEVICE T operator--(int) const noexcept requires std::is_integral_v<T> { return fetch_sub(1); }
    ENCORE_HOST_DEVICE T operator++() const noexcept requires std::is_integral_v<T> { return fetch_add(1) + 1; }
    ENCORE_HOST_DEVICE T operator--() const noexcept requires std::is_integral_v<T> { return fetch_sub(1) - 1; }

private:
#if defined(__CUDA_ARCH__)
    __device__ cuda::atomic_ref<T, cuda::thread_scope_device> ref_() const {
        return cuda::atomic_ref<T, cuda::thread_scope_device>(*object_);
    }
    __device__ static constexpr cuda::std::memory_order order_(memory_order o) noexcept {
        return static_cast<cuda::std::memory_order>(detail::to_std(o));
    }
#elif defined(ENCORE_DEVICE_SPIR)
    ENCORE_HOST_DEVICE detail::spir_atomic<T> ref_() const noexcept { return detail::spir_atomic<T>(*object_); }
    ENCORE_HOST_DEVICE static constexpr std::memory_order order_(memory_order o) noexcept { return detail::to_std(o); }
#else
    std::atomic_ref<T> ref_() const noexcept { return std::atomic_ref<T>(*object_); }
    static constexpr std::memory_order order_(memory_order o) noexcept { return detail::to_std(o); }
#endif

    T* object_;
};

} // namespace _V1
} // namespace sycl

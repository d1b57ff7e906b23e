// sycl::atomic_ref (SYCL 2020 section 4.15.3): atomic operations on an object that is not itself atomic, for
// integral and floating-point types. Encore's kernels run on host threads, so it is std::atomic_ref with SYCL's
// interface (default order and scope, fetch_min/fetch_max); memory_scope only widens what C++ already gives.
//
//     sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> count{*counter};
//     count.fetch_add(1);
#pragma once

#include <atomic>
#include <type_traits>

#include "item.hpp"

namespace sycl {
inline namespace _V1 {

enum class memory_order { relaxed, acquire, release, acq_rel, seq_cst };
inline constexpr auto memory_order_relaxed = memory_order::relaxed;
inline constexpr auto memory_order_acquire = memory_order::acquire;
inline constexpr auto memory_order_release = memory_order::release;
inline constexpr auto memory_order_acq_rel = memory_order::acq_rel;
inline constexpr auto memory_order_seq_cst = memory_order::seq_cst;

namespace access {
enum class address_space { global_space, local_space, constant_space, private_space, generic_space };
}

namespace detail {
constexpr std::memory_order to_std(memory_order o) noexcept {
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
constexpr memory_order load_order(memory_order o) noexcept {
    return o == memory_order::release ? memory_order::relaxed
           : o == memory_order::acq_rel ? memory_order::acquire
                                        : o;
}
constexpr memory_order store_order(memory_order o) noexcept {
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

    explicit atomic_ref(T& object) : ref_(object) {}
    atomic_ref(const atomic_ref&) noexcept = default;
    atomic_ref& operator=(const atomic_ref&) = delete;

    bool is_lock_free() const noexcept { return ref_.is_lock_free(); }

    void store(T value, memory_order order = default_write_order, memory_scope = default_scope) const noexcept {
        ref_.store(value, detail::to_std(order));
    }
    T operator=(T value) const noexcept {
        store(value);
        return value;
    }
    T load(memory_order order = default_read_order, memory_scope = default_scope) const noexcept {
        return ref_.load(detail::to_std(order));
    }
    operator T() const noexcept { return load(); }
    T exchange(T value, memory_order order = DefaultOrder, memory_scope = default_scope) const noexcept {
        return ref_.exchange(value, detail::to_std(order));
    }
    bool compare_exchange_weak(T& expected, T desired, memory_order success, memory_order failure,
                               memory_scope = default_scope) const noexcept {
        return ref_.compare_exchange_weak(expected, desired, detail::to_std(success), detail::to_std(failure));
    }
    bool compare_exchange_weak(T& expected, T desired, memory_order order = DefaultOrder,
                               memory_scope scope = default_scope) const noexcept {
        return compare_exchange_weak(expected, desired, order, detail::load_order(order), scope);
    }
    bool compare_exchange_strong(T& expected, T desired, memory_order success, memory_order failure,
                                 memory_scope = default_scope) const noexcept {
        return ref_.compare_exchange_strong(expected, desired, detail::to_std(success), detail::to_std(failure));
    }
    bool compare_exchange_strong(T& expected, T desired, memory_order order = DefaultOrder,
                                 memory_scope scope = default_scope) const noexcept {
        return compare_exchange_strong(expected, desired, order, detail::load_order(order), scope);
    }

    T fetch_add(T operand, memory_order order = DefaultOrder, memory_scope = default_scope) const noexcept {
        return ref_.fetch_add(operand, detail::to_std(order));
    }
    T fetch_sub(T operand, memory_order order = DefaultOrder, memory_scope = default_scope) const noexcept {
        return ref_.fetch_sub(operand, detail::to_std(order));
    }
    T fetch_and(T operand, memory_order order = DefaultOrder, memory_scope = default_scope) const noexcept
        requires std::is_integral_v<T>
    {
        return ref_.fetch_and(operand, detail::to_std(order));
    }
    T fetch_or(T operand, memory_order order = DefaultOrder, memory_scope = default_scope) const noexcept
        requires std::is_integral_v<T>
    {
        return ref_.fetch_or(operand, detail::to_std(order));
    }
    T fetch_xor(T operand, memory_order order = DefaultOrder, memory_scope = default_scope) const noexcept
        requires std::is_integral_v<T>
    {
        return ref_.fetch_xor(operand, detail::to_std(order));
    }
    // A compare-exchange loop: C++ has no atomic min and max.
    T fetch_min(T operand, memory_order order = DefaultOrder, memory_scope = default_scope) const noexcept {
        T old = ref_.load(std::memory_order_relaxed);
        while (operand < old && !compare_exchange_weak(old, operand, order)) {
        }
        return old;
    }
    T fetch_max(T operand, memory_order order = DefaultOrder, memory_scope = default_scope) const noexcept {
        T old = ref_.load(std::memory_order_relaxed);
        while (old < operand && !compare_exchange_weak(old, operand, order)) {
        }
        return old;
    }

    T operator+=(T operand) const noexcept { return fetch_add(operand) + operand; }
    T operator-=(T operand) const noexcept { return fetch_sub(operand) - operand; }
    T operator&=(T operand) const noexcept requires std::is_integral_v<T> { return fetch_and(operand) & operand; }
    T operator|=(T operand) const noexcept requires std::is_integral_v<T> { return fetch_or(operand) | operand; }
    T operator^=(T operand) const noexcept requires std::is_integral_v<T> { return fetch_xor(operand) ^ operand; }
    T operator++(int) const noexcept requires std::is_integral_v<T> { return fetch_add(1); }
    T operator--(int) const noexcept requires std::is_integral_v<T> { return fetch_sub(1); }
    T operator++() const noexcept requires std::is_integral_v<T> { return fetch_add(1) + 1; }
    T operator--() const noexcept requires std::is_integral_v<T> { return fetch_sub(1) - 1; }

private:
    std::atomic_ref<T> ref_;
};

} // namespace _V1
} // namespace sycl

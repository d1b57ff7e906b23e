// sycl::multi_ptr (SYCL 2020 section 4.7.7.1): a pointer that carries its address space in its type, and the
// aliases global_ptr, local_ptr, private_ptr (with raw_ and decorated_ forms), address_space_cast and
// remove_decoration.
//
// Encore's devices (the CPU, CUDA through encore++) address every space with plain pointers, so a multi_ptr is one
// pointer and `pointer` is `ElementType*` whatever the decoration; the space is checked only where the
// specification converts between spaces (a multi_ptr of a named space converts to generic_space, not back).
//
//     h.parallel_for(sycl::nd_range<1>{{n}, {64}}, [=](sycl::nd_item<1> it) {
//         sycl::local_ptr<float> tile = scratch.get_multi_ptr<sycl::access::decorated::no>();
//         tile[it.get_local_id(0)] = in[it.get_global_id(0)];
//     });
#pragma once

#include <compare>
#include <cstddef>
#include <functional>
#include <iterator>
#include <type_traits>

#include "buffer.hpp"
#include "detail/host_device.hpp"

namespace sycl {
inline namespace _V1 {

template <typename DataT, int Dimensions, access_mode AccessMode, target AccessTarget,
          access::placeholder IsPlaceholder>
class accessor;
template <typename DataT, int Dimensions> class local_accessor;

template <typename ElementType, access::address_space Space,
          access::decorated DecorateAddress = access::decorated::legacy>
class multi_ptr {
    static constexpr bool named_space =
        Space == access::address_space::global_space || Space == access::address_space::local_space ||
        Space == access::address_space::private_space;

public:
    static constexpr bool is_decorated = DecorateAddress == access::decorated::yes;
    static constexpr access::address_space address_space = Space;

    using value_type = ElementType;
    using pointer = ElementType*;
    using reference = std::add_lvalue_reference_t<ElementType>;
    using iterator_category = std::random_access_iterator_tag;
    using difference_type = std::ptrdiff_t;
    // SYCL 1.2.1's names, which the legacy form keeps.
    using element_type = ElementType;

    multi_ptr() = default;
    ENCORE_HOST_DEVICE multi_ptr(std::nullptr_t) noexcept {}
    ENCORE_HOST_DEVICE explicit multi_ptr(ElementType* p) noexcept : p_(p) {}
    // SYCL 1.2.1 made these from a plain pointer implicitly; the legacy form still does.
    ENCORE_HOST_DEVICE multi_ptr& operator=(std::nullptr_t) noexcept {
        p_ = nullptr;
        return *this;
    }

    // The buffer an accessor reaches (global_space or generic_space), or a local_accessor's memory (local_space or
    // generic_space), from inside the kernel.
    template <typename T, int D, access_mode M, access::placeholder P>
        requires((Space == access::address_space::global_space ||
                  Space == access::address_space::generic_space) &&
                 std::is_same_v<std::remove_const_t<ElementType>, std::remove_const_t<T>> &&
                 (std::is_const_v<ElementType> || !std::is_const_v<T>) &&
                 (std::is_const_v<ElementType> || M != access_mode::read))
    ENCORE_HOST_DEVICE multi_ptr(accessor<T, D, M, target::device, P> a) : p_(a.get_pointer()) {}
    template <typename T, int D>
        requires((Space == access::address_space::local_space ||
                  Space == access::address_space::generic_space) &&
                 std::is_same_v<std::remove_const_t<ElementType>, std::remove_const_t<T>> &&
                 (std::is_const_v<ElementType> || !std::is_const_v<T>))
    ENCORE_HOST_DEVICE multi_ptr(local_accessor<T, D> a) : p_(a.get_pointer()) {}

    // From a multi_ptr of the same space with another decoration, of a named space into generic_space, and of T
    // into const T (implicitly, as the specification converts them).
    template <typename E, access::address_space S, access::decorated Dec>
        requires(!(std::is_same_v<E, ElementType> && S == Space && Dec == DecorateAddress) &&
                 (S == Space || Space == access::address_space::generic_space) &&
                 std::is_convertible_v<E*, ElementType*>)
    ENCORE_HOST_DEVICE multi_ptr(const multi_ptr<E, S, Dec>& other) noexcept : p_(other.get_raw()) {}

    ENCORE_HOST_DEVICE reference operator*() const noexcept
        requires(!std::is_void_v<ElementType>)
    {
        return *p_;
    }
    ENCORE_HOST_DEVICE pointer operator->() const noexcept { return p_; }
    ENCORE_HOST_DEVICE reference operator[](difference_type index) const noexcept
        requires(!std::is_void_v<ElementType>)
    {
        return p_[index];
    }

    ENCORE_HOST_DEVICE pointer get() const noexcept { return p_; }
    ENCORE_HOST_DEVICE pointer get_decorated() const noexcept { return p_; }
    ENCORE_HOST_DEVICE std::add_pointer_t<value_type> get_raw() const noexcept { return p_; }
    // SYCL 1.2.1's implicit conversion (the legacy form) and SYCL 2020's explicit one.
    ENCORE_HOST_DEVICE operator ElementType*() const noexcept
        requires(DecorateAddress == access::decorated::legacy)
    {
        return p_;
    }
    ENCORE_HOST_DEVICE explicit operator ElementType*() const noexcept
        requires(DecorateAddress != access::decorated::legacy)
    {
        return p_;
    }
    // A hint to bring `count` elements into the cache; nothing on Encore's devices.
    ENCORE_HOST_DEVICE void prefetch(std::size_t) const noexcept {}

    ENCORE_HOST_DEVICE multi_ptr& operator++() noexcept
        requires(!std::is_void_v<ElementType>)
    {
        ++p_;
        return *this;
    }
    ENCORE_HOST_DEVICE multi_ptr operator++(int) noexcept
        requires(!std::is_void_v<ElementType>)
    {
        multi_ptr old = *this;
        ++p_;
        return old;
    }
    ENCORE_HOST_DEVICE multi_ptr& operator--() noexcept
        requires(!std::is_void_v<ElementType>)
    {
        --p_;
        return *this;
    }
    ENCORE_HOST_DEVICE multi_ptr operator--(int) noexcept
        requires(!std::is_void_v<ElementType>)
    {
        multi_ptr old = *this;
        --p_;
        return old;
    }
    ENCORE_HOST_DEVICE multi_ptr& operator+=(difference_type n) noexcept
        requires(!std::is_void_v<ElementType>)
    {
        p_ += n;
        return *this;
    }
    ENCORE_HOST_DEVICE multi_ptr& operator-=(difference_type n) noexcept
        requires(!std::is_void_v<ElementType>)
    {
        p_ -= n;
        return *this;
    }
    ENCORE_HOST_DEVICE friend multi_ptr operator+(multi_ptr p, difference_type n) noexcept
        requires(!std::is_void_v<ElementType>)
    {
        return p += n;
    }
    ENCORE_HOST_DEVICE friend multi_ptr operator+(difference_type n, multi_ptr p) noexcept
        requires(!std::is_void_v<ElementType>)
    {
        return p += n;
    }
    ENCORE_HOST_DEVICE friend multi_ptr operator-(multi_ptr p, difference_type n) noexcept
        requires(!std::is_void_v<ElementType>)
    {
        return p -= n;
    }
    ENCORE_HOST_DEVICE friend difference_type operator-(const multi_ptr& a, const multi_ptr& b) noexcept
        requires(!std::is_void_v<ElementType>)
    {
        return a.p_ - b.p_;
    }

    ENCORE_HOST_DEVICE friend bool operator==(const multi_ptr& a, const multi_ptr& b) noexcept {
        return a.p_ == b.p_;
    }
    ENCORE_HOST_DEVICE friend auto operator<=>(const multi_ptr& a, const multi_ptr& b) noexcept {
        return std::compare_three_way{}(a.p_, b.p_);
    }
    ENCORE_HOST_DEVICE friend bool operator==(const multi_ptr& a, std::nullptr_t) noexcept { return a.p_ == nullptr; }

private:
    static_assert(named_space || Space == access::address_space::generic_space ||
                      Space == access::address_space::constant_space,
                  "multi_ptr: an unknown address space");
    ElementType* p_ = nullptr;
};

// Aliases of SYCL 2020 section 4.7.7.2.
template <typename T, access::decorated D = access::decorated::legacy>
using global_ptr = multi_ptr<T, access::address_space::global_space, D>;
template <typename T, access::decorated D = access::decorated::legacy>
using local_ptr = multi_ptr<T, access::address_space::local_space, D>;
template <typename T, access::decorated D = access::decorated::legacy>
using private_ptr = multi_ptr<T, access::address_space::private_space, D>;
template <typename T> using raw_global_ptr = global_ptr<T, access::decorated::no>;
template <typename T> using raw_local_ptr = local_ptr<T, access::decorated::no>;
template <typename T> using raw_private_ptr = private_ptr<T, access::decorated::no>;
template <typename T> using decorated_global_ptr = global_ptr<T, access::decorated::yes>;
template <typename T> using decorated_local_ptr = local_ptr<T, access::decorated::yes>;
template <typename T> using decorated_private_ptr = private_ptr<T, access::decorated::yes>;

// A pointer known to point into `Space` (the caller's promise: Encore's devices cannot check it).
template <access::address_space Space, access::decorated D, typename ElementType>
ENCORE_HOST_DEVICE multi_ptr<ElementType, Space, D> address_space_cast(ElementType* p) noexcept {
    return multi_ptr<ElementType, Space, D>(p);
}
// SYCL 1.2.1's factory, deprecated by SYCL 2020.
template <typename ElementType, access::address_space Space,
          access::decorated D = access::decorated::legacy>
[[deprecated("use address_space_cast")]] ENCORE_HOST_DEVICE multi_ptr<ElementType, Space, D>
make_ptr(ElementType* p) noexcept {
    return multi_ptr<ElementType, Space, D>(p);
}

// The type without its address-space decoration: Encore's pointers carry none, so the type itself.
template <typename T> struct remove_decoration {
    using type = T;
};
template <typename T> using remove_decoration_t = typename remove_decoration<T>::type;

} // namespace _V1
} // namespace sycl

template <typename T, sycl::access::address_space S, sycl::access::decorated D>
struct std::hash<sycl::multi_ptr<T, S, D>> {
    std::size_t operator()(const sycl::multi_ptr<T, S, D>& p) const noexcept {
        return std::hash<const void*>()(p.get_raw());
    }
};

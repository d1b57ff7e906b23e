// sycl::vec (SYCL 2020 section 4.14.2): a vector of 1, 2, 3, 4, 8 or 16 elements with element-wise operators,
// swizzles, conversions with a rounding mode, reinterpretation, loads and stores through multi_ptr, and the
// aliases float4, int2, uchar16, ...
//
// One header for the host and the device: every member is ENCORE_HOST_DEVICE and constexpr where it can be, and
// the loops over the elements have a constant trip count, so a compiler keeps a vec in registers. Its size and
// alignment are the element's size times the number of elements (times 4 for 3 elements), as the specification
// has them, so a float4 load on a GPU is one 16-byte load.
//
// Swizzles (`v.x()`, `v.lo()`, `v.swizzle<2, 1, 0>()`, and with SYCL_SIMPLE_SWIZZLES defined before the include
// `v.xyz()`, `v.bgra()`, ...) are views of the vec they come from: reading converts them to a vec (or, for one
// element, to the element), writing through one that names no element twice writes the vec's elements.
//
//     sycl::float4 a{1, 2, 3, 4};
//     sycl::float4 b = a * 2.f + a.wzyx();        // with SYCL_SIMPLE_SWIZZLES
//     a.lo() = sycl::float2{0, 0};                // a is {0, 0, 3, 4}
//     sycl::int4 mask = a > b;                    // -1 where true, 0 where false
//     sycl::int4 rounded = b.convert<int, sycl::rounding_mode::rte>();
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "sycl/detail/host_device.hpp"
#if defined(ENCORE_DEVICE_SPIR)
#include "sycl/detail/spir_builtins.hpp"
#endif
#include "sycl/half_type.hpp"
#include "sycl/multi_ptr.hpp"

namespace sycl {
inline namespace _V1 {

enum class rounding_mode { automatic, rte, rtz, rtp, rtn };

struct elem {
    static constexpr int x = 0, y = 1, z = 2, w = 3;
    static constexpr int r = 0, g = 1, b = 2, a = 3;
    static constexpr int s0 = 0, s1 = 1, s2 = 2, s3 = 3, s4 = 4, s5 = 5, s6 = 6, s7 = 7;
    static constexpr int s8 = 8, s9 = 9, sA = 10, sB = 11, sC = 12, sD = 13, sE = 14, sF = 15;
};

template <typename DataT, int NumElements> class vec;

// The view a swizzle gives: elements Indexes... of a vec<DataT, N> at `data` (const when Const). In namespace sycl,
// the specification's exposition name, so that argument-dependent lookup finds the operators below for it.
template <typename DataT, int N, bool Const, int... Indexes> class __swizzled_vec__;

namespace detail {

template <typename T> struct vec_traits {
    static constexpr bool is_vec = false;
};
// A vec-like (vec, a swizzle, sycl::marray): its element type and size, the type an element-wise result of R takes
// (`with<R, N>`: a vec for vec and swizzles, a marray for marray), and whether its relations answer bool (marray)
// or -1 / 0 in a signed integer of the element's size (vec).
template <typename T, int N> struct vec_traits<vec<T, N>> {
    static constexpr bool is_vec = true;
    using element = T;
    static constexpr int size = N;
    template <typename R, int M> using with = vec<R, M>;
    static constexpr bool bool_relations = false;
};
template <typename T, int N, bool C, int... I> struct vec_traits<__swizzled_vec__<T, N, C, I...>> {
    static constexpr bool is_vec = true;
    using element = T;
    static constexpr int size = static_cast<int>(sizeof...(I));
    template <typename R, int M> using with = vec<R, M>;
    static constexpr bool bool_relations = false;
};
template <typename T> inline constexpr bool is_vec_like = vec_traits<std::remove_cvref_t<T>>::is_vec;

// The signed integer of T's size: what relational operators answer (-1 for true, 0 for false).
template <typename T> using relational_t = std::conditional_t<
    sizeof(T) == 1, std::int8_t,
    std::conditional_t<sizeof(T) == 2, std::int16_t, std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>>>;

// An element type of vec: an arithmetic type, or sycl::half / bfloat16 (which say so with encore_vec_element).
template <typename T>
inline constexpr bool is_vec_scalar = std::is_arithmetic_v<T> || requires { typename T::encore_vec_element; };

// Operands of an element-wise operator: two vec-likes of one element type and size, or one vec-like and an
// arithmetic scalar (converted to the element type).
template <typename A, typename B> constexpr bool vec_operands() {
    using a_t = std::remove_cvref_t<A>;
    using b_t = std::remove_cvref_t<B>;
    if constexpr (is_vec_like<a_t> && is_vec_like<b_t>)
        return std::is_same_v<typename vec_traits<a_t>::element, typename vec_traits<b_t>::element> &&
               vec_traits<a_t>::bool_relations == vec_traits<b_t>::bool_relations && // no vec beside a marray
               (vec_traits<a_t>::size == vec_traits<b_t>::size || vec_traits<b_t>::size == 1 ||
                vec_traits<a_t>::size == 1);
    else if constexpr (is_vec_like<a_t>)
        return is_vec_scalar<b_t> && std::is_convertible_v<b_t, typename vec_traits<a_t>::element>;
    else if constexpr (is_vec_like<b_t>)
        return is_vec_scalar<a_t> && std::is_convertible_v<a_t, typename vec_traits<b_t>::element>;
    else
        return false;
}
// The element type of T: T itself for a scalar.
template <typename T> struct element_of_type {
    using type = T;
};
template <typename T>
    requires is_vec_like<T>
struct element_of_type<T> {
    using type = typename vec_traits<std::remove_cvref_t<T>>::element;
};
template <typename T> using elem_t = typename element_of_type<std::remove_cvref_t<T>>::type;
template <typename T> constexpr int width_of() {
    if constexpr (is_vec_like<T>)
        return vec_traits<std::remove_cvref_t<T>>::size;
    else
        return 1;
}
// The element type of an operator's operands (of the vec-like one).
template <typename A, typename B> using vec_element_t = std::conditional_t<is_vec_like<A>, elem_t<A>, elem_t<B>>;

// Element-wise application over scalars and vec-likes (the operators below, the built-in functions): the width of
// the vec-likes (a scalar, or a vec-like of one element, stands for every element).
template <typename... Ts> constexpr int shape_width() {
    constexpr int widths[] = {width_of<Ts>()...};
    int n = 1;
    for (int w : widths)
        if (w != 1) n = w;
    return n;
}
template <typename... Ts> inline constexpr bool any_vec = (is_vec_like<Ts> || ...);
// The traits of the first vec-like of Ts: what an element-wise result over them is made of.
template <typename... Ts> struct first_vec_like {
    using type = void;
};
template <typename T, typename... Ts> struct first_vec_like<T, Ts...> {
    using type = typename std::conditional_t<is_vec_like<T>, std::type_identity<vec_traits<std::remove_cvref_t<T>>>,
                                             first_vec_like<Ts...>>::type;
};
template <typename R, int N, typename... Ts>
using shaped_t = typename first_vec_like<Ts...>::type::template with<R, N>;
// What a relation answers for elements of type E among Ts: true / false for marray, -1 / 0 for vec.
template <typename E, typename... Ts> ENCORE_HOST_DEVICE constexpr auto truth(bool b) {
    if constexpr (first_vec_like<Ts...>::type::bool_relations)
        return b;
    else
        return b ? relational_t<E>(-1) : relational_t<E>(0);
}
template <typename T> ENCORE_HOST_DEVICE constexpr auto lane(const T& x, int i) {
    if constexpr (is_vec_like<T>)
        return static_cast<elem_t<T>>(x[vec_traits<std::remove_cvref_t<T>>::size == 1 ? 0 : i]);
    else
        return x;
}
// f(lanes...) for each element: a vec when an argument is a vec-like, else a scalar.
template <typename F, typename... Ts> ENCORE_HOST_DEVICE constexpr auto map(F f, const Ts&... xs) {
    if constexpr (any_vec<Ts...>) {
        constexpr int n = shape_width<Ts...>();
        using R = decltype(f(lane(xs, 0)...));
        shaped_t<R, n, Ts...> out{};
        for (int i = 0; i < n; ++i)
            out[i] = f(lane(xs, i)...);
        return out;
    } else {
        return f(xs...);
    }
}

template <typename To, typename From> ENCORE_HOST_DEVICE To convert_element(From x, rounding_mode mode);

template <int N, int... Indexes> constexpr bool indexes_below() {
    return ((Indexes < N) && ...);
}
template <int... Indexes> constexpr bool distinct_indexes() {
    const int list[] = {Indexes...};
    for (std::size_t i = 0; i < sizeof...(Indexes); ++i)
        for (std::size_t j = i + 1; j < sizeof...(Indexes); ++j)
            if (list[i] == list[j]) return false;
    return true;
}
// The I-th of Indexes (a constant once the caller's loop is unrolled; no array, which device code would have to
// keep in memory).
template <int... Indexes> ENCORE_HOST_DEVICE constexpr int index_at(int i) {
    int found = 0, at = 0;
    ((found = at++ == i ? Indexes : found), ...);
    return found;
}

} // namespace detail

template <typename DataT, int NumElements> class alignas(sizeof(DataT) * (NumElements == 3 ? 4 : NumElements)) vec {
    static_assert(NumElements == 1 || NumElements == 2 || NumElements == 3 || NumElements == 4 || NumElements == 8 ||
                      NumElements == 16,
                  "sycl::vec: 1, 2, 3, 4, 8 or 16 elements");
    static_assert(detail::is_vec_scalar<DataT>,
                  "sycl::vec: the element type must be a scalar type of device code");
    static constexpr int stored = NumElements == 3 ? 4 : NumElements;

    // A constructor argument: a scalar convertible to DataT, or a vec-like of DataT.
    template <typename T> static constexpr bool fits() {
        if constexpr (detail::is_vec_like<T>)
            return std::is_same_v<typename detail::vec_traits<std::remove_cvref_t<T>>::element, DataT>;
        else
            return std::is_convertible_v<T, DataT>;
    }
    template <typename T> static constexpr int count_of() {
        if constexpr (detail::is_vec_like<T>)
            return detail::vec_traits<std::remove_cvref_t<T>>::size;
        else
            return 1;
    }

public:
    using element_type = DataT;
    using value_type = DataT;

    // Elements default-initialized (`vec<float, 4> v{};` makes them zero).
    vec() = default;
    ENCORE_HOST_DEVICE explicit constexpr vec(const DataT& value) {
        for (int i = 0; i < NumElements; ++i)
            data_[i] = value;
    }
    // From scalars and vecs (or swizzles) of this element type whose elements add up to NumElements.
    template <typename... Args>
        requires(sizeof...(Args) >= 2 && ((count_of<Args>()) + ...) == NumElements && (fits<Args>() && ...))
    ENCORE_HOST_DEVICE constexpr vec(const Args&... args) {
        int at = 0;
        (place(at, args), ...);
    }
    vec(const vec&) = default;
    vec& operator=(const vec&) = default;
    ENCORE_HOST_DEVICE constexpr vec& operator=(const DataT& value) {
        for (int i = 0; i < NumElements; ++i)
            data_[i] = value;
        return *this;
    }

    ENCORE_HOST_DEVICE constexpr operator DataT() const
        requires(NumElements == 1)
    {
        return data_[0];
    }

    static constexpr std::size_t byte_size() noexcept { return sizeof(DataT) * stored; }
    static constexpr std::size_t size() noexcept { return NumElements; }
    [[deprecated("use size()")]] static constexpr std::size_t get_count() noexcept { return size(); }
    [[deprecated("use byte_size()")]] static constexpr std::size_t get_size() noexcept { return byte_size(); }

    ENCORE_HOST_DEVICE constexpr DataT& operator[](int i) { return data_[i]; }
    ENCORE_HOST_DEVICE constexpr const DataT& operator[](int i) const { return data_[i]; }

    // Each element converted to ConvertT, rounded as `Mode` says (automatic: toward zero into an integer, to
    // nearest even into a floating-point type).
    template <typename ConvertT, rounding_mode Mode = rounding_mode::automatic>
    ENCORE_HOST_DEVICE vec<ConvertT, NumElements> convert() const {
        vec<ConvertT, NumElements> out{};
        for (int i = 0; i < NumElements; ++i)
            out[i] = detail::convert_element<ConvertT>(data_[i], Mode);
        return out;
    }
    // The same bytes as another vec (or scalar) of the same size.
    template <typename AsT> ENCORE_HOST_DEVICE AsT as() const {
        static_assert(sizeof(AsT) == sizeof(vec), "vec::as: the type must have the vec's size");
        AsT out;
        __builtin_memcpy(static_cast<void*>(&out), static_cast<const void*>(this), sizeof(AsT));
        return out;
    }

    template <int... Indexes> ENCORE_HOST_DEVICE auto swizzle() {
        static_assert(((Indexes >= 0 && Indexes < NumElements) && ...), "vec::swizzle: an index names no element");
        return __swizzled_vec__<DataT, NumElements, false, Indexes...>(data_);
    }
    template <int... Indexes> ENCORE_HOST_DEVICE auto swizzle() const {
        static_assert(((Indexes >= 0 && Indexes < NumElements) && ...), "vec::swizzle: an index names no element");
        return __swizzled_vec__<DataT, NumElements, true, Indexes...>(data_);
    }

#define ENCORE_VEC_ELEMENT(name, index, condition)                                                                   \
    ENCORE_HOST_DEVICE auto name()                                                                                   \
        requires(condition)                                                                                          \
    {                                                                                                                \
        return __swizzled_vec__<DataT, NumElements, false, index>(data_);                                        \
    }                                                                                                                \
    ENCORE_HOST_DEVICE auto name() const                                                                             \
        requires(condition)                                                                                          \
    {                                                                                                                \
        return __swizzled_vec__<DataT, NumElements, true, index>(data_);                                         \
    }
    ENCORE_VEC_ELEMENT(x, 0, NumElements <= 4)
    ENCORE_VEC_ELEMENT(y, 1, NumElements >= 2 && NumElements <= 4)
    ENCORE_VEC_ELEMENT(z, 2, NumElements >= 3 && NumElements <= 4)
    ENCORE_VEC_ELEMENT(w, 3, NumElements == 4)
    ENCORE_VEC_ELEMENT(r, 0, NumElements <= 4)
    ENCORE_VEC_ELEMENT(g, 1, NumElements >= 2 && NumElements <= 4)
    ENCORE_VEC_ELEMENT(b, 2, NumElements >= 3 && NumElements <= 4)
    ENCORE_VEC_ELEMENT(a, 3, NumElements == 4)
    ENCORE_VEC_ELEMENT(s0, 0, true)
    ENCORE_VEC_ELEMENT(s1, 1, NumElements >= 2)
    ENCORE_VEC_ELEMENT(s2, 2, NumElements >= 3)
    ENCORE_VEC_ELEMENT(s3, 3, NumElements >= 4)
    ENCORE_VEC_ELEMENT(s4, 4, NumElements >= 8)
    ENCORE_VEC_ELEMENT(s5, 5, NumElements >= 8)
    ENCORE_VEC_ELEMENT(s6, 6, NumElements >= 8)
    ENCORE_VEC_ELEMENT(s7, 7, NumElements >= 8)
    ENCORE_VEC_ELEMENT(s8, 8, NumElements == 16)
    ENCORE_VEC_ELEMENT(s9, 9, NumElements == 16)
    ENCORE_VEC_ELEMENT(sA, 10, NumElements == 16)
    ENCORE_VEC_ELEMENT(sB, 11, NumElements == 16)
    ENCORE_VEC_ELEMENT(sC, 12, NumElements == 16)
    ENCORE_VEC_ELEMENT(sD, 13, NumElements == 16)
    ENCORE_VEC_ELEMENT(sE, 14, NumElements == 16)
    ENCORE_VEC_ELEMENT(sF, 15, NumElements == 16)
#undef ENCORE_VEC_ELEMENT

    // Halves and alternate elements (a 3-element vec counts as 4 here: hi() is {z, the unused fourth}).
    ENCORE_HOST_DEVICE auto lo()
        requires(NumElements >= 2)
    {
        return halves<false, 0>(data_);
    }
    ENCORE_HOST_DEVICE auto lo() const
        requires(NumElements >= 2)
    {
        return halves<true, 0>(data_);
    }
    ENCORE_HOST_DEVICE auto hi()
        requires(NumElements >= 2)
    {
        return halves<false, stored / 2>(data_);
    }
    ENCORE_HOST_DEVICE auto hi() const
        requires(NumElements >= 2)
    {
        return halves<true, stored / 2>(data_);
    }
    ENCORE_HOST_DEVICE auto even()
        requires(NumElements >= 2)
    {
        return alternate<false, 0>(data_);
    }
    ENCORE_HOST_DEVICE auto even() const
        requires(NumElements >= 2)
    {
        return alternate<true, 0>(data_);
    }
    ENCORE_HOST_DEVICE auto odd()
        requires(NumElements >= 2)
    {
        return alternate<false, 1>(data_);
    }
    ENCORE_HOST_DEVICE auto odd() const
        requires(NumElements >= 2)
    {
        return alternate<true, 1>(data_);
    }

#if defined(SYCL_SIMPLE_SWIZZLES)
#define ENCORE_VEC_SWIZZLE(name, ...)                                                                                \
    ENCORE_HOST_DEVICE auto name()                                                                                   \
        requires(NumElements <= 4 && detail::indexes_below<NumElements, __VA_ARGS__>())                              \
    {                                                                                                                \
        return __swizzled_vec__<DataT, NumElements, false, __VA_ARGS__>(data_);                                  \
    }                                                                                                                \
    ENCORE_HOST_DEVICE auto name() const                                                                             \
        requires(NumElements <= 4 && detail::indexes_below<NumElements, __VA_ARGS__>())                              \
    {                                                                                                                \
        return __swizzled_vec__<DataT, NumElements, true, __VA_ARGS__>(data_);                                   \
    }
#include "sycl/detail/vec_swizzles.inc"
#undef ENCORE_VEC_SWIZZLE
#endif

    // NumElements elements at `p + offset * NumElements`.
    template <access::address_space Space, access::decorated D>
    ENCORE_HOST_DEVICE void load(std::size_t offset, multi_ptr<const DataT, Space, D> p) {
        for (int i = 0; i < NumElements; ++i)
            data_[i] = p[offset * NumElements + i];
    }
    template <access::address_space Space, access::decorated D>
    ENCORE_HOST_DEVICE void load(std::size_t offset, multi_ptr<DataT, Space, D> p) {
        load(offset, multi_ptr<const DataT, Space, D>(p));
    }
    template <access::address_space Space, access::decorated D>
    ENCORE_HOST_DEVICE void store(std::size_t offset, multi_ptr<DataT, Space, D> p) const {
        for (int i = 0; i < NumElements; ++i)
            p[offset * NumElements + i] = data_[i];
    }

private:
    template <typename T> ENCORE_HOST_DEVICE constexpr void place(int& at, const T& value) {
        if constexpr (detail::is_vec_like<T>) {
            for (int i = 0; i < detail::vec_traits<std::remove_cvref_t<T>>::size; ++i)
                data_[at++] = value[i];
        } else {
            data_[at++] = static_cast<DataT>(value);
        }
    }
    template <bool Const, int First, typename P> ENCORE_HOST_DEVICE static auto halves(P data) {
        return [data]<int... I>(std::integer_sequence<int, I...>) {
            return __swizzled_vec__<DataT, NumElements, Const, (First + I)...>(data);
        }(std::make_integer_sequence<int, stored / 2>{});
    }
    template <bool Const, int First, typename P> ENCORE_HOST_DEVICE static auto alternate(P data) {
        return [data]<int... I>(std::integer_sequence<int, I...>) {
            return __swizzled_vec__<DataT, NumElements, Const, (First + 2 * I)...>(data);
        }(std::make_integer_sequence<int, stored / 2>{});
    }

    DataT data_[stored];
};

template <typename DataT, int N, bool Const, int... Indexes> class __swizzled_vec__ {
    static constexpr int count = static_cast<int>(sizeof...(Indexes));
    using pointer = std::conditional_t<Const, const DataT*, DataT*>;
    static constexpr bool writable = !Const && detail::distinct_indexes<Indexes...>();

public:
    using element_type = DataT;
    using value_type = DataT;

    ENCORE_HOST_DEVICE explicit __swizzled_vec__(pointer data) : data_(data) {}
    __swizzled_vec__(const __swizzled_vec__&) = default;

    static constexpr std::size_t size() noexcept { return count; }
    ENCORE_HOST_DEVICE const DataT& operator[](int i) const { return data_[detail::index_at<Indexes...>(i)]; }
    ENCORE_HOST_DEVICE DataT& operator[](int i) const
        requires(writable)
    {
        return data_[detail::index_at<Indexes...>(i)];
    }

    ENCORE_HOST_DEVICE operator vec<DataT, count>() const {
        vec<DataT, count> out{};
        for (int i = 0; i < count; ++i)
            out[i] = data_[detail::index_at<Indexes...>(i)];
        return out;
    }
    ENCORE_HOST_DEVICE operator DataT() const
        requires(count == 1)
    {
        return data_[detail::index_at<Indexes...>(0)];
    }

    // Writes (a swizzle that names no element twice, of a vec that is not const).
    ENCORE_HOST_DEVICE const __swizzled_vec__& operator=(const vec<DataT, count>& v) const
        requires(writable)
    {
        for (int i = 0; i < count; ++i)
            data_[detail::index_at<Indexes...>(i)] = v[i];
        return *this;
    }
    ENCORE_HOST_DEVICE const __swizzled_vec__& operator=(const DataT& value) const
        requires(writable)
    {
        for (int i = 0; i < count; ++i)
            data_[detail::index_at<Indexes...>(i)] = value;
        return *this;
    }
    ENCORE_HOST_DEVICE const __swizzled_vec__& operator=(const __swizzled_vec__& other) const
        requires(writable)
    {
        return *this = vec<DataT, count>(other);
    }
    template <typename T>
        requires(writable && detail::is_vec_like<T> && !std::is_same_v<std::remove_cvref_t<T>, vec<DataT, count>> &&
                 detail::vec_traits<std::remove_cvref_t<T>>::size == count &&
                 std::is_same_v<typename detail::vec_traits<std::remove_cvref_t<T>>::element, DataT>)
    ENCORE_HOST_DEVICE const __swizzled_vec__& operator=(const T& other) const {
        return *this = vec<DataT, count>(other);
    }

    template <typename ConvertT, rounding_mode Mode = rounding_mode::automatic>
    ENCORE_HOST_DEVICE vec<ConvertT, count> convert() const {
        return vec<DataT, count>(*this).template convert<ConvertT, Mode>();
    }
    template <typename AsT> ENCORE_HOST_DEVICE AsT as() const { return vec<DataT, count>(*this).template as<AsT>(); }

private:
    pointer data_;
};

namespace detail {

// Rounding for convert(): the nearest value of To in the direction `mode` asks.
template <typename To, typename From> ENCORE_HOST_DEVICE To convert_element(From x, rounding_mode mode) {
    if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
        switch (mode) {
        case rounding_mode::rte: return static_cast<To>(std::nearbyint(x));
        case rounding_mode::rtp: return static_cast<To>(std::ceil(x));
        case rounding_mode::rtn: return static_cast<To>(std::floor(x));
        default: return static_cast<To>(x); // automatic and rtz: toward zero
        }
    } else if constexpr (std::is_floating_point_v<To> &&
                         (std::is_integral_v<From> || (std::is_floating_point_v<From> && sizeof(From) > sizeof(To)))) {
        // The conversion rounds to nearest even; step one value toward the mode's direction where that went the
        // other way. The comparison is exact in long double on the host (64-bit mantissa); on a device, in double.
#if defined(__CUDA_ARCH__) || defined(ENCORE_DEVICE_SPIR)
        using wide = double;
#else
        using wide = long double;
#endif
        // One representable value from `y` toward `to` (in spir64 device code OpenCL's built-in: the C library's
        // nextafterf, which Clang calls for std::nextafter, is in no OpenCL device's library).
        const auto next = [](To from, To to) {
#if defined(ENCORE_DEVICE_SPIR)
            return spir::nextafter(from, to);
#else
            return std::nextafter(from, to);
#endif
        };
        To y = static_cast<To>(x);
        const wide exact = static_cast<wide>(x), got = static_cast<wide>(y);
        switch (mode) {
        case rounding_mode::rtz:
            if (got > exact && exact >= 0) y = next(y, To(0));
            if (got < exact && exact < 0) y = next(y, To(0));
            break;
        case rounding_mode::rtp:
            if (got < exact) y = next(y, std::numeric_limits<To>::infinity());
            break;
        case rounding_mode::rtn:
            if (got > exact) y = next(y, -std::numeric_limits<To>::infinity());
            break;
        default: break; // automatic and rte
        }
        return y;
    } else {
        return static_cast<To>(x); // exact, or integer to integer (modulo 2^n, as C++ converts)
    }
}

} // namespace detail

// Element-wise operators on vecs, swizzles and scalars (a scalar stands for every element).
#define ENCORE_VEC_BINARY(op, condition)                                                                             \
    template <typename A, typename B>                                                                                \
        requires(detail::vec_operands<A, B>() && (condition))                                                        \
    ENCORE_HOST_DEVICE constexpr auto operator op(const A& a, const B& b) {                                          \
        using E = detail::vec_element_t<A, B>;                                                                       \
        return detail::map([](E x, E y) { return static_cast<E>(x op y); }, a, b);                                   \
    }                                                                                                                \
    template <typename A, typename B>                                                                                \
        requires(detail::is_vec_like<A> && detail::vec_operands<A, B>() && (condition))                              \
    ENCORE_HOST_DEVICE constexpr decltype(auto) operator op##=(A&& a, const B& b) {                                  \
        a = a op b;                                                                                                  \
        return std::forward<A>(a);                                                                                   \
    }
#define ENCORE_VEC_INTEGRAL std::is_integral_v<detail::vec_element_t<A, B>>
ENCORE_VEC_BINARY(+, true)
ENCORE_VEC_BINARY(-, true)
ENCORE_VEC_BINARY(*, true)
ENCORE_VEC_BINARY(/, true)
ENCORE_VEC_BINARY(%, ENCORE_VEC_INTEGRAL)
ENCORE_VEC_BINARY(&, ENCORE_VEC_INTEGRAL)
ENCORE_VEC_BINARY(|, ENCORE_VEC_INTEGRAL)
ENCORE_VEC_BINARY(^, ENCORE_VEC_INTEGRAL)
ENCORE_VEC_BINARY(<<, ENCORE_VEC_INTEGRAL)
ENCORE_VEC_BINARY(>>, ENCORE_VEC_INTEGRAL)
#undef ENCORE_VEC_BINARY

// Relational and logical operators: a vec of the element's size in signed integers, -1 where true, 0 where false
// (a marray of bool for marray).
#define ENCORE_VEC_RELATIONAL(op)                                                                                    \
    template <typename A, typename B>                                                                                \
        requires(detail::vec_operands<A, B>())                                                                       \
    ENCORE_HOST_DEVICE constexpr auto operator op(const A& a, const B& b) {                                          \
        using E = detail::vec_element_t<A, B>;                                                                       \
        return detail::map([](E x, E y) { return detail::truth<E, A, B>(x op y); }, a, b);                           \
    }
ENCORE_VEC_RELATIONAL(==)
ENCORE_VEC_RELATIONAL(!=)
ENCORE_VEC_RELATIONAL(<)
ENCORE_VEC_RELATIONAL(>)
ENCORE_VEC_RELATIONAL(<=)
ENCORE_VEC_RELATIONAL(>=)
ENCORE_VEC_RELATIONAL(&&)
ENCORE_VEC_RELATIONAL(||)
#undef ENCORE_VEC_RELATIONAL
#undef ENCORE_VEC_INTEGRAL

template <typename V>
    requires detail::is_vec_like<V>
ENCORE_HOST_DEVICE constexpr auto operator+(const V& v) {
    using E = detail::elem_t<V>;
    return detail::map([](E x) { return x; }, v);
}
template <typename V>
    requires detail::is_vec_like<V>
ENCORE_HOST_DEVICE constexpr auto operator-(const V& v) {
    using E = detail::elem_t<V>;
    return detail::map([](E x) { return static_cast<E>(-x); }, v);
}
template <typename V>
    requires(detail::is_vec_like<V> && std::is_integral_v<detail::elem_t<V>>)
ENCORE_HOST_DEVICE constexpr auto operator~(const V& v) {
    using E = detail::elem_t<V>;
    return detail::map([](E x) { return static_cast<E>(~x); }, v);
}
template <typename V>
    requires detail::is_vec_like<V>
ENCORE_HOST_DEVICE constexpr auto operator!(const V& v) {
    using E = detail::elem_t<V>;
    return detail::map([](E x) { return detail::truth<E, V>(!x); }, v);
}
// ++ and -- on a vec (or a writable swizzle): every element.
template <typename V>
    requires detail::is_vec_like<V>
ENCORE_HOST_DEVICE constexpr decltype(auto) operator++(V&& v) {
    return v += 1;
}
template <typename V>
    requires detail::is_vec_like<V>
ENCORE_HOST_DEVICE constexpr decltype(auto) operator--(V&& v) {
    return v -= 1;
}
template <typename V>
    requires detail::is_vec_like<V>
ENCORE_HOST_DEVICE constexpr auto operator++(V& v, int) {
    detail::shaped_t<detail::elem_t<V>, detail::width_of<V>(), V> old = v;
    v += 1;
    return old;
}
template <typename V>
    requires detail::is_vec_like<V>
ENCORE_HOST_DEVICE constexpr auto operator--(V& v, int) {
    detail::shaped_t<detail::elem_t<V>, detail::width_of<V>(), V> old = v;
    v -= 1;
    return old;
}

// The aliases: <type><N> for N = 2, 3, 4, 8, 16.
#define ENCORE_VEC_ALIASES(name, type)                                                                               \
    using name##2 = vec<type, 2>;                                                                                    \
    using name##3 = vec<type, 3>;                                                                                    \
    using name##4 = vec<type, 4>;                                                                                    \
    using name##8 = vec<type, 8>;                                                                                    \
    using name##16 = vec<type, 16>;
ENCORE_VEC_ALIASES(char, std::int8_t)
ENCORE_VEC_ALIASES(schar, std::int8_t)
ENCORE_VEC_ALIASES(uchar, std::uint8_t)
ENCORE_VEC_ALIASES(short, std::int16_t)
ENCORE_VEC_ALIASES(ushort, std::uint16_t)
ENCORE_VEC_ALIASES(int, std::int32_t)
ENCORE_VEC_ALIASES(uint, std::uint32_t)
ENCORE_VEC_ALIASES(long, std::int64_t)
ENCORE_VEC_ALIASES(ulong, std::uint64_t)
ENCORE_VEC_ALIASES(longlong, std::int64_t)
ENCORE_VEC_ALIASES(ulonglong, std::uint64_t)
ENCORE_VEC_ALIASES(float, float)
ENCORE_VEC_ALIASES(double, double)
ENCORE_VEC_ALIASES(half, half)
#undef ENCORE_VEC_ALIASES

} // namespace _V1
} // namespace sycl

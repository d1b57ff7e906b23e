// Group functions and group algorithms (SYCL 2020 sections 4.17.3 and 4.17.4), for work-groups (sycl::group<D>)
// and sub-groups (sycl::sub_group):
// - group_broadcast; for sub-groups select_from_group, shift_group_left/right and permute_group_by_xor;
// - reduce_over_group, inclusive/exclusive_scan_over_group, any/all/none_of_group;
// - over a range in memory that every item of the group passes alike: joint_reduce, joint_inclusive/exclusive_scan,
//   joint_any/all/none_of, the range shared out among the group's items (a strided share each).
//
// Every item of the group must call a group function, with the same arguments where the specification says so.
// Values are combined in member order (local linear id; lane for a sub-group). Where the specification leaves a
// result unspecified (a shift past the sub-group's end, a lane that does not exist), an item gets its own x back.
// How the items see each other's values is detail/group_exchange.hpp's (fibers on the native backend, warp
// shuffles and shared memory on CUDA).
//
//     float total = sycl::reduce_over_group(it.get_group(), x, sycl::plus<>());
//     int before = sycl::exclusive_scan_over_group(it.get_sub_group(), count, sycl::plus<>());
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>

#include "functional.hpp"
#include "item.hpp"
#include "sub_group.hpp"
#include "detail/group_exchange.hpp"

namespace sycl {
inline namespace _V1 {

template <typename T> struct is_group : std::false_type {};
template <int Dimensions> struct is_group<group<Dimensions>> : std::true_type {};
template <> struct is_group<sub_group> : std::true_type {};
template <typename T> inline constexpr bool is_group_v = is_group<T>::value;

namespace detail {
template <typename Group>
concept group_type = is_group_v<std::remove_cvref_t<Group>>;

template <typename Op, typename T> ENCORE_HOST_DEVICE constexpr T scan_identity() {
    static_assert(has_known_identity_v<Op, T>,
                  "an exclusive scan without an init value needs an operation with a known identity for this type "
                  "(sycl::known_identity); pass an init value");
    return known_identity_v<Op, T>;
}

// The group's items, and this item's place among them.
template <typename Group> ENCORE_HOST_DEVICE std::size_t members_of(const Group& g) { return g.get_local_linear_range(); }
template <typename Group> ENCORE_HOST_DEVICE std::size_t member_of(const Group& g) { return g.get_local_linear_id(); }

// The scan of [first, last) into result, a group-size chunk at a time: each chunk scanned over the group, carrying
// the inclusive value of the chunk's last element into the next one.
template <typename Group, typename InPtr, typename OutPtr, typename T, typename Op>
ENCORE_HOST_DEVICE OutPtr joint_scan(const Group& g, InPtr first, InPtr last, OutPtr result, Op op, bool inclusive,
                                     const T* init) {
    const std::size_t n = static_cast<std::size_t>(last - first), members = members_of(g), me = member_of(g);
    bool has_carry = init != nullptr;
    T carry = init ? *init : T{};
    for (std::size_t base = 0; base < n; base += members) {
        const std::size_t i = base + me;
        const T x = static_cast<T>(first[i < n ? i : base]); // items past the end scan a copy; it comes last
        const T r = group_exchange::scan(g, x, op, inclusive, has_carry ? &carry : nullptr);
        if (i < n) result[i] = r;
        const std::size_t last_member = (n - base < members ? n - base : members) - 1;
        carry = group_exchange::broadcast(g, inclusive ? r : op(r, x), last_member);
        has_carry = true;
    }
    return result + n;
}
} // namespace detail

// ---- Group functions --------------------------------------------------------------------------------------------

// x of the group's leader (local linear id 0), of the item at `local_linear_id`, or of the item at `local_id`.
template <detail::group_type Group, typename T> ENCORE_HOST_DEVICE T group_broadcast(Group g, T x) {
    return detail::group_exchange::broadcast(g, x, 0);
}
template <detail::group_type Group, typename T>
ENCORE_HOST_DEVICE T group_broadcast(Group g, T x, typename Group::linear_id_type local_linear_id) {
    return detail::group_exchange::broadcast(g, x, local_linear_id);
}
template <detail::group_type Group, typename T>
ENCORE_HOST_DEVICE T group_broadcast(Group g, T x, typename Group::id_type local_id) requires(Group::dimensions > 1) {
    return detail::group_exchange::broadcast(g, x, detail::linearize<Group::dimensions>(local_id, g.get_local_range()));
}

// Sub-groups only: x of lane `remote_local_id`, of lane id+delta (left) / id-delta (right), of lane id^mask.
template <typename T> ENCORE_HOST_DEVICE T select_from_group(sub_group g, T x, std::size_t remote_local_id) {
    return g.shuffle(x, sub_group::id_type(remote_local_id));
}
template <typename T> ENCORE_HOST_DEVICE T shift_group_left(sub_group g, T x, sub_group::linear_id_type delta = 1) {
    return g.shuffle_down(x, delta);
}
template <typename T> ENCORE_HOST_DEVICE T shift_group_right(sub_group g, T x, sub_group::linear_id_type delta = 1) {
    return g.shuffle_up(x, delta);
}
template <typename T> ENCORE_HOST_DEVICE T permute_group_by_xor(sub_group g, T x, sub_group::linear_id_type mask) {
    return g.shuffle_xor(x, sub_group::id_type(mask));
}

// ---- Group algorithms -------------------------------------------------------------------------------------------

template <detail::group_type Group, typename T, typename BinaryOperation>
ENCORE_HOST_DEVICE T reduce_over_group(Group g, T x, BinaryOperation binary_op) {
    return detail::group_exchange::reduce(g, x, binary_op);
}
template <detail::group_type Group, typename V, typename T, typename BinaryOperation>
ENCORE_HOST_DEVICE T reduce_over_group(Group g, V x, T init, BinaryOperation binary_op) {
    return binary_op(init, detail::group_exchange::reduce(g, static_cast<T>(x), binary_op));
}

template <detail::group_type Group, typename T, typename BinaryOperation>
ENCORE_HOST_DEVICE T exclusive_scan_over_group(Group g, T x, BinaryOperation binary_op) {
    const T init = detail::scan_identity<BinaryOperation, T>();
    return detail::group_exchange::scan(g, x, binary_op, false, &init);
}
template <detail::group_type Group, typename V, typename T, typename BinaryOperation>
ENCORE_HOST_DEVICE T exclusive_scan_over_group(Group g, V x, T init, BinaryOperation binary_op) {
    return detail::group_exchange::scan(g, static_cast<T>(x), binary_op, false, &init);
}
template <detail::group_type Group, typename T, typename BinaryOperation>
ENCORE_HOST_DEVICE T inclusive_scan_over_group(Group g, T x, BinaryOperation binary_op) {
    return detail::group_exchange::scan(g, x, binary_op, true, static_cast<const T*>(nullptr));
}
template <detail::group_type Group, typename V, typename BinaryOperation, typename T>
ENCORE_HOST_DEVICE T inclusive_scan_over_group(Group g, V x, BinaryOperation binary_op, T init) {
    return detail::group_exchange::scan(g, static_cast<T>(x), binary_op, true, &init);
}

template <detail::group_type Group> ENCORE_HOST_DEVICE bool any_of_group(Group g, bool pred) {
    return detail::group_exchange::any(g, pred);
}
template <detail::group_type Group, typename T, typename Predicate>
ENCORE_HOST_DEVICE bool any_of_group(Group g, T x, Predicate pred) {
    return detail::group_exchange::any(g, static_cast<bool>(pred(x)));
}
template <detail::group_type Group> ENCORE_HOST_DEVICE bool all_of_group(Group g, bool pred) {
    return detail::group_exchange::all(g, pred);
}
template <detail::group_type Group, typename T, typename Predicate>
ENCORE_HOST_DEVICE bool all_of_group(Group g, T x, Predicate pred) {
    return detail::group_exchange::all(g, static_cast<bool>(pred(x)));
}
template <detail::group_type Group> ENCORE_HOST_DEVICE bool none_of_group(Group g, bool pred) {
    return !detail::group_exchange::any(g, pred);
}
template <detail::group_type Group, typename T, typename Predicate>
ENCORE_HOST_DEVICE bool none_of_group(Group g, T x, Predicate pred) {
    return !detail::group_exchange::any(g, static_cast<bool>(pred(x)));
}

// ---- Joint algorithms over [first, last) ------------------------------------------------------------------------

template <detail::group_type Group, typename Ptr, typename Predicate>
ENCORE_HOST_DEVICE bool joint_any_of(Group g, Ptr first, Ptr last, Predicate pred) {
    const std::size_t n = static_cast<std::size_t>(last - first), step = detail::members_of(g);
    bool found = false;
    for (std::size_t i = detail::member_of(g); i < n && !found; i += step)
        found = static_cast<bool>(pred(first[i]));
    return detail::group_exchange::any(g, found);
}
template <detail::group_type Group, typename Ptr, typename Predicate>
ENCORE_HOST_DEVICE bool joint_all_of(Group g, Ptr first, Ptr last, Predicate pred) {
    return !joint_any_of(g, first, last, [&](const auto& v) { return !pred(v); });
}
template <detail::group_type Group, typename Ptr, typename Predicate>
ENCORE_HOST_DEVICE bool joint_none_of(Group g, Ptr first, Ptr last, Predicate pred) {
    return !joint_any_of(g, first, last, pred);
}

// With a known identity the group shares the range out; without one each item folds all of it (the same result).
template <detail::group_type Group, typename Ptr, typename T, typename BinaryOperation>
ENCORE_HOST_DEVICE T joint_reduce(Group g, Ptr first, Ptr last, T init, BinaryOperation binary_op) {
    const std::size_t n = static_cast<std::size_t>(last - first);
    if constexpr (has_known_identity_v<BinaryOperation, T>) {
        T partial = known_identity_v<BinaryOperation, T>;
        for (std::size_t i = detail::member_of(g); i < n; i += detail::members_of(g))
            partial = binary_op(partial, static_cast<T>(first[i]));
        return binary_op(init, detail::group_exchange::reduce(g, partial, binary_op));
    } else {
        T r = init;
        for (std::size_t i = 0; i < n; ++i)
            r = binary_op(r, static_cast<T>(first[i]));
        return r;
    }
}
template <detail::group_type Group, typename Ptr, typename BinaryOperation>
ENCORE_HOST_DEVICE auto joint_reduce(Group g, Ptr first, Ptr last, BinaryOperation binary_op) {
    using T = std::remove_cvref_t<typename std::iterator_traits<Ptr>::value_type>;
    if constexpr (has_known_identity_v<BinaryOperation, T>) {
        return joint_reduce(g, first, last, known_identity_v<BinaryOperation, T>, binary_op);
    } else { // the first element starts the fold (the specification leaves an empty range's result undefined)
        if (first == last) return T{};
        return joint_reduce(g, first + 1, last, static_cast<T>(*first), binary_op);
    }
}

template <detail::group_type Group, typename InPtr, typename OutPtr, typename T, typename BinaryOperation>
ENCORE_HOST_DEVICE OutPtr joint_exclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, T init,
                                               BinaryOperation binary_op) {
    return detail::joint_scan(g, first, last, result, binary_op, false, &init);
}
template <detail::group_type Group, typename InPtr, typename OutPtr, typename BinaryOperation>
ENCORE_HOST_DEVICE OutPtr joint_exclusive_scan(Group g, InPtr first, InPtr last, OutPtr result,
                                               BinaryOperation binary_op) {
    using T = std::remove_cvref_t<typename std::iterator_traits<OutPtr>::value_type>;
    const T init = detail::scan_identity<BinaryOperation, T>();
    return detail::joint_scan(g, first, last, result, binary_op, false, &init);
}
template <detail::group_type Group, typename InPtr, typename OutPtr, typename BinaryOperation, typename T>
ENCORE_HOST_DEVICE OutPtr joint_inclusive_scan(Group g, InPtr first, InPtr last, OutPtr result,
                                               BinaryOperation binary_op, T init) {
    return detail::joint_scan(g, first, last, result, binary_op, true, &init);
}
template <detail::group_type Group, typename InPtr, typename OutPtr, typename BinaryOperation>
ENCORE_HOST_DEVICE OutPtr joint_inclusive_scan(Group g, InPtr first, InPtr last, OutPtr result,
                                               BinaryOperation binary_op) {
    using T = std::remove_cvref_t<typename std::iterator_traits<OutPtr>::value_type>;
    return detail::joint_scan(g, first, last, result, binary_op, true, static_cast<const T*>(nullptr));
}

} // namespace _V1
} // namespace sycl

// sycl::sub_group (SYCL 2020 section 4.9.1.8): the work-items of a work-group cut, in local linear order, into
// sub-groups of encore::sub_group_width (32) on every backend; the last sub-group of a work-group whose size is no
// multiple of 32 holds the rest.
//
// On a CUDA device a sub-group is a warp (Encore maps SYCL's last dimension to CUDA's x, so a work-group's local
// linear order is its block's thread order). On the native backend a work-group's items run as fibers of one thread
// and a sub-group waits at its collectives apart from the rest of its work-group (backends/native/work_group.hpp).
// A kernel that requires another size (the sub_group_size<N> kernel property) is refused with
// errc::kernel_not_supported on both.
//
//     q.parallel_for(sycl::nd_range<1>{n, 128}, [=](sycl::nd_item<1> it) {
//         sycl::sub_group sg = it.get_sub_group();
//         float sum = sycl::reduce_over_group(sg, x[it.get_global_id(0)], sycl::plus<>());
//         if (sg.leader()) out[it.get_global_id(0) / 32] = sum;
//     });
//
// The group functions and algorithms that take a sub_group are in <sycl/group_algorithm.hpp>; sub_group's own
// shuffle members (shuffle, shuffle_down, shuffle_up, shuffle_xor, broadcast, barrier) are DPC++'s older spelling of
// them, kept for the programs that still use them.
#pragma once

#include <cstdint>

#include "item.hpp"
#include "detail/group_exchange.hpp"

namespace sycl {
inline namespace _V1 {

class sub_group {
public:
    using id_type = id<1>;
    using range_type = range<1>;
    using linear_id_type = std::uint32_t;
    static constexpr int dimensions = 1;
    static constexpr memory_scope fence_scope = memory_scope::sub_group;

    // Which sub-group of its work-group this is, and how many the work-group has.
    ENCORE_HOST_DEVICE id_type get_group_id() const { return id_type(get_group_linear_id()); }
    ENCORE_HOST_DEVICE linear_id_type get_group_linear_id() const {
        return static_cast<linear_id_type>(detail::group_exchange::sub_group_of(*item_));
    }
    ENCORE_HOST_DEVICE range_type get_group_range() const { return range_type(get_group_linear_range()); }
    ENCORE_HOST_DEVICE linear_id_type get_group_linear_range() const {
        return static_cast<linear_id_type>(detail::group_exchange::sub_groups_of(*item_));
    }
    // The work-item's lane within the sub-group, and the sub-group's size (smaller for a work-group's last one
    // when 32 does not divide the work-group).
    ENCORE_HOST_DEVICE id_type get_local_id() const { return id_type(get_local_linear_id()); }
    ENCORE_HOST_DEVICE linear_id_type get_local_linear_id() const {
        return static_cast<linear_id_type>(detail::group_exchange::lane_of(*item_));
    }
    ENCORE_HOST_DEVICE range_type get_local_range() const { return range_type(get_local_linear_range()); }
    ENCORE_HOST_DEVICE linear_id_type get_local_linear_range() const {
        return static_cast<linear_id_type>(detail::group_exchange::sub_group_size_of(*item_));
    }
    ENCORE_HOST_DEVICE range_type get_max_local_range() const { return range_type(::encore::sub_group_width); }
    ENCORE_HOST_DEVICE bool leader() const { return get_local_linear_id() == 0; }

    // DPC++'s older members: barrier() is group_barrier(*this); shuffle(x, lane) is select_from_group,
    // shuffle_down/up shift_group_left/right, shuffle_xor permute_group_by_xor, broadcast group_broadcast.
    ENCORE_HOST_DEVICE void barrier() const { detail::group_exchange::sub_group_barrier(*item_); }
    template <typename T> ENCORE_HOST_DEVICE T shuffle(T x, id_type lane) const { return select(x, lane[0]); }
    template <typename T> ENCORE_HOST_DEVICE T shuffle_down(T x, linear_id_type delta) const {
        return select(x, get_local_linear_id() + delta);
    }
    template <typename T> ENCORE_HOST_DEVICE T shuffle_up(T x, linear_id_type delta) const {
        const linear_id_type lane = get_local_linear_id();
        return select(x, delta <= lane ? lane - delta : ::encore::sub_group_width);
    }
    template <typename T> ENCORE_HOST_DEVICE T shuffle_xor(T x, id_type mask) const {
        return select(x, get_local_linear_id() ^ static_cast<linear_id_type>(mask[0]));
    }
    template <typename T> ENCORE_HOST_DEVICE T broadcast(T x, id_type lane) const { return select(x, lane[0]); }

private:
    friend struct detail::item_factory;
    friend struct detail::group_access;
    ENCORE_HOST_DEVICE explicit sub_group(const ::encore::work_item& item) : item_(&item) {}
    // x of lane `lane`; the caller's own x where no such lane exists (the specification leaves it unspecified).
    template <typename T> ENCORE_HOST_DEVICE T select(const T& x, std::size_t lane) const {
        return detail::group_exchange::select_in_sub_group(*item_, x, lane);
    }
    const ::encore::work_item* item_;
};

template <int Dimensions> ENCORE_HOST_DEVICE sub_group nd_item<Dimensions>::get_sub_group() const {
    return detail::item_factory::make_sub_group(*item_);
}

ENCORE_HOST_DEVICE inline void group_barrier(const sub_group& g, memory_scope = memory_scope::sub_group) {
    g.barrier();
}

namespace ext::oneapi {
using sycl::sub_group; // DPC++'s name from before SYCL 2020
} // namespace ext::oneapi

} // namespace _V1
} // namespace sycl

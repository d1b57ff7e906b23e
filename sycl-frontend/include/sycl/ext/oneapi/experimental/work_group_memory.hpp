// sycl_ext_oneapi_work_group_memory: work-group local memory declared in a command group and captured by its
// nd_range kernel, where it reads as the object it holds (`DataT`: a value, `T[N]` or `T[]`).
//
// Encore keeps it in a local_accessor (one allocation of the kernel's work-group local memory, found by index in
// the kernel), so it works wherever local accessors do: on the native backend, and in device code encore++ outlines
// for CUDA (the block's dynamic shared memory).
//
//     namespace syclex = sycl::ext::oneapi::experimental;
//     q.submit([&](sycl::handler& h) {
//         syclex::work_group_memory<int[]> tile{64, h};
//         h.parallel_for(sycl::nd_range<1>{{n}, {64}}, [=](sycl::nd_item<1> it) {
//             tile[it.get_local_id(0)] = in[it.get_global_id(0)];
//             sycl::group_barrier(it.get_group());
//             out[it.get_global_id(0)] = tile[63 - it.get_local_id(0)];
//         });
//     });
#pragma once

#define SYCL_EXT_ONEAPI_WORK_GROUP_MEMORY 1

#include <cstddef>
#include <type_traits>

#include "sycl/accessor.hpp"
#include "sycl/ext/oneapi/properties/properties.hpp"

namespace sycl {
inline namespace _V1 {
class handler;
namespace ext::oneapi::experimental {

template <typename DataT, typename PropertyListT = empty_properties_t> class work_group_memory {
    static_assert(std::rank_v<DataT> <= 1, "work_group_memory: Encore takes a value, T[N] or T[] (one dimension)");
    static constexpr bool array = std::is_array_v<DataT>;
    // How many elements: 1 for a value, N for T[N], 0 for T[] (given at construction).
    static constexpr std::size_t extent = array ? std::extent_v<DataT> : 1;

public:
    using value_type = std::remove_all_extents_t<DataT>;

    // No memory: a kernel may not use it (DPC++ allows it as a placeholder to assign to).
    work_group_memory() = default;
    // A value or T[N]: reserved in `h`'s kernel, per work-group.
    explicit work_group_memory(handler& h)
        requires(extent != 0)
        : memory_(range<1>{extent}, h) {}
    // T[]: `count` elements (at least one; errc::invalid otherwise).
    work_group_memory(std::size_t count, handler& h)
        requires(extent == 0)
        : memory_(range<1>{count}, h) {}

    // Encore: over a local_accessor made already (dynamic_work_group_memory's).
    ENCORE_HOST_DEVICE explicit work_group_memory(local_accessor<value_type, 1> memory) : memory_(memory) {}

    // In the kernel: this work-group's object.
    ENCORE_HOST_DEVICE DataT* operator&() const noexcept { return reinterpret_cast<DataT*>(memory_.get_pointer()); }
    template <access::decorated IsDecorated = access::decorated::no>
    ENCORE_HOST_DEVICE multi_ptr<DataT, access::address_space::local_space, IsDecorated> get_multi_ptr() const noexcept {
        return multi_ptr<DataT, access::address_space::local_space, IsDecorated>(operator&());
    }
    ENCORE_HOST_DEVICE operator DataT&() const noexcept
        requires(!array)
    {
        return *memory_.get_pointer();
    }
    ENCORE_HOST_DEVICE const work_group_memory& operator=(const DataT& value) const noexcept
        requires(!array)
    {
        *memory_.get_pointer() = value;
        return *this;
    }
    ENCORE_HOST_DEVICE value_type& operator[](std::size_t index) const noexcept
        requires(array)
    {
        return memory_.get_pointer()[index];
    }

    // Encore: the local_accessor behind it (its index among the kernel's local allocations).
    const local_accessor<value_type, 1>& ext_encore_local_accessor() const noexcept { return memory_; }

private:
    local_accessor<value_type, 1> memory_;
};

} // namespace ext::oneapi::experimental
} // namespace _V1
} // namespace sycl

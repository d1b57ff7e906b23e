// sycl::private_memory (SYCL 2020 section 4.10.4.2.3): a value per work-item of a hierarchical kernel's work-group,
// declared in the work-group scope and kept across group::parallel_for_work_item calls.
//
//     h.parallel_for_work_group(sycl::range<1>{groups}, sycl::range<1>{64}, [=](sycl::group<1> g) {
//         sycl::private_memory<int> mine(g);
//         g.parallel_for_work_item([&](sycl::h_item<1> i) { mine(i) = in[i.get_global_id(0)]; });
//         g.parallel_for_work_item([&](sycl::h_item<1> i) { out[i.get_global_id(0)] = mine(i) * 2; });
//     });
//
// A value belongs to a physical work-item (h_item::get_physical_local_id): with a logical range larger than the
// work-group, the logical items one physical item runs share its value, as the specification allows. On the native
// backend the work-group scope runs once per group, so the values are an array with one per physical item (on the
// heap, for the group's lifetime); on CUDA and in SPIR-V every work-item runs the work-group scope, and keeps its
// own value in a register.
#pragma once

#include <cstddef>
#include <memory>

#include "item.hpp"

namespace sycl {
inline namespace _V1 {

template <typename T, int Dimensions = 1> class private_memory {
public:
    ENCORE_HOST_DEVICE explicit private_memory(const group<Dimensions>& g)
#if !defined(ENCORE_DEVICE_CODE)
        : values_(new T[g.get_local_range().size()]())
#endif
    {
        static_cast<void>(g);
    }
    ENCORE_HOST_DEVICE T& operator()(const h_item<Dimensions>& item) {
#if defined(ENCORE_DEVICE_CODE)
        static_cast<void>(item);
        return value_;
#else
        return values_[detail::linearize<Dimensions>(item.get_physical_local_id(), item.get_physical_local_range())];
#endif
    }

private:
#if defined(ENCORE_DEVICE_CODE)
    T value_{};
#else
    std::unique_ptr<T[]> values_;
#endif
};

} // namespace _V1
} // namespace sycl

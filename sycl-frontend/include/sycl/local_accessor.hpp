// local_accessor (SYCL 2020 section 4.7.6.11): work-group local memory of an nd_range kernel, one array per
// work-group, made in a command group and valid in that group's kernel. On the native backend the arrays are the
// work-group's slice of the launch's local memory (the handler reserves each accessor's bytes); in CUDA device code
// they are the block's dynamic shared memory, and each accessor the kernel captured holds where its array starts
// there: the GPU layer writes it into the launch's copy of the kernel object (ext_encore_binding_offset, below), so the
// kernel reads it as a CUDA kernel reads a parameter. Buffer and host accessors are accessor.hpp.
//
//     h.parallel_for(sycl::nd_range<1>{n, 64}, [=, tile = sycl::local_accessor<float>(64, h)](sycl::nd_item<1> it) {
//         tile[it.get_local_id(0)] = in[it.get_global_id(0)];
//         sycl::group_barrier(it.get_group());
//         ... });
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>

#include "accessor.hpp"

namespace sycl {
inline namespace _V1 {

// Work-group local memory: one array of `r` elements per work-group of an nd_range kernel.
template <typename DataT, int Dimensions = 1> class local_accessor {
public:
    using value_type = DataT;
    using reference = DataT&;
    using const_reference = const DataT&;
    using iterator = DataT*; // a work-group's array is contiguous
    using const_iterator = const DataT*;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;
    using difference_type = std::ptrdiff_t;
    using size_type = std::size_t;
    static constexpr int dimensions = Dimensions;

    local_accessor() = default; // empty: reserves no memory
    // Zero dimensions: one element per work-group.
    local_accessor(handler& h, const property_list& = {})
        requires(Dimensions == 0)
        : index_(detail::handler_access::add_local(h, sizeof(DataT))), range_(1) {}
    ENCORE_HOST_DEVICE operator reference() const
        requires(Dimensions == 0)
    {
        return *data();
    }
    ENCORE_HOST_DEVICE const local_accessor& operator=(const value_type& v) const
        requires(Dimensions == 0 && !std::is_const_v<DataT>)
    {
        *data() = v;
        return *this;
    }
    ENCORE_HOST_DEVICE const local_accessor& operator=(value_type&& v) const
        requires(Dimensions == 0 && !std::is_const_v<DataT>)
    {
        *data() = std::move(v);
        return *this;
    }
    local_accessor(range<Dimensions> r, handler& h, const property_list& = {})
        : index_(detail::handler_access::add_local(h, r.size() * sizeof(DataT))), range_(r) {
        for (int d = 0; d < Dimensions; ++d) extents_[d] = r[d];
    }
    // Encore: a view of local allocation `reserved.index`, reserved already (dynamic local memory).
    ENCORE_HOST_DEVICE local_accessor(range<Dimensions> r, detail::reserved_local reserved)
        : offset_(reserved.offset), index_(reserved.index), range_(r) {
        for (int d = 0; d < Dimensions; ++d) extents_[d] = r[d];
    }
    // local_accessor<const T> from local_accessor<T>.
    template <typename U>
        requires(std::is_same_v<const U, DataT> && !std::is_const_v<U>)
    local_accessor(const local_accessor<U, Dimensions>& o)
        : offset_(o.offset_), index_(o.index_), range_(o.range_), extents_(o.extents_) {}

    ENCORE_HOST_DEVICE bool empty() const noexcept { return size() == 0; }
    std::size_t max_size() const noexcept { return std::numeric_limits<difference_type>::max(); }
    void swap(local_accessor& other) noexcept { std::swap(*this, other); }
    // Only inside the kernel, like operator[].
    ENCORE_HOST_DEVICE iterator begin() const noexcept { return data(); }
    ENCORE_HOST_DEVICE iterator end() const noexcept { return data() + size(); }
    ENCORE_HOST_DEVICE const_iterator cbegin() const noexcept { return begin(); }
    ENCORE_HOST_DEVICE const_iterator cend() const noexcept { return end(); }
    reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
    reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }
    const_reverse_iterator crbegin() const noexcept { return const_reverse_iterator(cend()); }
    const_reverse_iterator crend() const noexcept { return const_reverse_iterator(cbegin()); }
    // No property applies to local memory: has_property is false, get_property throws errc::invalid.
    template <typename P> bool has_property() const noexcept { return false; }
    template <typename P> P get_property() const {
        throw exception(errc::invalid, "local_accessor::get_property: the accessor has no properties");
    }
    friend bool operator==(const local_accessor& a, const local_accessor& b) noexcept {
        return a.index_ == b.index_ && a.range_ == b.range_;
    }

    ENCORE_HOST_DEVICE std::size_t size() const noexcept { return range_.size(); }
    ENCORE_HOST_DEVICE std::size_t byte_size() const noexcept { return size() * sizeof(DataT); }
    ENCORE_HOST_DEVICE range<Dimensions> get_range() const noexcept { return range_; }
    ENCORE_HOST_DEVICE reference operator[](const id<Dimensions>& index) const { return data()[detail::linearize<Dimensions>(index, range_)]; }
    ENCORE_HOST_DEVICE decltype(auto) operator[](std::size_t index) const
        requires(Dimensions > 1)
    {
        static constexpr std::size_t no_offsets[3] = {0, 0, 0};
        return detail::subscript<DataT, Dimensions>(data(), extents_.data(), no_offsets)[index];
    }
    ENCORE_HOST_DEVICE reference operator[](std::size_t index) const
        requires(Dimensions == 1)
    {
        return data()[index];
    }
    // This work-group's array; only inside the kernel.
    ENCORE_HOST_DEVICE DataT* get_pointer() const noexcept { return data(); }
    template <access::decorated IsDecorated> using accessor_ptr = local_ptr<value_type, IsDecorated>;
    template <access::decorated IsDecorated>
    ENCORE_HOST_DEVICE local_ptr<value_type, IsDecorated> get_multi_ptr() const noexcept {
        return local_ptr<value_type, IsDecorated>(data());
    }
    // Encore: its index among the kernel's local allocations.
    std::uint32_t ext_encore_index() const noexcept { return index_; }
    // Where, in the bytes of an accessor, the GPU layer writes the byte offset of its allocation in the block's
    // dynamic shared memory; the allocation's index follows it (backends/gpu/device_code.hpp's local_binding).
    static constexpr std::size_t ext_encore_binding_offset = 0;

private:
    template <typename, int> friend class local_accessor;
    // The host runs a work-group's items on one thread, which the kernel wrapper pointed at the group's memory; on
    // a CUDA device the allocation is offset_ bytes into the block's dynamic shared memory (an accessor nothing
    // bound is an error the launch reports first: backends/gpu/local_memory.hpp); in SPIR-V device code the entry
    // wrote the address there.
    ENCORE_HOST_DEVICE DataT* data() const noexcept {
        static_assert(laid_out_for_binding(), "local_accessor: offset_ and index_ must lead its bytes");
#if defined(__CUDA_ARCH__)
        return reinterpret_cast<DataT*>(::encore::cuda::detail::dynamic_shared_memory() + offset_);
#elif defined(ENCORE_DEVICE_SPIR)
        // The entry replaced offset_ and index_ with the memory's address (spir_work_item.hpp's
        // bind_local_accessors).
        DataT* memory;
        __builtin_memcpy(&memory, static_cast<const void*>(this), sizeof memory); // offset_ leads: binding offset 0
        return memory;
#else
        return reinterpret_cast<DataT*>(detail::current_local_memory[index_]);
#endif
    }
    // offset_ then index_ first, in every instantiation (ext_encore_binding_offset; data() checks it).
    std::uint32_t offset_ = detail::unbound_local;
    std::uint32_t index_ = std::numeric_limits<std::uint32_t>::max(); // the default: an empty accessor
    range<detail::region_dimensions<Dimensions>> range_;             // {1} for zero dimensions
    std::array<std::size_t, Dimensions> extents_{};

    static constexpr bool laid_out_for_binding() {
        return std::is_standard_layout_v<local_accessor> &&
               offsetof(local_accessor, offset_) == ext_encore_binding_offset &&
               offsetof(local_accessor, index_) == ext_encore_binding_offset + sizeof(std::uint32_t);
    }
};

} // namespace _V1
} // namespace sycl

template <typename T, int D> struct std::hash<sycl::local_accessor<T, D>> {
    std::size_t operator()(const sycl::local_accessor<T, D>& a) const noexcept {
        return std::hash<std::uint32_t>()(a.ext_encore_index());
    }
};

// Accessors (SYCL 2020 sections 4.7.6): how command groups and the host reach buffers, and work-group local
// memory.
//
// - accessor: made in a command group (or as a placeholder and bound with handler::require), it tells the
//   handler how the command uses the buffer (which orders it after earlier commands) and gives the kernel or host
//   task element access. An access range and offset select a region; subscripts are relative to the offset.
// - host_accessor: waits for the commands the access depends on, then gives the host the buffer's contents; while
//   it lives, commands submitted later that use the buffer wait for it to go away.
// - local_accessor: work-group local memory of an nd_range kernel.
// Tags pick the mode: sycl::read_only, sycl::write_only, sycl::read_write (and the *_host_task variants);
// sycl::no_init says the previous contents need not be kept.
//
//     q.submit([&](sycl::handler& h) {
//         sycl::accessor in{a, h, sycl::read_only};
//         sycl::accessor out{b, h, sycl::write_only, sycl::no_init};
//         h.parallel_for(n, [=](sycl::id<1> i) { out[i] = 2 * in[i]; });
//     });
//     sycl::host_accessor result{b, sycl::read_only};
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "buffer.hpp"
#include "detail/host_device.hpp"
#include "item.hpp"

namespace sycl {
inline namespace _V1 {

template <access_mode Mode> struct mode_tag_t {
    explicit mode_tag_t() = default;
};
template <access_mode Mode, target Target> struct mode_target_tag_t {
    explicit mode_target_tag_t() = default;
};
inline constexpr mode_tag_t<access_mode::read> read_only{};
inline constexpr mode_tag_t<access_mode::read_write> read_write{};
inline constexpr mode_tag_t<access_mode::write> write_only{};
inline constexpr mode_target_tag_t<access_mode::read, target::host_task> read_only_host_task{};
inline constexpr mode_target_tag_t<access_mode::read_write, target::host_task> read_write_host_task{};
inline constexpr mode_target_tag_t<access_mode::write, target::host_task> write_only_host_task{};

namespace detail {

// What accessors tell the handler of their command group (defined with the handler).
struct dynamic_parameter_impl;
struct handler_access {
    static void require(handler& h, buffer_state& state, access_mode mode);
    // Reserves `bytes` of work-group local memory for the command's kernel; returns its index among the
    // kernel's local allocations.
    static std::uint32_t add_local(handler& h, std::size_t bytes);
    // dynamic_local_accessor::get: local allocation `index` follows dynamic parameter `p` (its size).
    static void add_dynamic_local(handler& h, std::uint32_t index, std::shared_ptr<dynamic_parameter_impl> p);
};

// The local memory of the work-group whose item runs on this thread, set by the kernel wrapper before it calls
// the kernel. A group's items all run on one thread (the native backend's fibers), so it is right for all of them.
inline thread_local std::span<std::byte* const> current_local_memory;

template <int D> void check_region(const range<D>& memory, const range<D>& access, const id<D>& offset) {
    for (int d = 0; d < D; ++d)
        if (offset[d] + access[d] > memory[d])
            throw exception(errc::invalid, "accessor: the access range and offset reach past the buffer in dimension " +
                                               std::to_string(d) + " (" + std::to_string(offset[d]) + " + " +
                                               std::to_string(access[d]) + " > " + std::to_string(memory[d]) + ")");
}

// a[i][j][k] on a multi-dimensional accessor: each [] fixes one more index.
template <typename T, int Left> class subscript {
public:
    ENCORE_HOST_DEVICE subscript(T* row_base, const std::size_t* extents, const std::size_t* offsets)
        : base_(row_base), extents_(extents), offsets_(offsets) {}
    ENCORE_HOST_DEVICE decltype(auto) operator[](std::size_t i) const {
        if constexpr (Left == 1)
            return base_[i + offsets_[0]];
        else {
            std::size_t stride = 1;
            for (int d = 1; d < Left; ++d) stride *= extents_[d];
            return subscript<T, Left - 1>(base_ + (i + offsets_[0]) * stride, extents_ + 1, offsets_ + 1);
        }
    }

private:
    T* base_;
    const std::size_t* extents_;
    const std::size_t* offsets_;
};

// What accessor and host_accessor share: a region of a row-major array (the buffer's extents, the access range
// and offset) and element access into it; subscripts are relative to the offset.
template <typename T, int D> class region {
public:
    using reference = T&;

    region() = default;
    region(T* data, range<D> memory, range<D> access, id<D> offset) : data_(data), access_(access) {
        for (int d = 0; d < D; ++d) {
            extents_[d] = memory[d];
            offsets_[d] = offset[d];
        }
    }

    ENCORE_HOST_DEVICE std::size_t size() const noexcept { return access_.size(); }
    ENCORE_HOST_DEVICE std::size_t byte_size() const noexcept { return size() * sizeof(T); }
    ENCORE_HOST_DEVICE range<D> get_range() const noexcept { return access_; }
    ENCORE_HOST_DEVICE id<D> get_offset() const noexcept {
        id<D> o;
        for (int d = 0; d < D; ++d) o[d] = offsets_[d];
        return o;
    }

    ENCORE_HOST_DEVICE reference operator[](const id<D>& index) const {
        std::size_t linear = 0;
        for (int d = 0; d < D; ++d) linear = linear * extents_[d] + index[d] + offsets_[d];
        return data_[linear];
    }
    // An item converts both to id and (1-D) to size_t: without this overload a[item] would be ambiguous.
    template <bool WithOffset> ENCORE_HOST_DEVICE reference operator[](const item<D, WithOffset>& index) const {
        return (*this)[index.get_id()];
    }
    ENCORE_HOST_DEVICE decltype(auto) operator[](std::size_t index) const
        requires(D > 1)
    {
        return subscript<T, D>(data_, extents_.data(), offsets_.data())[index];
    }
    ENCORE_HOST_DEVICE reference operator[](std::size_t index) const
        requires(D == 1)
    {
        return data_[index + offsets_[0]];
    }
    // The first element of the buffer (not of the access range).
    ENCORE_HOST_DEVICE T* get_pointer() const noexcept { return data_; }

private:
    T* data_ = nullptr;
    std::array<std::size_t, D> extents_{};
    std::array<std::size_t, D> offsets_{};
    range<D> access_{};
};

} // namespace detail

template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write),
          target AccessTarget = target::device, access::placeholder IsPlaceholder = access::placeholder::false_t>
class accessor
    : public detail::region<std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>, Dimensions> {
    static_assert(AccessTarget == target::device || AccessTarget == target::host_task ||
                      AccessTarget == target::constant_buffer,
                  "Encore's accessor supports the device, constant_buffer and host_task targets; use host_accessor "
                  "and local_accessor for the others");

public:
    using value_type = std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>;
    using reference = value_type&;
    using const_reference = const DataT&;
    static constexpr int dimensions = Dimensions;
    static constexpr access_mode ext_encore_mode = AccessMode; // what a dynamic_parameter of it requires

    accessor() = default; // an empty placeholder

    // In a command group.
    template <typename A>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, const property_list& p = {})
        : accessor(b, b.get_range(), id<Dimensions>{}, p) {
        bind(h);
    }
    template <typename A, access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, mode_tag_t<Tag>, const property_list& p = {})
        : accessor(b, h, p) {}
    template <typename A, access_mode Tag, target Target>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, mode_target_tag_t<Tag, Target>, const property_list& p = {})
        : accessor(b, h, p) {}
    template <typename A>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, range<Dimensions> access_range, const property_list& p = {})
        : accessor(b, h, access_range, id<Dimensions>{}, p) {}
    template <typename A>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, range<Dimensions> access_range, id<Dimensions> offset,
             const property_list& p = {})
        : accessor(b, access_range, offset, p) {
        bind(h);
    }
    template <typename A, access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, range<Dimensions> access_range, mode_tag_t<Tag>,
             const property_list& p = {})
        : accessor(b, h, access_range, id<Dimensions>{}, p) {}
    template <typename A, access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, range<Dimensions> access_range, id<Dimensions> offset,
             mode_tag_t<Tag>, const property_list& p = {})
        : accessor(b, h, access_range, offset, p) {}

    // Placeholders: bound to a command group later with handler::require.
    template <typename A>
    explicit accessor(buffer<DataT, Dimensions, A>& b, const property_list& p = {})
        : accessor(b, b.get_range(), id<Dimensions>{}, p) {}
    template <typename A, access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, mode_tag_t<Tag>, const property_list& p = {}) : accessor(b, p) {}
    template <typename A>
    accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, id<Dimensions> offset,
             const property_list& = {})
        : detail::region<value_type, Dimensions>(b.storage(), b.get_range(), access_range, offset),
          state_(b.state().get()) {
        detail::check_region(b.get_range(), access_range, offset);
    }

    bool is_placeholder() const noexcept { return !bound_; }
    bool empty() const noexcept { return state_ == nullptr; }

    // Encore: the buffer this accessor reaches (null for an empty one).
    detail::buffer_state* buffer_state() const noexcept { return state_; }

private:
    void bind(handler& h) {
        detail::handler_access::require(h, *state_, AccessMode);
        bound_ = true;
    }
    detail::buffer_state* state_ = nullptr;
    bool bound_ = false;
};

// Deduction from a tag: sycl::accessor a{buf, h, sycl::read_only};
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, handler&, const property_list& = {}) -> accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, handler&, mode_tag_t<M>, const property_list& = {}) -> accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, handler&, mode_target_tag_t<M, Tg>, const property_list& = {}) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, handler&, range<D>, const property_list& = {}) -> accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, handler&, range<D>, id<D>, const property_list& = {})
    -> accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, handler&, range<D>, mode_tag_t<M>, const property_list& = {}) -> accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, handler&, range<D>, id<D>, mode_tag_t<M>, const property_list& = {}) -> accessor<T, D, M>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, const property_list& = {})
    -> accessor<T, D, access_mode::read_write, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, mode_tag_t<M>, const property_list& = {})
    -> accessor<T, D, M, target::device, access::placeholder::true_t>;

// The host's view of a buffer.
template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write)>
class host_accessor
    : public detail::region<std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>, Dimensions> {
public:
    using value_type = std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>;
    using reference = value_type&;
    static constexpr int dimensions = Dimensions;

    template <typename A>
    explicit host_accessor(buffer<DataT, Dimensions, A>& b, const property_list& p = {})
        : host_accessor(b, b.get_range(), id<Dimensions>{}, p) {}
    template <typename A, access_mode Tag>
    host_accessor(buffer<DataT, Dimensions, A>& b, mode_tag_t<Tag>, const property_list& p = {})
        : host_accessor(b, p) {}
    template <typename A>
    host_accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, const property_list& p = {})
        : host_accessor(b, access_range, id<Dimensions>{}, p) {}
    template <typename A, access_mode Tag>
    host_accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, mode_tag_t<Tag>,
                  const property_list& p = {})
        : host_accessor(b, access_range, id<Dimensions>{}, p) {}
    template <typename A, access_mode Tag>
    host_accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, id<Dimensions> offset,
                  mode_tag_t<Tag>, const property_list& p = {})
        : host_accessor(b, access_range, offset, p) {}
    template <typename A>
    host_accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, id<Dimensions> offset,
                  const property_list& = {})
        : detail::region<value_type, Dimensions>(b.storage(), b.get_range(), access_range, offset) {
        detail::check_region(b.get_range(), access_range, offset);
        hold_ = detail::begin_host_access(b.state(), AccessMode);
    }

    value_type* begin() const noexcept requires(Dimensions == 1) { return &(*this)[0]; }
    value_type* end() const noexcept requires(Dimensions == 1) { return begin() + this->size(); }

private:
    std::shared_ptr<void> hold_; // while any copy lives, later commands on the buffer wait
};

template <typename T, int D, typename A>
host_accessor(buffer<T, D, A>&, const property_list& = {}) -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A>&, mode_tag_t<M>, const property_list& = {}) -> host_accessor<T, D, M>;
template <typename T, int D, typename A>
host_accessor(buffer<T, D, A>&, range<D>, const property_list& = {}) -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A>&, range<D>, mode_tag_t<M>, const property_list& = {}) -> host_accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A>&, range<D>, id<D>, mode_tag_t<M>, const property_list& = {}) -> host_accessor<T, D, M>;

// Work-group local memory: one array of `r` elements per work-group of an nd_range kernel.
template <typename DataT, int Dimensions = 1> class local_accessor {
public:
    using value_type = DataT;
    using reference = DataT&;
    static constexpr int dimensions = Dimensions;

    local_accessor(range<Dimensions> r, handler& h, const property_list& = {})
        : range_(r), index_(detail::handler_access::add_local(h, r.size() * sizeof(DataT))) {
        for (int d = 0; d < Dimensions; ++d) extents_[d] = r[d];
    }

    std::size_t size() const noexcept { return range_.size(); }
    std::size_t byte_size() const noexcept { return size() * sizeof(DataT); }
    range<Dimensions> get_range() const noexcept { return range_; }
    reference operator[](const id<Dimensions>& index) const { return data()[detail::linearize<Dimensions>(index, range_)]; }
    decltype(auto) operator[](std::size_t index) const
        requires(Dimensions > 1)
    {
        static constexpr std::size_t no_offsets[3] = {0, 0, 0};
        return detail::subscript<DataT, Dimensions>(data(), extents_.data(), no_offsets)[index];
    }
    reference operator[](std::size_t index) const
        requires(Dimensions == 1)
    {
        return data()[index];
    }
    // This work-group's array; only inside the kernel.
    DataT* get_pointer() const noexcept { return data(); }
    // Encore: its index among the kernel's local allocations.
    std::uint32_t ext_encore_index() const noexcept { return index_; }

private:
    DataT* data() const noexcept { return reinterpret_cast<DataT*>(detail::current_local_memory[index_]); }
    range<Dimensions> range_;
    std::array<std::size_t, Dimensions> extents_{};
    std::uint32_t index_;
};

} // namespace _V1
} // namespace sycl

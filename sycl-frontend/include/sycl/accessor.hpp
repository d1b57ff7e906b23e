// Buffer accessors (SYCL 2020 section 4.7.6): how command groups and the host reach buffers.
//
// - accessor: made in a command group (or as a placeholder and bound with handler::require), it tells the
//   handler how the command uses the buffer (which orders it after earlier commands) and gives the kernel or host
//   task element access. An access range and offset select a region; subscripts are relative to the offset.
// - host_accessor: waits for the commands the access depends on, then gives the host the buffer's contents; while
//   it lives, commands submitted later that use the buffer wait for it to go away.
// - local_accessor, work-group local memory of an nd_range kernel, is local_accessor.hpp (included at the end).
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
#include <compare>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "buffer.hpp"
#include "detail/host_device.hpp"
#include "item.hpp"
#include "multi_ptr.hpp"
#include "properties/accessor_properties.hpp"

#if defined(__CUDACC__)
#include "encore/backends/cuda/device_work_item.hpp" // local memory on the device
#endif

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
    // The local allocation that follows `p` in `h`'s command group: the one made for it already, or a new one of
    // `bytes` (a dynamic_local_accessor or dynamic_work_group_memory the kernel captured).
    static std::uint32_t dynamic_local(handler& h, const std::shared_ptr<dynamic_parameter_impl>& p, std::size_t bytes);
};

// The handler whose kernel object is being made from the program's kernel (its captures are copied then), or
// null: a dynamic_local_accessor or dynamic_work_group_memory copied meanwhile takes its local memory there.
inline thread_local handler* capturing_handler = nullptr;
struct capture_scope {
    explicit capture_scope(handler& h) : outer(capturing_handler) { capturing_handler = &h; }
    ~capture_scope() { capturing_handler = outer; }
    capture_scope(const capture_scope&) = delete;
    capture_scope& operator=(const capture_scope&) = delete;
    handler* outer;
};
// The dynamic local memory parameter whose nodes' kernels are being copied for its new size (graph update), or
// null: a dynamic_local_accessor or dynamic_work_group_memory of that parameter copied meanwhile takes its new range.
// (The parameter's mutex is held meanwhile: the scope carries its new size.)
struct resizing {
    const dynamic_parameter_impl* parameter = nullptr;
    std::size_t bytes = 0;
};
inline thread_local resizing resizing_parameter;
struct resize_scope {
    resize_scope(const dynamic_parameter_impl& p, std::size_t bytes) : outer(resizing_parameter) {
        resizing_parameter = {&p, bytes};
    }
    ~resize_scope() { resizing_parameter = outer; }
    resize_scope(const resize_scope&) = delete;
    resize_scope& operator=(const resize_scope&) = delete;
    resizing outer;
};
// A local_accessor's place in a CUDA block's dynamic shared memory when nothing bound it yet.
inline constexpr std::uint32_t unbound_local = 0xffffffffu;
// What a local_accessor is made with when its allocation exists already (dynamic local memory); `offset`: where
// the allocation starts in a CUDA block's dynamic shared memory, when the maker knows (a free-function kernel's
// entry).
struct reserved_local {
    std::uint32_t index;
    std::uint32_t offset = unbound_local;
};

// current_local_memory (sycl/item.hpp): the local memory of the work-group whose item runs on this thread, set by
// the kernel wrapper before it calls the kernel.

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

// Walks an accessor's region in row-major order, the order of its linear ids (a random-access iterator;
// one-dimensional regions use plain pointers instead).
template <typename T, int D> class region_iterator {
public:
    using iterator_category = std::random_access_iterator_tag;
    using iterator_concept = std::random_access_iterator_tag;
    using value_type = std::remove_cv_t<T>;
    using difference_type = std::ptrdiff_t;
    using pointer = T*;
    using reference = T&;

    region_iterator() = default;
    ENCORE_HOST_DEVICE region_iterator(T* data, const std::array<std::size_t, D>& extents,
                                       const std::array<std::size_t, D>& offsets, const range<D>& access,
                                       difference_type index)
        : data_(data), extents_(extents), offsets_(offsets), access_(access), index_(index) {}
    // iterator -> const_iterator
    template <typename U>
        requires(std::is_same_v<const U, T> && !std::is_const_v<U>)
    ENCORE_HOST_DEVICE region_iterator(const region_iterator<U, D>& o)
        : data_(o.data_), extents_(o.extents_), offsets_(o.offsets_), access_(o.access_), index_(o.index_) {}

    ENCORE_HOST_DEVICE reference operator*() const { return data_[address(index_)]; }
    ENCORE_HOST_DEVICE pointer operator->() const { return data_ + address(index_); }
    ENCORE_HOST_DEVICE reference operator[](difference_type n) const { return data_[address(index_ + n)]; }
    ENCORE_HOST_DEVICE region_iterator& operator++() { return ++index_, *this; }
    ENCORE_HOST_DEVICE region_iterator operator++(int) { auto old = *this; ++index_; return old; }
    ENCORE_HOST_DEVICE region_iterator& operator--() { return --index_, *this; }
    ENCORE_HOST_DEVICE region_iterator operator--(int) { auto old = *this; --index_; return old; }
    ENCORE_HOST_DEVICE region_iterator& operator+=(difference_type n) { return index_ += n, *this; }
    ENCORE_HOST_DEVICE region_iterator& operator-=(difference_type n) { return index_ -= n, *this; }
    friend ENCORE_HOST_DEVICE region_iterator operator+(region_iterator i, difference_type n) { return i += n; }
    friend ENCORE_HOST_DEVICE region_iterator operator+(difference_type n, region_iterator i) { return i += n; }
    friend ENCORE_HOST_DEVICE region_iterator operator-(region_iterator i, difference_type n) { return i -= n; }
    friend ENCORE_HOST_DEVICE difference_type operator-(const region_iterator& a, const region_iterator& b) {
        return a.index_ - b.index_;
    }
    friend ENCORE_HOST_DEVICE bool operator==(const region_iterator& a, const region_iterator& b) {
        return a.index_ == b.index_;
    }
    friend ENCORE_HOST_DEVICE std::strong_ordering operator<=>(const region_iterator& a, const region_iterator& b) {
        return a.index_ <=> b.index_;
    }

private:
    template <typename, int> friend class region_iterator;
    // The linear index within the access range, as an index of the whole buffer.
    ENCORE_HOST_DEVICE std::size_t address(difference_type linear) const {
        std::size_t rest = static_cast<std::size_t>(linear);
        std::size_t index[D];
        for (int d = D - 1; d >= 0; --d) {
            index[d] = rest % access_[d];
            rest /= access_[d];
        }
        std::size_t a = 0;
        for (int d = 0; d < D; ++d) a = a * extents_[d] + index[d] + offsets_[d];
        return a;
    }

    T* data_ = nullptr;
    std::array<std::size_t, D> extents_{};
    std::array<std::size_t, D> offsets_{};
    range<D> access_{};
    difference_type index_ = 0;
};

// The properties an accessor keeps (the others it accepts have no effect): one bit each.
template <typename P> constexpr std::uint8_t accessor_property_bit() {
    if constexpr (std::is_same_v<P, property::no_init>)
        return 1;
    else if constexpr (std::is_same_v<P, ext::oneapi::property::no_offset>)
        return 2;
    else if constexpr (std::is_same_v<P, ext::oneapi::property::no_alias>)
        return 4;
    else
        return 0;
}
// Throws errc::invalid for no_init on a read-only access (SYCL 2020: no_init needs a mode that writes).
inline std::uint8_t accessor_properties(const property_list& p, access_mode mode, const char* what) {
    if (mode == access_mode::read && p.has_property<property::no_init>())
        throw exception(errc::invalid, std::string(what) + ": property::no_init on a read-only accessor (no_init "
                                                           "discards the contents, which only a writer may do)");
    return static_cast<std::uint8_t>((p.has_property<property::no_init>() ? 1 : 0) |
                                     (p.has_property<ext::oneapi::property::no_offset>() ? 2 : 0) |
                                     (p.has_property<ext::oneapi::property::no_alias>() ? 4 : 0));
}
template <typename P> P accessor_property(std::uint8_t properties, const char* what) {
    if constexpr (accessor_property_bit<P>() != 0)
        if (properties & accessor_property_bit<P>()) return P{};
    throw exception(errc::invalid,
                    std::string(what) + "::get_property: the accessor was not made with that property");
}
// A zero-dimensional accessor is a one-element region of a one-dimensional buffer.
template <int D> inline constexpr int region_dimensions = D == 0 ? 1 : D;

// A buffer lvalue for the length of one full-expression (a delegating constructor's).
template <typename B> B& as_lvalue(B&& b) { return b; }

// What accessor and host_accessor share: a region of a row-major array (the buffer's extents, the access range
// and offset) and element access into it; subscripts are relative to the offset.
template <typename T, int D> class region {
public:
    using reference = T&;
    using iterator = std::conditional_t<D == 1, T*, region_iterator<T, D>>;
    using const_iterator = std::conditional_t<D == 1, const T*, region_iterator<const T, D>>;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;
    using difference_type = std::ptrdiff_t;
    using size_type = std::size_t;

    region() = default;
    region(T* data, range<D> memory, range<D> access, id<D> offset) : data_(data), access_(access) {
        for (int d = 0; d < D; ++d) {
            extents_[d] = memory[d];
            offsets_[d] = offset[d];
        }
    }
    // A read-only view of a writable region (accessor conversions).
    template <typename U>
        requires(std::is_same_v<const U, T> && !std::is_const_v<U>)
    region(const region<U, D>& o) : data_(o.data_), extents_(o.extents_), offsets_(o.offsets_), access_(o.access_) {}

    ENCORE_HOST_DEVICE size_type max_size() const noexcept { return std::numeric_limits<difference_type>::max(); }
    ENCORE_HOST_DEVICE bool empty() const noexcept { return size() == 0; }
    // The region's elements in row-major order.
    ENCORE_HOST_DEVICE iterator begin() const noexcept { return make_iterator<iterator>(0); }
    ENCORE_HOST_DEVICE iterator end() const noexcept { return make_iterator<iterator>(size()); }
    ENCORE_HOST_DEVICE const_iterator cbegin() const noexcept { return begin(); }
    ENCORE_HOST_DEVICE const_iterator cend() const noexcept { return end(); }
    ENCORE_HOST_DEVICE reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
    ENCORE_HOST_DEVICE reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }
    ENCORE_HOST_DEVICE const_reverse_iterator crbegin() const noexcept { return const_reverse_iterator(cend()); }
    ENCORE_HOST_DEVICE const_reverse_iterator crend() const noexcept { return const_reverse_iterator(cbegin()); }
    // Whether two regions are the same view of the same memory.
    bool same_view(const region& o) const noexcept {
        return data_ == o.data_ && extents_ == o.extents_ && offsets_ == o.offsets_ && access_ == o.access_;
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
    template <typename, int> friend class region;
    template <typename I> ENCORE_HOST_DEVICE I make_iterator(std::size_t index) const noexcept {
        if constexpr (D == 1)
            return data_ + offsets_[0] + index;
        else
            return I(data_, extents_, offsets_, access_, static_cast<difference_type>(index));
    }

    T* data_ = nullptr;
    std::array<std::size_t, D> extents_{};
    std::array<std::size_t, D> offsets_{};
    range<D> access_{};
};

} // namespace detail

template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write),
          target AccessTarget = target::device, access::placeholder IsPlaceholder = access::placeholder::false_t>
class accessor : public detail::region<std::conditional_t<AccessMode == sycl::access_mode::read, const DataT, DataT>,
                                       detail::region_dimensions<Dimensions>> {
    static_assert(AccessTarget == target::device || AccessTarget == target::host_task ||
                      AccessTarget == target::constant_buffer,
                  "Encore's accessor supports the device, constant_buffer and host_task targets; use host_accessor "
                  "and local_accessor for the others");

public:
    using value_type = std::conditional_t<AccessMode == sycl::access_mode::read, const DataT, DataT>;
    using reference = value_type&;
    using const_reference = const DataT&;
    static constexpr int dimensions = Dimensions;
    static constexpr target access_target = AccessTarget;

    accessor() = default; // an empty placeholder

    // In a command group.
    template <typename A>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, const property_list& p = {})
        : accessor(b, b.get_range(), id<Dimensions>{}, p) {
        bind(h);
    }
    template <typename A, sycl::access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, mode_tag_t<Tag>, const property_list& p = {})
        : accessor(b, h, p) {}
    template <typename A, sycl::access_mode Tag, target Target>
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
    template <typename A, sycl::access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, range<Dimensions> access_range, mode_tag_t<Tag>,
             const property_list& p = {})
        : accessor(b, h, access_range, id<Dimensions>{}, p) {}
    template <typename A, sycl::access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, range<Dimensions> access_range, id<Dimensions> offset,
             mode_tag_t<Tag>, const property_list& p = {})
        : accessor(b, h, access_range, offset, p) {}

    // Placeholders: bound to a command group later with handler::require.
    template <typename A>
    explicit accessor(buffer<DataT, Dimensions, A>& b, const property_list& p = {})
        : accessor(b, b.get_range(), id<Dimensions>{}, p) {}
    template <typename A, sycl::access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, mode_tag_t<Tag>, const property_list& p = {}) : accessor(b, p) {}
    template <typename A>
    accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, id<Dimensions> offset,
             const property_list& p = {})
        : detail::region<value_type, Dimensions>(b.storage(), b.get_range(), access_range, offset),
          state_(b.state().get()), properties_(detail::accessor_properties(p, AccessMode, "accessor")) {
        detail::check_region(b.get_range(), access_range, offset);
    }
    // The placeholder forms with an access range, and those with a target tag.
    template <typename A>
    accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, const property_list& p = {})
        : accessor(b, access_range, id<Dimensions>{}, p) {}
    template <typename A, sycl::access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, mode_tag_t<Tag>,
             const property_list& p = {})
        : accessor(b, access_range, id<Dimensions>{}, p) {}
    template <typename A, sycl::access_mode Tag>
    accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, id<Dimensions> offset, mode_tag_t<Tag>,
             const property_list& p = {})
        : accessor(b, access_range, offset, p) {}
    template <typename A, sycl::access_mode Tag, target Target>
    accessor(buffer<DataT, Dimensions, A>& b, mode_target_tag_t<Tag, Target>, const property_list& p = {})
        : accessor(b, p) {}
    template <typename A, sycl::access_mode Tag, target Target>
    accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, mode_target_tag_t<Tag, Target>,
             const property_list& p = {})
        : accessor(b, access_range, id<Dimensions>{}, p) {}
    template <typename A, sycl::access_mode Tag, target Target>
    accessor(buffer<DataT, Dimensions, A>& b, range<Dimensions> access_range, id<Dimensions> offset,
             mode_target_tag_t<Tag, Target>, const property_list& p = {})
        : accessor(b, access_range, offset, p) {}
    template <typename A, sycl::access_mode Tag, target Target>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, range<Dimensions> access_range,
             mode_target_tag_t<Tag, Target>, const property_list& p = {})
        : accessor(b, h, access_range, id<Dimensions>{}, p) {}
    template <typename A, sycl::access_mode Tag, target Target>
    accessor(buffer<DataT, Dimensions, A>& b, handler& h, range<Dimensions> access_range, id<Dimensions> offset,
             mode_target_tag_t<Tag, Target>, const property_list& p = {})
        : accessor(b, h, access_range, offset, p) {}
    // A read-only accessor with const elements over a buffer of non-const ones (accessor<const T, D, read>).
    template <typename A, typename... Rest>
        requires(std::is_const_v<DataT>)
    accessor(buffer<std::remove_const_t<DataT>, Dimensions, A>& b, Rest&&... rest)
        : accessor(detail::as_lvalue(b.template reinterpret<DataT, Dimensions>()), std::forward<Rest>(rest)...) {}
    // The implicit conversions to a read-only accessor: from read_write or read with non-const elements to
    // read with const elements, and back from const to non-const elements in read mode.
    template <typename U, sycl::access_mode M>
        requires(AccessMode == sycl::access_mode::read && !std::is_same_v<U, DataT> &&
                 std::is_same_v<std::remove_const_t<U>, std::remove_const_t<DataT>> &&
                 (M == sycl::access_mode::read || (M == sycl::access_mode::read_write && std::is_const_v<DataT>)))
    accessor(const accessor<U, Dimensions, M, AccessTarget, IsPlaceholder>& o)
        : detail::region<value_type, detail::region_dimensions<Dimensions>>(o), state_(o.state_), bound_(o.bound_),
          properties_(o.properties_) {}

    // Zero dimensions: the first element of a one-dimensional buffer, read by conversion and written by
    // assignment.
    template <typename A>
        requires(Dimensions == 0)
    accessor(buffer<DataT, 1, A>& b, const property_list& p = {})
        : detail::region<value_type, 1>(b.storage(), b.get_range(), range<1>(1), id<1>()), state_(b.state().get()),
          properties_(detail::accessor_properties(p, AccessMode, "accessor")) {}
    template <typename A>
        requires(Dimensions == 0)
    accessor(buffer<DataT, 1, A>& b, handler& h, const property_list& p = {}) : accessor(b, p) {
        bind(h);
    }
    ENCORE_HOST_DEVICE operator reference() const
        requires(Dimensions == 0)
    {
        return (*this)[id<1>()];
    }
    ENCORE_HOST_DEVICE const accessor& operator=(const value_type& v) const
        requires(Dimensions == 0 && AccessMode != sycl::access_mode::read)
    {
        (*this)[id<1>()] = v;
        return *this;
    }
    ENCORE_HOST_DEVICE const accessor& operator=(value_type&& v) const
        requires(Dimensions == 0 && AccessMode != sycl::access_mode::read)
    {
        (*this)[id<1>()] = std::move(v);
        return *this;
    }

    bool is_placeholder() const noexcept { return !bound_; }
    bool empty() const noexcept { return state_ == nullptr || this->size() == 0; }
    [[deprecated("use size()")]] std::size_t get_count() const noexcept { return this->size(); }
    [[deprecated("use byte_size()")]] std::size_t get_size() const noexcept { return this->byte_size(); }
    void swap(accessor& other) noexcept { std::swap(*this, other); }
    // Properties: no_init, ext::oneapi::no_offset and no_alias are kept; others are accepted and dropped.
    template <typename P> bool has_property() const noexcept {
        return (properties_ & detail::accessor_property_bit<P>()) != 0;
    }
    template <typename P> P get_property() const { return detail::accessor_property<P>(properties_, "accessor"); }

    friend bool operator==(const accessor& a, const accessor& b) noexcept {
        return a.state_ == b.state_ && a.same_view(b);
    }

    template <access::decorated IsDecorated> using accessor_ptr = global_ptr<value_type, IsDecorated>;
    // The buffer's first element (as get_pointer), in the kernel.
    template <access::decorated IsDecorated>
    ENCORE_HOST_DEVICE global_ptr<value_type, IsDecorated> get_multi_ptr() const noexcept {
        return global_ptr<value_type, IsDecorated>(this->get_pointer());
    }

    // Encore: the buffer this accessor reaches (null for an empty one).
    detail::buffer_state* buffer_state() const noexcept { return state_; }

    static constexpr sycl::access_mode access_mode = AccessMode;

private:
    template <typename, int, sycl::access_mode, target, access::placeholder> friend class accessor;
    void bind(handler& h) {
        detail::handler_access::require(h, *state_, AccessMode);
        bound_ = true;
    }
    detail::buffer_state* state_ = nullptr;
    bool bound_ = false;
    std::uint8_t properties_ = 0;
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
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, range<D>, const property_list& = {})
    -> accessor<T, D, access_mode::read_write, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A>
accessor(buffer<T, D, A>&, range<D>, id<D>, const property_list& = {})
    -> accessor<T, D, access_mode::read_write, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, range<D>, mode_tag_t<M>, const property_list& = {})
    -> accessor<T, D, M, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M>
accessor(buffer<T, D, A>&, range<D>, id<D>, mode_tag_t<M>, const property_list& = {})
    -> accessor<T, D, M, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, range<D>, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, range<D>, id<D>, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, handler&, range<D>, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A>&, handler&, range<D>, id<D>, mode_target_tag_t<M, Tg>, const property_list& = {})
    -> accessor<T, D, M, Tg>;

// The host's view of a buffer.
template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write)>
class host_accessor : public detail::region<std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>,
                                            detail::region_dimensions<Dimensions>> {
public:
    using value_type = std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>;
    using reference = value_type&;
    using const_reference = const DataT&;
    static constexpr int dimensions = Dimensions;

    host_accessor() = default; // empty: reaches no buffer
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
                  const property_list& p = {})
        : detail::region<value_type, Dimensions>(b.storage(), b.get_range(), access_range, offset),
          properties_(detail::accessor_properties(p, AccessMode, "host_accessor")) {
        detail::check_region(b.get_range(), access_range, offset);
        hold_ = detail::begin_host_access(b.state(), AccessMode);
    }
    // A read-only host accessor with const elements over a buffer of non-const ones.
    template <typename A, typename... Rest>
        requires(std::is_const_v<DataT>)
    host_accessor(buffer<std::remove_const_t<DataT>, Dimensions, A>& b, Rest&&... rest)
        : host_accessor(detail::as_lvalue(b.template reinterpret<DataT, Dimensions>()),
                        std::forward<Rest>(rest)...) {}
    // The implicit conversions to a read-only host accessor (as for accessor).
    template <typename U, access_mode M>
        requires(AccessMode == access_mode::read && !std::is_same_v<U, DataT> &&
                 std::is_same_v<std::remove_const_t<U>, std::remove_const_t<DataT>> &&
                 (M == access_mode::read || (M == access_mode::read_write && std::is_const_v<DataT>)))
    host_accessor(const host_accessor<U, Dimensions, M>& o)
        : detail::region<value_type, detail::region_dimensions<Dimensions>>(o), hold_(o.hold_),
          properties_(o.properties_) {}

    // Zero dimensions: the first element of a one-dimensional buffer.
    template <typename A>
        requires(Dimensions == 0)
    host_accessor(buffer<DataT, 1, A>& b, const property_list& p = {})
        : detail::region<value_type, 1>(b.storage(), b.get_range(), range<1>(1), id<1>()),
          properties_(detail::accessor_properties(p, AccessMode, "host_accessor")) {
        hold_ = detail::begin_host_access(b.state(), AccessMode);
    }
    operator reference() const
        requires(Dimensions == 0)
    {
        return (*this)[id<1>()];
    }
    const host_accessor& operator=(const value_type& v) const
        requires(Dimensions == 0 && AccessMode != access_mode::read)
    {
        (*this)[id<1>()] = v;
        return *this;
    }
    const host_accessor& operator=(value_type&& v) const
        requires(Dimensions == 0 && AccessMode != access_mode::read)
    {
        (*this)[id<1>()] = std::move(v);
        return *this;
    }

    void swap(host_accessor& other) noexcept { std::swap(*this, other); }
    template <typename P> bool has_property() const noexcept {
        return (properties_ & detail::accessor_property_bit<P>()) != 0;
    }
    template <typename P> P get_property() const {
        return detail::accessor_property<P>(properties_, "host_accessor");
    }
    friend bool operator==(const host_accessor& a, const host_accessor& b) noexcept {
        return a.hold_ == b.hold_ && a.same_view(b);
    }

private:
    template <typename, int, access_mode> friend class host_accessor;
    std::shared_ptr<void> hold_; // while any copy lives, later commands on the buffer wait
    std::uint8_t properties_ = 0;
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
template <typename T, int D, typename A>
host_accessor(buffer<T, D, A>&, range<D>, id<D>, const property_list& = {})
    -> host_accessor<T, D, access_mode::read_write>;

} // namespace _V1
} // namespace sycl

template <typename T, int D, sycl::access_mode M, sycl::target Tg, sycl::access::placeholder P>
struct std::hash<sycl::accessor<T, D, M, Tg, P>> {
    std::size_t operator()(const sycl::accessor<T, D, M, Tg, P>& a) const noexcept {
        return std::hash<const void*>()(a.buffer_state()) ^ std::hash<const void*>()(a.get_pointer());
    }
};
template <typename T, int D, sycl::access_mode M> struct std::hash<sycl::host_accessor<T, D, M>> {
    std::size_t operator()(const sycl::host_accessor<T, D, M>& a) const noexcept {
        return std::hash<const void*>()(a.get_pointer());
    }
};

// local_accessor was defined here until it had a file of its own; code that includes only this header keeps it.
#include "local_accessor.hpp"

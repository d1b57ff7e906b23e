// sycl::buffer (SYCL 2020 section 4.7.2): data that command groups access through accessors, with the order
// between them derived from how each accesses it.
//
// A buffer made over host data copies it in and, unless the data was const or write-back is switched off,
// copies the final contents back when the last copy of the buffer goes away; that destruction waits for every
// command using the buffer. Storage and tracking: see detail/buffer_state.hpp. A sub-buffer is a contiguous
// region of its parent and shares its tracking.
//
//     std::vector<float> v(n, 1.0f);
//     {
//         sycl::buffer b{v};
//         q.submit([&](sycl::handler& h) {
//             sycl::accessor a{b, h, sycl::read_write};
//             h.parallel_for(n, [=](sycl::id<1> i) { a[i] *= 2; });
//         });
//     } // waits, then v holds the results
#pragma once

#include <iterator>
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <ranges>
#include <type_traits>
#include <vector>

#include "detail/buffer_state.hpp"
#include "properties/buffer_properties.hpp"
#include "property_list.hpp"
#include "range.hpp"

namespace sycl {
inline namespace _V1 {

enum class target { device, host_task, constant_buffer, local, host_buffer, global_buffer = device };
namespace access {
using mode = access_mode;
using target = sycl::target;
enum class placeholder { false_t, true_t };
// Where a pointer points (multi_ptr, atomic_ref). Encore's pointers are plain on every device: the space is part of
// the type only.
enum class address_space { global_space, local_space, constant_space, private_space, generic_space };
// Whether multi_ptr::pointer is decorated with its address space (Encore: never; `legacy` is SYCL 1.2.1's multi_ptr).
enum class decorated { no, yes, legacy };
} // namespace access

class handler;
template <typename T> using buffer_allocator = std::allocator<T>;
template <typename DataT, int Dimensions, access_mode AccessMode, target AccessTarget, access::placeholder IsPlaceholder>
class accessor;
template <typename DataT, int Dimensions, access_mode AccessMode> class host_accessor;

namespace detail {
template <int D> std::size_t checked_count(const range<D>& r) {
    if (r.size() == 0) throw exception(errc::invalid, "sycl::buffer: a buffer needs at least one element");
    return r.size();
}
// What a buffer constructor or deduction guide accepts as an allocator (a property or a property_list is not one).
template <typename A> concept allocator_like = requires(A& a, std::size_t n) {
    typename A::value_type;
    a.allocate(n);
};
template <typename P> inline constexpr bool is_owning_or_weak_ptr = false;
template <typename U> inline constexpr bool is_owning_or_weak_ptr<std::shared_ptr<U>> = true;
template <typename U> inline constexpr bool is_owning_or_weak_ptr<std::weak_ptr<U>> = true;
} // namespace detail

template <typename T, int Dimensions = 1, typename AllocatorT = buffer_allocator<std::remove_const_t<T>>>
class buffer {
    static_assert(Dimensions >= 1 && Dimensions <= 3, "a buffer has 1, 2 or 3 dimensions");
    static_assert(std::is_trivially_copyable_v<std::remove_const_t<T>>, "buffer elements must be trivially copyable");

public:
    // Declared, as the compiler would: Clang 15 crashes (Sema::checkTypeSupport) inferring the device side of an
    // implicit copy constructor of a multi-dimensional buffer in HIP device mode (encore++'s spir64 compile).
    buffer(const buffer&) = default;
    buffer(buffer&&) = default;
    buffer& operator=(const buffer&) = default;
    buffer& operator=(buffer&&) = default;
    ~buffer() = default;
    using value_type = T;
    using reference = value_type&;
    using const_reference = const value_type&;
    using allocator_type = AllocatorT;

    buffer(const range<Dimensions>& r, const property_list& props = {})
        : buffer(r, nullptr, nullptr, props) {}
    buffer(const range<Dimensions>& r, AllocatorT a, const property_list& props = {}) : buffer(r, props) {
        allocator_ = std::move(a);
    }
    // Copies from `host_data` now and back to it at the end.
    buffer(std::remove_const_t<T>* host_data, const range<Dimensions>& r, const property_list& props = {})
        : buffer(r, host_data, host_data, props) {}
    // Copies from `host_data` now; nothing is written back.
    buffer(const std::remove_const_t<T>* host_data, const range<Dimensions>& r, const property_list& props = {})
        : buffer(r, host_data, nullptr, props) {}
    // A contiguous container: copied in now, written back at the end unless its elements are const.
    template <typename Container>
        requires(Dimensions == 1 && std::ranges::contiguous_range<Container> && std::ranges::sized_range<Container>)
    buffer(Container& container, const property_list& props = {})
        : buffer(range<1>(std::ranges::size(container)), std::ranges::data(container),
                 std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<Container>>>
                     ? nullptr
                     : const_cast<void*>(static_cast<const void*>(std::ranges::data(container))),
                 props) {}
    // The same with an allocator, which get_allocator() returns (the storage itself is always USM shared memory).
    buffer(std::remove_const_t<T>* host_data, const range<Dimensions>& r, AllocatorT a,
           const property_list& props = {})
        requires detail::allocator_like<AllocatorT>
        : buffer(host_data, r, props) {
        allocator_ = std::move(a);
    }
    buffer(const std::remove_const_t<T>* host_data, const range<Dimensions>& r, AllocatorT a,
           const property_list& props = {})
        requires detail::allocator_like<AllocatorT>
        : buffer(host_data, r, props) {
        allocator_ = std::move(a);
    }
    template <typename Container>
        requires(Dimensions == 1 && std::ranges::contiguous_range<Container> &&
                 std::ranges::sized_range<Container> && detail::allocator_like<AllocatorT>)
    buffer(Container& container, AllocatorT a, const property_list& props = {}) : buffer(container, props) {
        allocator_ = std::move(a);
    }
    // Host data owned by a shared_ptr: copied in now; the buffer shares ownership and writes the final contents
    // back into it when its last copy goes (nothing for const elements).
    buffer(const std::shared_ptr<T>& host_data, const range<Dimensions>& r, const property_list& props = {})
        : buffer(r, host_data.get(), nullptr, props) {
        write_back_into(host_data);
    }
    buffer(const std::shared_ptr<T>& host_data, const range<Dimensions>& r, AllocatorT a,
           const property_list& props = {})
        requires detail::allocator_like<AllocatorT>
        : buffer(host_data, r, props) {
        allocator_ = std::move(a);
    }
    buffer(const std::shared_ptr<T[]>& host_data, const range<Dimensions>& r, const property_list& props = {})
        : buffer(r, host_data.get(), nullptr, props) {
        write_back_into(host_data);
    }
    buffer(const std::shared_ptr<T[]>& host_data, const range<Dimensions>& r, AllocatorT a,
           const property_list& props = {})
        requires detail::allocator_like<AllocatorT>
        : buffer(host_data, r, props) {
        allocator_ = std::move(a);
    }
    // Copies [first, last) in; nothing is written back.
    template <std::input_iterator InputIterator>
        requires(Dimensions == 1)
    buffer(InputIterator first, InputIterator last, const property_list& props = {})
        : buffer(copied_values{std::vector<std::remove_const_t<T>>(first, last)}, props) {}
    template <std::input_iterator InputIterator>
        requires(Dimensions == 1 && detail::allocator_like<AllocatorT>)
    buffer(InputIterator first, InputIterator last, AllocatorT a, const property_list& props = {})
        : buffer(first, last, props) {
        allocator_ = std::move(a);
    }
    // A sub-buffer: `sub_range` elements of `parent` from `offset`; the region must be contiguous.
    buffer(buffer& parent, const id<Dimensions>& offset, const range<Dimensions>& sub_range)
        : state_(parent.state_), user_(parent.user_), range_(sub_range), byte_offset_(parent.byte_offset_),
          sub_buffer_(true), properties_(parent.properties_) {
        for (int d = 0; d < Dimensions; ++d)
            if (offset[d] + sub_range[d] > parent.range_[d])
                throw exception(errc::invalid, "sycl::buffer: the sub-buffer reaches past its parent in dimension " +
                                                   std::to_string(d));
        for (int d = 1; d < Dimensions; ++d)
            if (sub_range[d] != parent.range_[d])
                throw exception(errc::invalid, "sycl::buffer: a sub-buffer must be contiguous in its parent (only "
                                               "the first dimension may be narrower)");
        if (sub_range.size() == 0) throw exception(errc::invalid, "sycl::buffer: a sub-buffer needs at least one element");
        byte_offset_ += detail::linearize<Dimensions>(offset, parent.range_) * sizeof(T);
        allocator_ = parent.allocator_;
    }

    range<Dimensions> get_range() const noexcept { return range_; }
    std::size_t size() const noexcept { return range_.size(); }
    std::size_t byte_size() const noexcept { return size() * sizeof(T); }
    [[deprecated("use size()")]] std::size_t get_count() const noexcept { return size(); }
    [[deprecated("use byte_size()")]] std::size_t get_size() const noexcept { return byte_size(); }
    // The allocator the buffer was made with, else a default-constructed one.
    AllocatorT get_allocator() const {
        if (allocator_) return *allocator_;
        if constexpr (std::is_default_constructible_v<AllocatorT>)
            return AllocatorT();
        else
            throw exception(errc::invalid, "buffer::get_allocator: the buffer was made without an allocator, and "
                                           "its allocator type cannot be default-constructed");
    }
    bool is_sub_buffer() const noexcept { return sub_buffer_; }
    template <typename P> bool has_property() const noexcept { return properties_.template has_property<P>(); }
    template <typename P> P get_property() const { return properties_.template get_property<P>(); }

    template <access_mode Mode = access_mode::read_write, target Target = target::device>
    accessor<T, Dimensions, Mode, Target, access::placeholder::false_t> get_access(handler& h) {
        return {*this, h};
    }
    template <access_mode Mode = access_mode::read_write, target Target = target::device>
    accessor<T, Dimensions, Mode, Target, access::placeholder::false_t>
    get_access(handler& h, range<Dimensions> access_range, id<Dimensions> offset = {}) {
        return {*this, h, access_range, offset};
    }
    template <access_mode Mode = access_mode::read_write> host_accessor<T, Dimensions, Mode> get_host_access() {
        return host_accessor<T, Dimensions, Mode>(*this);
    }
    // As if the arguments followed the buffer in an accessor's (host_accessor's) constructor, tags included:
    // b.get_access(h, sycl::read_only), b.get_host_access(sycl::write_only).
    template <typename... Ts> auto get_access(Ts&&... args) { return accessor{*this, std::forward<Ts>(args)...}; }
    template <typename... Ts> auto get_host_access(Ts&&... args) {
        return host_accessor{*this, std::forward<Ts>(args)...};
    }
    // SYCL 1.2.1's host accessors (target::host_buffer), deprecated by SYCL 2020: Encore returns a host_accessor,
    // which `auto` code cannot tell apart.
    template <access_mode Mode>
    [[deprecated("use get_host_access() or host_accessor")]] host_accessor<T, Dimensions, Mode> get_access() {
        return host_accessor<T, Dimensions, Mode>(*this);
    }
    template <access_mode Mode>
    [[deprecated("use get_host_access() or host_accessor")]] host_accessor<T, Dimensions, Mode>
    get_access(range<Dimensions> access_range, id<Dimensions> offset = {}) {
        return host_accessor<T, Dimensions, Mode>(*this, access_range, offset);
    }

    // Where the contents go when the last copy of the buffer is destroyed (nullptr: nowhere): a pointer or
    // contiguous iterator (the bytes are copied there), a std::weak_ptr or std::shared_ptr (copied there if it
    // is still alive then; the buffer does not keep it alive), or any output iterator (the elements are
    // assigned through it).
    template <typename Destination = std::nullptr_t> void set_final_data(Destination destination = nullptr) {
        if constexpr (std::is_null_pointer_v<Destination>)
            state_->set_final_data(nullptr);
        else if constexpr (detail::is_owning_or_weak_ptr<Destination>)
            state_->set_final_writer(
                [target = std::weak_ptr(destination)](const std::byte* contents, std::size_t bytes) {
                    if (auto alive = target.lock()) std::memcpy(static_cast<void*>(alive.get()), contents, bytes);
                });
        else if constexpr (std::is_pointer_v<Destination> || std::contiguous_iterator<Destination>)
            state_->set_final_data(static_cast<void*>(std::to_address(destination)));
        else if constexpr (std::output_iterator<Destination, const std::remove_const_t<T>&>)
            state_->set_final_writer([out = destination](const std::byte* contents, std::size_t bytes) mutable {
                const auto* values = reinterpret_cast<const std::remove_const_t<T>*>(contents);
                std::copy(values, values + bytes / sizeof(T), out);
            });
        else
            state_->set_final_data(static_cast<void*>(std::to_address(destination))); // a fancy pointer
    }
    void set_write_back(bool on = true) { state_->set_write_back(on); }

    // The same memory seen as `R` elements in `r` (SYCL 2020 4.7.2.3): a buffer sharing this one's storage, its
    // accesses tracked together with this one's. Throws errc::invalid when `r` does not cover exactly this
    // buffer's bytes.
    template <typename R, int RD = Dimensions,
              typename RA = typename std::allocator_traits<AllocatorT>::template rebind_alloc<std::remove_const_t<R>>>
    buffer<R, RD, RA> reinterpret(range<RD> r) const {
        if (r.size() * sizeof(R) != byte_size())
            throw exception(errc::invalid, "buffer::reinterpret: " + std::to_string(r.size()) + " elements of " +
                                               std::to_string(sizeof(R)) + " bytes do not cover the buffer's " +
                                               std::to_string(byte_size()) + " bytes");
        return buffer<R, RD, RA>(*this, r);
    }
    // As one dimension, or with this buffer's range when the element sizes match.
    template <typename R, int RD = Dimensions,
              typename RA = typename std::allocator_traits<AllocatorT>::template rebind_alloc<std::remove_const_t<R>>>
        requires(RD == 1 || (RD == Dimensions && sizeof(R) == sizeof(T)))
    buffer<R, RD, RA> reinterpret() const {
        if constexpr (RD == 1) {
            if (byte_size() % sizeof(R) != 0)
                throw exception(errc::invalid, "buffer::reinterpret: the buffer's " + std::to_string(byte_size()) +
                                                   " bytes are not a whole number of " + std::to_string(sizeof(R)) +
                                                   "-byte elements");
            return reinterpret<R, 1, RA>(range<1>(byte_size() / sizeof(R)));
        } else
            return reinterpret<R, RD, RA>(range_);
    }

    friend bool operator==(const buffer& a, const buffer& b) noexcept {
        return a.state_ == b.state_ && a.byte_offset_ == b.byte_offset_ && a.range_ == b.range_;
    }

    // Encore: what the accessors reach.
    const std::shared_ptr<detail::buffer_state>& state() const noexcept { return state_; }
    std::size_t byte_offset() const noexcept { return byte_offset_; }
    T* storage() const noexcept { return reinterpret_cast<T*>(state_->data() + byte_offset_); }

private:
    template <typename, int, typename> friend class buffer;
    template <typename Owner> void write_back_into(const Owner& host_data) {
        if constexpr (!std::is_const_v<T>)
            if (host_data)
                state_->set_final_writer([host_data](const std::byte* contents, std::size_t bytes) {
                    std::memcpy(static_cast<void*>(host_data.get()), contents, bytes);
                });
    }
    // reinterpret(): another view of `other`'s memory.
    template <typename U, int UD, typename UA>
    buffer(const buffer<U, UD, UA>& other, const range<Dimensions>& r)
        : state_(other.state_), user_(other.user_), range_(r), byte_offset_(other.byte_offset_),
          sub_buffer_(other.sub_buffer_), properties_(other.properties_) {}

    buffer(const range<Dimensions>& r, const void* initial, void* final_data, const property_list& props)
        : state_(std::make_shared<detail::buffer_state>(detail::checked_count(r) * sizeof(T), initial)),
          user_(std::make_shared<detail::buffer_user>(state_)), range_(r), properties_(props) {
        state_->set_final_data(final_data);
        if (props.has_property<property::buffer::use_mutex>())
            state_->set_user_mutex(props.get_property<property::buffer::use_mutex>().get_mutex_ptr());
    }
    struct copied_values {
        std::vector<std::remove_const_t<T>> values;
    };
    buffer(const copied_values& c, const property_list& props)
        : buffer(range<1>(c.values.size()), c.values.data(), nullptr, props) {}

    std::shared_ptr<detail::buffer_state> state_; // also held by graphs that use the buffer
    std::shared_ptr<detail::buffer_user> user_;   // held by the program's buffers alone: the last writes back
    range<Dimensions> range_;
    std::size_t byte_offset_ = 0;
    bool sub_buffer_ = false;
    property_list properties_;
    std::optional<AllocatorT> allocator_; // what get_allocator() returns, when one was given
};

template <typename T, int D> buffer(T*, const range<D>&, const property_list& = {}) -> buffer<T, D>;
template <typename T, int D> buffer(const T*, const range<D>&, const property_list& = {}) -> buffer<T, D>;
template <typename Container>
buffer(Container&, const property_list& = {}) -> buffer<std::remove_const_t<std::ranges::range_value_t<Container>>, 1>;
template <std::input_iterator It>
buffer(It, It, const property_list& = {}) -> buffer<typename std::iterator_traits<It>::value_type, 1>;
template <std::input_iterator It, detail::allocator_like A>
buffer(It, It, A, const property_list& = {}) -> buffer<typename std::iterator_traits<It>::value_type, 1, A>;
template <typename T, int D, detail::allocator_like A>
buffer(T*, const range<D>&, A, const property_list& = {}) -> buffer<T, D, A>;
template <typename T, int D, detail::allocator_like A>
buffer(const T*, const range<D>&, A, const property_list& = {}) -> buffer<T, D, A>;
template <typename Container, detail::allocator_like A>
buffer(Container&, A, const property_list& = {})
    -> buffer<std::remove_const_t<std::ranges::range_value_t<Container>>, 1, A>;

} // namespace _V1
} // namespace sycl

template <typename T, int D, typename A> struct std::hash<sycl::buffer<T, D, A>> {
    std::size_t operator()(const sycl::buffer<T, D, A>& b) const noexcept {
        return std::hash<const void*>()(b.state().get()) ^ std::hash<std::size_t>()(b.byte_offset());
    }
};

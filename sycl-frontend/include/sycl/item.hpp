// sycl::item, sycl::nd_range, sycl::nd_item, sycl::group, sycl::h_item and sycl::group_barrier
// (SYCL 2020 sections 4.9.1.2, 4.9.1.4-4.9.1.8, 4.17.3).
//
// A kernel's work-item sees the engine's encore::work_item through these views. item and h_item copy what they
// need; nd_item and group refer to the engine's work-item, which lives for the kernel call.
//
//     q.parallel_for(sycl::nd_range<1>{1024, 64}, [=](sycl::nd_item<1> it) {
//         tile[it.get_local_id(0)] = in[it.get_global_id(0)];
//         sycl::group_barrier(it.get_group());
//     });
#pragma once

#include <cstddef>
#include <span>

#include "exception.hpp"
#include "encore/graph/kernel.hpp"
#include "range.hpp"
#include "detail/host_device.hpp"
#if defined(ENCORE_DEVICE_SPIR)
#include "detail/spir_builtins.hpp"
#endif

namespace sycl {
inline namespace _V1 {

namespace detail {
// What the host kernel wrappers publish on the thread that runs a work-item: the work-group's local memory (every
// kernel; local_accessor reads it) and the work-item itself (free-function kernels: this_work_item::get_nd_item).
// The native backend runs a group's items as fibers of one thread, so a group barrier gives each item back its own
// when it resumes (group::wait_for_group).
inline thread_local std::span<std::byte* const> current_local_memory;
inline thread_local const encore::work_item* current_work_item = nullptr;

// An id or range value a kernel reads. Built by encore++ with -fsycl-id-queries-fit-in-int (its default, as
// DPC++'s), device code knows it is below 2^31, so nvcc may do the kernel's index arithmetic in 32 bits; the host
// refuses launches whose ids would not fit (check_ids_fit_in_int, sycl/detail/engine_range.hpp).
ENCORE_HOST_DEVICE inline std::size_t id_value(std::size_t v) {
#if defined(__CUDA_ARCH__) && defined(__SYCL_ID_QUERIES_FIT_IN_INT__)
    __builtin_assume(v <= 2147483647u);
#endif
    return v;
}
template <int D> ENCORE_HOST_DEVICE range<D> to_range(const std::array<std::size_t, 3>& a) {
    range<D> r;
    for (int d = 0; d < D; ++d) r[d] = id_value(a[d]);
    return r;
}
template <int D> ENCORE_HOST_DEVICE id<D> to_id(const std::array<std::size_t, 3>& a) {
    id<D> i;
    for (int d = 0; d < D; ++d) i[d] = id_value(a[d]);
    return i;
}
struct item_factory;
struct group_access;

// Runs `wait` (a barrier or exchange that parks this work-item's fiber on the native backend) and gives the item
// back its thread-local view afterwards: the group's other items ran meanwhile, on this thread.
template <typename Wait> decltype(auto) keeping_item_context(Wait&& wait) {
    const auto local = current_local_memory;
    const encore::work_item* running = current_work_item;
    struct restore {
        std::span<std::byte* const> local;
        const encore::work_item* running;
        ~restore() {
            current_local_memory = local;
            current_work_item = running;
        }
    } on_exit{local, running};
    return wait();
}
} // namespace detail

class sub_group;

template <int Dimensions = 1, bool WithOffset = true> class item {
public:
    static constexpr int dimensions = Dimensions;
    item() = delete;

    ENCORE_HOST_DEVICE id<Dimensions> get_id() const { return id_; }
    ENCORE_HOST_DEVICE std::size_t get_id(int dimension) const { return id_[dimension]; }
    ENCORE_HOST_DEVICE std::size_t operator[](int dimension) const { return id_[dimension]; }
    ENCORE_HOST_DEVICE range<Dimensions> get_range() const { return range_; }
    ENCORE_HOST_DEVICE std::size_t get_range(int dimension) const { return range_[dimension]; }
    ENCORE_HOST_DEVICE id<Dimensions> get_offset() const requires WithOffset { return offset_; }
    ENCORE_HOST_DEVICE std::size_t get_linear_id() const { return detail::linearize<Dimensions>(id_ - offset_, range_); }
    ENCORE_HOST_DEVICE operator item<Dimensions, true>() const requires(!WithOffset) { return {id_, range_, offset_}; }
    ENCORE_HOST_DEVICE operator std::size_t() const requires(Dimensions == 1) { return id_[0]; }

    friend bool operator==(const item& a, const item& b) {
        return a.id_ == b.id_ && a.range_ == b.range_ && a.offset_ == b.offset_;
    }

private:
    friend struct detail::item_factory;
    template <int, bool> friend class item;
    ENCORE_HOST_DEVICE item(id<Dimensions> i, range<Dimensions> r, id<Dimensions> o) : id_(i), range_(r), offset_(o) {}
    id<Dimensions> id_;
    range<Dimensions> range_;
    id<Dimensions> offset_;
};

template <int Dimensions = 1> class nd_range {
public:
    static constexpr int dimensions = Dimensions;
    ENCORE_HOST_DEVICE nd_range(range<Dimensions> global, range<Dimensions> local, id<Dimensions> offset = id<Dimensions>())
        : global_(global), local_(local), offset_(offset) {}

    ENCORE_HOST_DEVICE range<Dimensions> get_global_range() const { return global_; }
    ENCORE_HOST_DEVICE range<Dimensions> get_local_range() const { return local_; }
    ENCORE_HOST_DEVICE range<Dimensions> get_group_range() const { return global_ / local_; }
    ENCORE_HOST_DEVICE id<Dimensions> get_offset() const { return offset_; }
    friend bool operator==(const nd_range& a, const nd_range& b) {
        return a.global_ == b.global_ && a.local_ == b.local_ && a.offset_ == b.offset_;
    }

private:
    range<Dimensions> global_, local_;
    id<Dimensions> offset_;
};

enum class memory_scope { work_item, sub_group, work_group, device, system };
namespace access {
enum class fence_space { local_space, global_space, global_and_local };
}

template <int Dimensions = 1> class nd_item;

template <int Dimensions = 1> class group {
public:
    static constexpr int dimensions = Dimensions;
    static constexpr memory_scope fence_scope = memory_scope::work_group;
    using id_type = id<Dimensions>;
    using range_type = range<Dimensions>;
    using linear_id_type = std::size_t;
    group() = delete;

    ENCORE_HOST_DEVICE id<Dimensions> get_group_id() const { return detail::to_id<Dimensions>(item_->group_id); }
    ENCORE_HOST_DEVICE std::size_t get_group_id(int d) const { return detail::id_value(item_->group_id[d]); }
    ENCORE_HOST_DEVICE std::size_t operator[](int d) const { return detail::id_value(item_->group_id[d]); }
    ENCORE_HOST_DEVICE id<Dimensions> get_local_id() const { return detail::to_id<Dimensions>(item_->local_id); }
    ENCORE_HOST_DEVICE std::size_t get_local_id(int d) const { return detail::id_value(item_->local_id[d]); }
    ENCORE_HOST_DEVICE range<Dimensions> get_local_range() const { return detail::to_range<Dimensions>(item_->local_range); }
    ENCORE_HOST_DEVICE std::size_t get_local_range(int d) const { return detail::id_value(item_->local_range[d]); }
    ENCORE_HOST_DEVICE range<Dimensions> get_max_local_range() const { return get_local_range(); }
    ENCORE_HOST_DEVICE range<Dimensions> get_group_range() const { return detail::to_range<Dimensions>(item_->group_range); }
    ENCORE_HOST_DEVICE std::size_t get_group_range(int d) const { return detail::id_value(item_->group_range[d]); }
    ENCORE_HOST_DEVICE std::size_t get_group_linear_id() const {
        return detail::linearize<Dimensions>(get_group_id(), get_group_range());
    }
    ENCORE_HOST_DEVICE std::size_t get_local_linear_id() const {
        return detail::linearize<Dimensions>(get_local_id(), get_local_range());
    }
    ENCORE_HOST_DEVICE std::size_t get_group_linear_range() const { return get_group_range().size(); }
    ENCORE_HOST_DEVICE std::size_t get_local_linear_range() const { return get_local_range().size(); }
    ENCORE_HOST_DEVICE bool leader() const { return get_local_linear_id() == 0; }

    // Waits until every work-item of this group has arrived (used by sycl::group_barrier): on the host, the
    // backend's barrier; on a CUDA device, the block's (with a fence over global and shared memory); in SPIR-V,
    // OpenCL's work-group barrier over global and local memory.
    ENCORE_HOST_DEVICE void wait_for_group() const {
#if defined(__CUDA_ARCH__)
        __syncthreads();
#elif defined(ENCORE_DEVICE_SPIR)
        detail::spir::group_barrier();
#else
        detail::keeping_item_context([&] { item_->barrier(item_->group_state); });
#endif
    }

    // Hierarchical kernels (handler::parallel_for_work_group): runs `f` once for each work-item of the group, or
    // of `logical_range`, with a barrier before and after. On the native backend one item per group runs the work-
    // group scope and this loops over the items; on CUDA and in SPIR-V every work-item runs the work-group scope, and
    // here each
    // takes its own items (logical linear ids: its own, plus the group's size, ...).
    template <typename F> ENCORE_HOST_DEVICE void parallel_for_work_item(F f) const {
        parallel_for_work_item(get_local_range(), f);
    }
    template <typename F> ENCORE_HOST_DEVICE void parallel_for_work_item(range<Dimensions> logical_range, F f) const;

private:
    friend struct detail::item_factory;
    friend struct detail::group_access;
    template <int> friend class nd_item;
    ENCORE_HOST_DEVICE explicit group(const encore::work_item& item) : item_(&item) {}
    const encore::work_item* item_;
};

template <int Dimensions>
ENCORE_HOST_DEVICE void group_barrier(const group<Dimensions>& g, memory_scope = memory_scope::work_group) {
    g.wait_for_group();
}

template <int Dimensions> class nd_item {
public:
    static constexpr int dimensions = Dimensions;
    nd_item() = delete;

    ENCORE_HOST_DEVICE id<Dimensions> get_global_id() const { return detail::to_id<Dimensions>(item_->global_id); }
    ENCORE_HOST_DEVICE std::size_t get_global_id(int d) const { return detail::id_value(item_->global_id[d]); }
    ENCORE_HOST_DEVICE std::size_t get_global_linear_id() const {
        return detail::linearize<Dimensions>(get_global_id() - get_offset(), get_global_range());
    }
    ENCORE_HOST_DEVICE id<Dimensions> get_local_id() const { return detail::to_id<Dimensions>(item_->local_id); }
    ENCORE_HOST_DEVICE std::size_t get_local_id(int d) const { return detail::id_value(item_->local_id[d]); }
    ENCORE_HOST_DEVICE std::size_t get_local_linear_id() const { return get_group().get_local_linear_id(); }
    ENCORE_HOST_DEVICE group<Dimensions> get_group() const { return group<Dimensions>(*item_); }
    ENCORE_HOST_DEVICE std::size_t get_group(int d) const { return detail::id_value(item_->group_id[d]); }
    ENCORE_HOST_DEVICE std::size_t get_group_linear_id() const { return get_group().get_group_linear_id(); }
    ENCORE_HOST_DEVICE range<Dimensions> get_group_range() const { return detail::to_range<Dimensions>(item_->group_range); }
    ENCORE_HOST_DEVICE std::size_t get_group_range(int d) const { return detail::id_value(item_->group_range[d]); }
    ENCORE_HOST_DEVICE range<Dimensions> get_global_range() const { return detail::to_range<Dimensions>(item_->global_range); }
    ENCORE_HOST_DEVICE std::size_t get_global_range(int d) const { return detail::id_value(item_->global_range[d]); }
    ENCORE_HOST_DEVICE range<Dimensions> get_local_range() const { return detail::to_range<Dimensions>(item_->local_range); }
    ENCORE_HOST_DEVICE std::size_t get_local_range(int d) const { return detail::id_value(item_->local_range[d]); }
    ENCORE_HOST_DEVICE id<Dimensions> get_offset() const { return detail::to_id<Dimensions>(item_->offset); }
    ENCORE_HOST_DEVICE nd_range<Dimensions> get_nd_range() const { return {get_global_range(), get_local_range(), get_offset()}; }
    // The work-item's sub-group (defined in sycl/sub_group.hpp).
    ENCORE_HOST_DEVICE sub_group get_sub_group() const;
    // SYCL 1.2.1's barrier, kept by SYCL 2020 as deprecated: the same as group_barrier(get_group()).
    ENCORE_HOST_DEVICE void barrier(access::fence_space = access::fence_space::global_and_local) const {
        get_group().wait_for_group();
    }

private:
    friend struct detail::item_factory;
    ENCORE_HOST_DEVICE explicit nd_item(const encore::work_item& item) : item_(&item) {}
    const encore::work_item* item_;
};

// The work-item of a hierarchical launch (handler::parallel_for_work_group), inside
// group::parallel_for_work_item: its global id, its logical local id (in the range parallel_for_work_item was
// given, the work-group's local range by default) and its physical local id (the work-item of the launch that runs
// it). The global id is the group's id times the physical local range plus the physical local id.
template <int Dimensions = 1> class h_item {
public:
    static constexpr int dimensions = Dimensions;
    h_item() = delete;
    ENCORE_HOST_DEVICE item<Dimensions, false> get_global() const { return global_; }
    ENCORE_HOST_DEVICE item<Dimensions, false> get_local() const { return logical_; }
    ENCORE_HOST_DEVICE item<Dimensions, false> get_logical_local() const { return logical_; }
    ENCORE_HOST_DEVICE item<Dimensions, false> get_physical_local() const { return physical_; }
    ENCORE_HOST_DEVICE range<Dimensions> get_global_range() const { return global_.get_range(); }
    ENCORE_HOST_DEVICE std::size_t get_global_range(int d) const { return global_.get_range(d); }
    ENCORE_HOST_DEVICE id<Dimensions> get_global_id() const { return global_.get_id(); }
    ENCORE_HOST_DEVICE std::size_t get_global_id(int d) const { return global_.get_id(d); }
    ENCORE_HOST_DEVICE range<Dimensions> get_local_range() const { return logical_.get_range(); }
    ENCORE_HOST_DEVICE std::size_t get_local_range(int d) const { return logical_.get_range(d); }
    ENCORE_HOST_DEVICE id<Dimensions> get_local_id() const { return logical_.get_id(); }
    ENCORE_HOST_DEVICE std::size_t get_local_id(int d) const { return logical_.get_id(d); }
    ENCORE_HOST_DEVICE range<Dimensions> get_logical_local_range() const { return logical_.get_range(); }
    ENCORE_HOST_DEVICE std::size_t get_logical_local_range(int d) const { return logical_.get_range(d); }
    ENCORE_HOST_DEVICE id<Dimensions> get_logical_local_id() const { return logical_.get_id(); }
    ENCORE_HOST_DEVICE std::size_t get_logical_local_id(int d) const { return logical_.get_id(d); }
    ENCORE_HOST_DEVICE range<Dimensions> get_physical_local_range() const { return physical_.get_range(); }
    ENCORE_HOST_DEVICE std::size_t get_physical_local_range(int d) const { return physical_.get_range(d); }
    ENCORE_HOST_DEVICE id<Dimensions> get_physical_local_id() const { return physical_.get_id(); }
    ENCORE_HOST_DEVICE std::size_t get_physical_local_id(int d) const { return physical_.get_id(d); }

private:
    friend struct detail::item_factory;
    ENCORE_HOST_DEVICE h_item(item<Dimensions, false> global, item<Dimensions, false> logical,
                              item<Dimensions, false> physical)
        : global_(global), logical_(logical), physical_(physical) {}
    item<Dimensions, false> global_, logical_, physical_;
};

namespace detail {
// Builds the views from the engine's work-item; the only way to make them (their constructors are private).
struct item_factory {
    template <int D, bool WithOffset> ENCORE_HOST_DEVICE static item<D, WithOffset> make_item(const encore::work_item& it) {
        return item<D, WithOffset>(to_id<D>(it.global_id), to_range<D>(it.global_range),
                                   WithOffset ? to_id<D>(it.offset) : id<D>());
    }
    template <int D> ENCORE_HOST_DEVICE static nd_item<D> make_nd_item(const encore::work_item& it) { return nd_item<D>(it); }
    template <int D> ENCORE_HOST_DEVICE static group<D> make_group(const encore::work_item& it) { return group<D>(it); }
    template <typename SubGroup = sub_group> ENCORE_HOST_DEVICE static SubGroup make_sub_group(const encore::work_item& it) {
        return SubGroup(it);
    }
    // The h_item of logical local id `logical` in `logical_range`, run by the launch's item at `physical` of the
    // group `g`.
    template <int D>
    ENCORE_HOST_DEVICE static h_item<D> make_h_item(const group<D>& g, id<D> logical, range<D> logical_range,
                                                    id<D> physical) {
        const range<D> local = g.get_local_range();
        id<D> global;
        for (int d = 0; d < D; ++d)
            global[d] = g.get_group_id(d) * local[d] + physical[d];
        return h_item<D>(item<D, false>(global, local * g.get_group_range(), id<D>()),
                         item<D, false>(logical, logical_range, id<D>()), item<D, false>(physical, local, id<D>()));
    }
};
} // namespace detail

template <int Dimensions>
template <typename F>
ENCORE_HOST_DEVICE void group<Dimensions>::parallel_for_work_item(range<Dimensions> logical_range, F f) const {
    const range<Dimensions> local = get_local_range();
    const std::size_t physical_count = local.size(), count = logical_range.size();
#if defined(ENCORE_DEVICE_CODE)
    wait_for_group();
    const std::size_t me = get_local_linear_id();
    for (std::size_t l = me; l < count; l += physical_count)
        f(detail::item_factory::make_h_item<Dimensions>(*this, detail::delinearize<Dimensions>(l, logical_range),
                                                        logical_range, get_local_id()));
    wait_for_group();
#else
    for (std::size_t l = 0; l < count; ++l)
        f(detail::item_factory::make_h_item<Dimensions>(
            *this, detail::delinearize<Dimensions>(l, logical_range), logical_range,
            detail::delinearize<Dimensions>(l % physical_count, local)));
#endif
}

} // namespace _V1
} // namespace sycl

#include "sub_group.hpp" // nd_item::get_sub_group's definition

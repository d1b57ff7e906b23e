// Reductions (SYCL 2020 section 4.9.2): parallel_for(range or nd_range, sycl::reduction(...)..., kernel), where the
// kernel receives one reducer per reduction and combines values into it.
//
// How Encore computes them: each work-item's reducer starts empty and combines locally; when the item returns,
// its value is folded into one of a few lock-protected partials (chosen by thread, so threads rarely meet); the
// work-item that finishes last folds the partials into the result (with the result's previous value, unless
// property::reduction::initialize_to_identity is given) and resets the partials, so a recorded graph can replay
// the kernel. Cost: one uncontended lock per work-item and reduction.
//
//     int* sum = sycl::malloc_shared<int>(1, q);
//     *sum = 0;
//     q.parallel_for(n, sycl::reduction(sum, sycl::plus<int>()), [=](sycl::id<1> i, auto& s) { s += data[i]; });
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>
#include <vector>

#include "accessor.hpp"
#include "detail/kernel_wrapper.hpp"
#include "functional.hpp"

namespace sycl {
inline namespace _V1 {

namespace property::reduction {
struct initialize_to_identity {};
} // namespace property::reduction
template <> struct is_property<property::reduction::initialize_to_identity> : std::true_type {};

namespace detail {

template <typename T, typename Op> class reduction_state {
public:
    reduction_state(T* result, std::optional<T> identity, Op op, bool initialize)
        : result_(result), identity_(std::move(identity)), op_(op), initialize_(initialize), slots_(slot_count()) {}

    // After a work-item: folds its value in; the last item of the launch writes the result.
    // `items` is the launch's work-item count, read at each launch: a graph node's range may have been updated.
    void fold(const std::optional<T>& value, std::size_t items) {
        if (value) {
            slot& s = slots_[std::hash<std::thread::id>()(std::this_thread::get_id()) % slots_.size()];
            while (s.busy.test_and_set(std::memory_order_acquire)) s.busy.wait(true, std::memory_order_relaxed);
            s.value = s.value ? op_(*s.value, *value) : *value;
            s.busy.clear(std::memory_order_release);
            s.busy.notify_one();
        }
        if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == items) finish();
    }

private:
    struct alignas(64) slot {
        std::atomic_flag busy;
        std::optional<T> value;
    };
    static std::size_t slot_count() { return 2 * std::max(1u, std::thread::hardware_concurrency()); }

    void finish() {
        std::optional<T> total;
        if (!initialize_) total = *result_;
        else if (identity_) total = identity_;
        for (auto& s : slots_) {
            if (s.value) total = total ? op_(*total, *s.value) : *s.value;
            s.value.reset();
        }
        if (total) *result_ = *total;
        done_.store(0, std::memory_order_relaxed); // the next launch of a recorded graph starts afresh
    }

    T* result_;
    std::optional<T> identity_;
    Op op_;
    bool initialize_;
    std::atomic<std::size_t> done_{0};
    std::vector<slot> slots_;
};

// What sycl::reduction returns: the result's place, the operation, and what the handler must know.
template <typename T, typename Op> struct reduction_descriptor {
    using value_type = T;
    using operation = Op;
    T* result;
    std::optional<T> identity;
    Op op;
    bool initialize;
};

// Whether the GPU folds the groups' values with one atomic operation per group into the accumulator: additions,
// bitwise ors and xors of the types the hardware does atomically (whose identity is all zero bytes).
template <typename T, typename Op> constexpr bool folds_atomically() {
    constexpr bool word = std::is_integral_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
    if constexpr (op_is<Op, T, plus>)
        return word || std::is_same_v<T, float> || std::is_same_v<T, double>;
    else if constexpr (op_is<Op, T, bit_or> || op_is<Op, T, bit_xor>)
        return word;
    else
        return false;
}

// What a GPU launch of a kernel with reductions carries for each (trivially copyable; the same bytes on both
// sides): where the result goes, the identity, the operation, and whether the result's value takes part.
template <typename T, typename Op> struct device_reduction {
    using value_type = T;
    using operation = Op;
    static constexpr bool atomic = folds_atomically<T, Op>();
    T* result;
    T identity;
    Op op;
    bool has_identity;
    bool initialize;
};
template <typename T, typename Op> device_reduction<T, Op> to_device(const reduction_descriptor<T, Op>& d) {
    return {d.result, d.identity ? *d.identity : T{}, d.op, d.identity.has_value(), d.initialize};
}

// The kernel object and its reductions, as the outlined entry takes them (a list laid out the same way by every
// compiler, unlike std::tuple).
template <typename... R> struct reduction_list {};
template <typename H, typename... R> struct reduction_list<H, R...> {
    H head;
    reduction_list<R...> tail;
};
template <typename K, typename... R> struct reduction_call {
    // Every reduction folds atomically (folds_atomically): the groups add their values straight into the results,
    // whose identity is all zero bytes (the launch zeroes those that start from it): no scratch, no finishing launch.
    static constexpr bool direct = (R::atomic && ...);
    K k;
    reduction_list<R...> reductions;
};
inline reduction_list<> make_reduction_list() { return {}; }
template <typename H, typename... R> reduction_list<H, R...> make_reduction_list(const H& h, const R&... r) {
    return {h, make_reduction_list(r...)};
}

// The scratch memory of a GPU launch with R reductions (gpu::device_code::scratch_bytes): R reduction_counters,
// zero between launches; then, for each reduction that does not fold atomically, one slot per work-group of the
// grid, where the group leaves its value for the finishing launch (device_reduction.hpp).
struct reduction_counters {
    std::uint64_t accumulator; // the atomic fold's running value (zero bytes: the operation's identity)
};
template <typename T> struct reduction_slot {
    std::uint32_t has_value;
    std::uint32_t words[(sizeof(T) + 3) / 4];
};
template <typename T, typename Op> constexpr std::size_t slot_bytes_per_group() {
    return folds_atomically<T, Op>() ? 0 : sizeof(reduction_slot<T>);
}

} // namespace detail

// What the kernel combines values into. Plain data, so that it is the same on the host and in CUDA device code.
template <typename T, typename Op> class reducer {
public:
    explicit reducer(const detail::reduction_descriptor<T, Op>& d)
        : identity_(d.identity ? *d.identity : T{}), has_identity_(d.identity.has_value()), op_(d.op) {}
    // In a GPU launch: from what the launch carries (detail/device_reduction.hpp).
    ENCORE_HOST_DEVICE explicit reducer(const detail::device_reduction<T, Op>& d)
        : identity_(d.identity), has_identity_(d.has_identity), op_(d.op) {}
    reducer(const reducer&) = delete;
    reducer& operator=(const reducer&) = delete;

    ENCORE_HOST_DEVICE reducer& combine(const T& v) {
        value_ = has_value_ ? op_(value_, v) : v;
        has_value_ = true;
        return *this;
    }
    // The identity given to sycl::reduction, or the operation's known one.
    ENCORE_HOST_DEVICE T identity() const {
        if (has_identity_) return identity_;
#if defined(__CUDA_ARCH__)
        __trap(); // the host throws; a device cannot
        return identity_;
#else
        throw exception(errc::invalid, "reducer::identity: the reduction was made without an identity and its "
                                       "operation has no known identity");
#endif
    }

    ENCORE_HOST_DEVICE reducer& operator+=(const T& v)
        requires(detail::op_is<Op, T, plus>)
    {
        return combine(v);
    }
    ENCORE_HOST_DEVICE reducer& operator*=(const T& v)
        requires(detail::op_is<Op, T, multiplies>)
    {
        return combine(v);
    }
    ENCORE_HOST_DEVICE reducer& operator&=(const T& v)
        requires(detail::op_is<Op, T, bit_and>)
    {
        return combine(v);
    }
    ENCORE_HOST_DEVICE reducer& operator|=(const T& v)
        requires(detail::op_is<Op, T, bit_or>)
    {
        return combine(v);
    }
    ENCORE_HOST_DEVICE reducer& operator^=(const T& v)
        requires(detail::op_is<Op, T, bit_xor>)
    {
        return combine(v);
    }
    ENCORE_HOST_DEVICE reducer& operator++()
        requires(detail::op_is<Op, T, plus> && std::is_integral_v<T>)
    {
        return combine(T{1});
    }
    ENCORE_HOST_DEVICE void operator++(int)
        requires(detail::op_is<Op, T, plus> && std::is_integral_v<T>)
    {
        combine(T{1});
    }

    // Encore: what this work-item combined (nothing yet: empty).
    std::optional<T> partial() const { return has_value_ ? std::optional<T>(value_) : std::nullopt; }
    ENCORE_HOST_DEVICE bool ext_encore_has_value() const noexcept { return has_value_; }
    ENCORE_HOST_DEVICE const T& ext_encore_value() const noexcept { return value_; }

private:
    T value_{};
    bool has_value_ = false;
    T identity_;
    bool has_identity_;
    Op op_;
};

namespace detail {
template <typename Op, typename T> std::optional<T> identity_of() {
    if constexpr (has_known_identity_v<Op, T>)
        return known_identity_v<Op, T>;
    else
        return std::nullopt;
}
template <typename T, typename Op>
reduction_descriptor<T, Op> make_reduction(T* result, std::optional<T> identity, Op op, const property_list& p) {
    if (!result) throw exception(errc::invalid, "sycl::reduction: the result pointer is null");
    return {result, std::move(identity), op,
            p.has_property<property::reduction::initialize_to_identity>()};
}
} // namespace detail

template <typename T, typename Op>
detail::reduction_descriptor<T, Op> reduction(T* result, Op combiner, const property_list& p = {}) {
    return detail::make_reduction(result, detail::identity_of<Op, T>(), combiner, p);
}
template <typename T, typename Op>
detail::reduction_descriptor<T, Op> reduction(T* result, const T& identity, Op combiner, const property_list& p = {}) {
    return detail::make_reduction(result, std::optional<T>(identity), combiner, p);
}
// Into element 0 of a buffer; the command group reads and writes it.
template <typename T, typename A, typename Op>
detail::reduction_descriptor<T, Op> reduction(buffer<T, 1, A> result, handler& h, Op combiner,
                                              const property_list& p = {}) {
    detail::handler_access::require(h, *result.state(), access_mode::read_write);
    return detail::make_reduction(result.storage(), detail::identity_of<Op, T>(), combiner, p);
}
template <typename T, typename A, typename Op>
detail::reduction_descriptor<T, Op> reduction(buffer<T, 1, A> result, handler& h, const T& identity, Op combiner,
                                              const property_list& p = {}) {
    detail::handler_access::require(h, *result.state(), access_mode::read_write);
    return detail::make_reduction(result.storage(), std::optional<T>(identity), combiner, p);
}

namespace detail {
template <typename> struct is_reduction : std::false_type {};
template <typename T, typename Op> struct is_reduction<reduction_descriptor<T, Op>> : std::true_type {};

// A kernel with reductions: each work-item gets fresh reducers, folded into the shared states afterwards. In a
// program built by encore++ for a GPU, its outlined entry runs it on CUDA devices with the reductions folded on
// the device (detail/device_reduction.hpp).
template <launch Launch, int D, typename K, typename... Descriptors> class reduction_kernel final : public encore::kernel {
public:
    static constexpr bool takes_handler =
        takes_kernel_handler<Launch, D, K, reducer<typename Descriptors::value_type, typename Descriptors::operation>...>;

    // `values`: the command group's specialization constants, for a kernel that takes a kernel_handler.
    reduction_kernel(encore::kernel::lasting_name name, K k, const specialization_values* values,
                     const Descriptors&... ds)
        : encore::kernel(name),
          call_{make_kernel_object<takes_handler>(std::move(k), values), make_reduction_list(to_device(ds)...)},
          states_(std::make_shared<reduction_state<typename Descriptors::value_type, typename Descriptors::operation>>(
              ds.result, ds.identity, ds.op, ds.initialize)...),
          descriptors_(ds...) {
        if (const outlined_entry& e = find_outlined_entry<K, outlined_target::cuda>(); e.entry) {
            // The entry's first parameter: the kernel object and the reductions.
            cuda_ = outlined_code(e, D, &call_, sizeof(call_));
            if constexpr (call_type::direct) {
                // The groups add into the results: those that start from their identity are zeroed first.
                cuda_.scratch_parameter = true;
                (add_zero_first(ds), ...);
                cuda_.zero_first = zero_first_.data();
                cuda_.zero_first_count = zero_first_count_;
            } else {
                finish_entry_ = std::string(e.entry) + "_finish"; // the finishing launch (device_reduction.hpp)
                cuda_.finish_entry = finish_entry_.c_str();
                cuda_.scratch_bytes = sizeof(reduction_counters) * sizeof...(Descriptors);
                cuda_.scratch_bytes_per_block =
                    (slot_bytes_per_group<typename Descriptors::value_type, typename Descriptors::operation>() + ...);
            }
        }
    }

    void run(const encore::work_item& w, std::span<const encore::kernel_argument>) const override {
        current_local_memory = w.local_memory;
        run_with(w, std::index_sequence_for<Descriptors...>());
    }
    const void* device_code(std::string_view backend) const noexcept override {
        return backend == "cuda" && cuda_.entry ? &cuda_ : nullptr;
    }

private:
    template <std::size_t... I> void run_with(const encore::work_item& w, std::index_sequence<I...>) const {
        std::tuple<reducer<typename Descriptors::value_type, typename Descriptors::operation>...> reducers(
            std::get<I>(descriptors_)...);
        if constexpr (takes_handler) {
            kernel_handler h = call_.k.handler();
            call_kernel<Launch, D>(call_.k.k, w, std::get<I>(reducers)..., h);
        } else {
            call_kernel<Launch, D>(call_.k, w, std::get<I>(reducers)...);
        }
        const std::size_t items = w.global_range[0] * w.global_range[1] * w.global_range[2];
        (std::get<I>(states_)->fold(std::get<I>(reducers).partial(), items), ...);
    }

    using call_type = reduction_call<kernel_object<takes_handler, K>, device_reduction<typename Descriptors::value_type, typename Descriptors::operation>...>;
    template <typename Descriptor> void add_zero_first(const Descriptor& d) {
        if (d.initialize) zero_first_[zero_first_count_++] = {d.result, sizeof(*d.result)};
    }

    call_type call_;
    std::tuple<std::shared_ptr<reduction_state<typename Descriptors::value_type, typename Descriptors::operation>>...>
        states_;
    std::tuple<Descriptors...> descriptors_;
    std::string finish_entry_;
    std::array<encore::gpu::device_code::zero_range, sizeof...(Descriptors)> zero_first_{};
    std::size_t zero_first_count_ = 0;
    encore::gpu::device_code cuda_;
};
} // namespace detail

} // namespace _V1
} // namespace sycl

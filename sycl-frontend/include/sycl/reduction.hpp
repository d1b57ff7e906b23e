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

} // namespace detail

// What the kernel combines values into.
template <typename T, typename Op> class reducer {
public:
    explicit reducer(const detail::reduction_descriptor<T, Op>& d) : identity_(d.identity), op_(d.op) {}
    reducer(const reducer&) = delete;
    reducer& operator=(const reducer&) = delete;

    reducer& combine(const T& v) {
        value_ = value_ ? op_(*value_, v) : v;
        return *this;
    }
    // The identity given to sycl::reduction, or the operation's known one.
    T identity() const {
        if (identity_) return *identity_;
        throw exception(errc::invalid, "reducer::identity: the reduction was made without an identity and its "
                                       "operation has no known identity");
    }

    reducer& operator+=(const T& v)
        requires(detail::op_is<Op, T, plus>)
    {
        return combine(v);
    }
    reducer& operator*=(const T& v)
        requires(detail::op_is<Op, T, multiplies>)
    {
        return combine(v);
    }
    reducer& operator&=(const T& v)
        requires(detail::op_is<Op, T, bit_and>)
    {
        return combine(v);
    }
    reducer& operator|=(const T& v)
        requires(detail::op_is<Op, T, bit_or>)
    {
        return combine(v);
    }
    reducer& operator^=(const T& v)
        requires(detail::op_is<Op, T, bit_xor>)
    {
        return combine(v);
    }
    reducer& operator++()
        requires(detail::op_is<Op, T, plus> && std::is_integral_v<T>)
    {
        return combine(T{1});
    }
    void operator++(int)
        requires(detail::op_is<Op, T, plus> && std::is_integral_v<T>)
    {
        combine(T{1});
    }

    // Encore: what this work-item combined (nothing yet: empty).
    const std::optional<T>& partial() const noexcept { return value_; }

private:
    std::optional<T> value_;
    std::optional<T> identity_;
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

// A kernel with reductions: each work-item gets fresh reducers, folded into the shared states afterwards.
template <launch Launch, int D, typename K, typename... Descriptors> class reduction_kernel final : public encore::kernel {
public:
    reduction_kernel(std::string name, K k, const Descriptors&... ds)
        : encore::kernel(std::move(name)), k_(std::move(k)),
          states_(std::make_shared<reduction_state<typename Descriptors::value_type, typename Descriptors::operation>>(
              ds.result, ds.identity, ds.op, ds.initialize)...),
          descriptors_(ds...) {}

    void run(const encore::work_item& w, std::span<const encore::kernel_argument>) const override {
        current_local_memory = w.local_memory;
        run_with(w, std::index_sequence_for<Descriptors...>());
    }

private:
    template <std::size_t... I> void run_with(const encore::work_item& w, std::index_sequence<I...>) const {
        std::tuple<reducer<typename Descriptors::value_type, typename Descriptors::operation>...> reducers(
            std::get<I>(descriptors_)...);
        call_kernel<Launch, D>(k_, w, std::get<I>(reducers)...);
        const std::size_t items = w.global_range[0] * w.global_range[1] * w.global_range[2];
        (std::get<I>(states_)->fold(std::get<I>(reducers).partial(), items), ...);
    }

    K k_;
    std::tuple<std::shared_ptr<reduction_state<typename Descriptors::value_type, typename Descriptors::operation>>...>
        states_;
    std::tuple<Descriptors...> descriptors_;
};
} // namespace detail

} // namespace _V1
} // namespace sycl

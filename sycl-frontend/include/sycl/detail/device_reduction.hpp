// sycl::detail::run_reduction_kernel and finish_reductions — a kernel with reductions on a CUDA device, in two
// launches: encore-outliner writes two __global__ entries for such a kernel, which call these (docs/compiler.md).
// Not for you; only for nvcc translation units.
//
// The kernel's launch: each work-item combines into its own reducers (sycl::reducer, as on the host); then, per
// reduction, the block folds its items' values (warp shuffles, then one value per warp through shared memory) and
// thread 0 folds the block's value into the launch's scratch with one atomic operation where the hardware has it
// (sums, bitwise or and xor: folds_atomically), or else leaves it in the block's slot. The finishing launch (one
// block, after it on the same stream or graph edge) folds the slots, writes the result (with its previous value
// unless property::reduction::initialize_to_identity was given) and zeroes the accumulators again, as the
// scratch's contract asks (gpu::device_code::scratch_bytes; the layout is in sycl/reduction.hpp). No block waits
// for another and none counts itself done: each retires as soon as its value is in. When every reduction of the
// kernel folds atomically (reduction_call::direct), the blocks add straight into the results, which the launch
// zeroes first where they start from their identity: then there is neither scratch nor a finishing launch. Values are folded in no fixed
// order: as SYCL allows, the operation is taken to be associative and commutative.
#pragma once

#if !defined(__CUDACC__)
#error "sycl/detail/device_reduction.hpp must be compiled by nvcc"
#endif

#include <cstdint>
#include <cstring>
#include <tuple>
#include <utility>

#include "encore/backends/cuda/device_work_item.hpp"
#include "sycl/reduction.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {
namespace device {

// The thread's index in its block and the block's size. A kernel of D dimensions (1 to 3) runs on blocks of D
// dimensions (gpu_kernel_launch.cpp), the others being 1; 0: not known (the finishing launch).
template <int D = 0> __device__ unsigned thread_in_block() {
    if constexpr (D == 1) return threadIdx.x;
    else if constexpr (D == 2) return threadIdx.x + blockDim.x * threadIdx.y;
    else return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
template <int D = 0> __device__ unsigned threads_in_block() {
    if constexpr (D == 1) return blockDim.x;
    else if constexpr (D == 2) return blockDim.x * blockDim.y;
    else return blockDim.x * blockDim.y * blockDim.z;
}

template <typename T> __device__ T shuffle_down(const T& v, unsigned delta, unsigned mask) {
    constexpr unsigned words = (sizeof(T) + 3) / 4;
    unsigned w[words] = {};
    std::memcpy(w, &v, sizeof(T));
    for (unsigned i = 0; i < words; ++i)
        w[i] = __shfl_down_sync(mask, w[i], delta);
    T result;
    std::memcpy(&result, w, sizeof(T));
    return result;
}

// Folds the values of the `lanes` first lanes of this warp into lane 0 (`has`: the lane holds a value).
template <typename T, typename Op>
__device__ void warp_fold(bool& has, T& value, const Op& op, unsigned lanes) {
    const unsigned lane = thread_in_block() % 32;
    const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
    for (unsigned delta = 16; delta > 0; delta /= 2) {
        const T other = shuffle_down(value, delta, mask);
        const bool other_has = __shfl_down_sync(mask, has ? 1 : 0, delta) != 0;
        if (lane + delta < lanes && other_has) {
            value = has ? op(value, other) : other;
            has = true;
        }
    }
}

// Folds every thread's value into thread 0's. Every thread of the block calls it.
template <typename T, typename Op> __device__ void block_fold(bool& has, T& value, const Op& op) {
    __shared__ __align__(16) unsigned char per_warp[32 * sizeof(T)];
    __shared__ unsigned per_warp_has[32];
    const unsigned thread = thread_in_block(), threads = threads_in_block();
    const unsigned warp = thread / 32, lane = thread % 32, warps = (threads + 31) / 32;
    warp_fold(has, value, op, threads - warp * 32 < 32 ? threads - warp * 32 : 32);
    if (lane == 0) {
        per_warp_has[warp] = has ? 1u : 0u;
        if (has) std::memcpy(per_warp + warp * sizeof(T), &value, sizeof(T));
    }
    __syncthreads();
    if (warp == 0) {
        has = lane < warps && per_warp_has[lane] != 0;
        if (has) std::memcpy(&value, per_warp + lane * sizeof(T), sizeof(T));
        warp_fold(has, value, op, threads < 32 ? threads : 32);
    }
    __syncthreads(); // per_warp is free again for the next reduction
}

// The same folds when the reduction has an identity (every SYCL operation's known one, or one given to
// sycl::reduction): a work-item with no value holds the identity, so the folds carry no flags (half the shuffles
// and a third of the instructions: with flags, a 2^24-int sum was bound by instruction issue on the H200).
template <typename T, typename Op> __device__ T warp_fold(T value, const Op& op, unsigned lane, unsigned lanes) {
    const unsigned mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
    for (unsigned delta = 16; delta > 0; delta /= 2) {
        const T other = shuffle_down(value, delta, mask);
        if (lane + delta < lanes) value = op(value, other);
    }
    return value;
}
// A whole warp's values into lane 0, with no bounds to check: a lane whose source lies past the warp reads its own
// value back, and lane 0's fold never takes in such a lane's.
template <typename T, typename Op> __device__ T full_warp_fold(T value, const Op& op) {
    for (unsigned delta = 16; delta > 0; delta /= 2)
        value = op(value, shuffle_down(value, delta, 0xffffffffu));
    return value;
}
// Every thread's value into thread 0's, on blocks of D dimensions (see thread_in_block). `Last`: the launch's last
// fold, after which nothing reuses per_warp (no barrier to free it).
template <int D, bool Last, typename T, typename Op>
__device__ T block_fold(T value, const T& identity, const Op& op) {
    __shared__ __align__(16) unsigned char per_warp[32 * sizeof(T)];
    const unsigned thread = thread_in_block<D>(), threads = threads_in_block<D>();
    const unsigned warp = thread / 32, lane = thread % 32;
    // Both branches are the same for the whole block.
    if (threads % 32 == 0)
        value = full_warp_fold(value, op);
    else
        value = warp_fold(value, op, lane, threads - warp * 32 < 32 ? threads - warp * 32 : 32);
    if (threads <= 32) return value;
    if (lane == 0) std::memcpy(per_warp + warp * sizeof(T), &value, sizeof(T));
    __syncthreads();
    if (warp == 0) {
        // More than 32 threads: warp 0 is whole; lanes past the block's warps hold the identity.
        value = identity;
        if (lane < (threads + 31) / 32) std::memcpy(&value, per_warp + lane * sizeof(T), sizeof(T));
        value = full_warp_fold(value, op);
    }
    if constexpr (!Last) __syncthreads(); // per_warp is free again for the next reduction
    return value;
}

// Slots are written through to L2 (st.cg): the finishing launch reads them.
template <typename T> __device__ void store_slot(reduction_slot<T>& s, bool has, const T& v) {
    unsigned w[sizeof(s.words) / 4] = {};
    if (has) std::memcpy(w, &v, sizeof(T));
    for (unsigned i = 0; i < sizeof(s.words) / 4; ++i)
        __stcg(&s.words[i], w[i]);
    __stcg(&s.has_value, has ? 1u : 0u);
}

// The result from the groups' fold (`has`: some group had a value).
template <typename T, typename Op> __device__ void write_result(bool has, const T& value, const device_reduction<T, Op>& r) {
    if (!r.initialize) {
        const T previous = *r.result;
        *r.result = has ? r.op(previous, value) : previous;
    } else if (r.has_identity) {
        *r.result = has ? r.op(r.identity, value) : r.identity;
    } else if (has) {
        *r.result = value;
    }
}

// One atomic operation of the hardware on `target`, an accumulator or the result (folds_atomically).
template <typename T, typename Op> __device__ void atomic_fold(void* target, const T& v) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        atomicAdd(static_cast<T*>(target), v);
    } else if constexpr (sizeof(T) == 4) {
        auto* word = static_cast<unsigned*>(target);
        const auto bits = static_cast<unsigned>(v);
        if constexpr (op_is<Op, T, plus>) atomicAdd(word, bits);
        else if constexpr (op_is<Op, T, bit_or>) atomicOr(word, bits);
        else atomicXor(word, bits);
    } else {
        auto* word = static_cast<unsigned long long*>(target);
        const auto bits = static_cast<unsigned long long>(v);
        if constexpr (op_is<Op, T, plus>) atomicAdd(word, bits); // two's complement: signed sums too
        else if constexpr (op_is<Op, T, bit_or>) atomicOr(word, bits);
        else atomicXor(word, bits);
    }
}

// In the kernel's launch (blocks of D dimensions): the block's value into the result (`Direct`), the accumulator or
// the block's slot. `Last`: the launch's last reduction.
template <int D, bool Last, bool Direct, typename T, typename Op>
__device__ void leave(bool has, T value, const device_reduction<T, Op>& r, reduction_counters* counters,
                      reduction_slot<T>* slots) {
    // A known identity is always there (sycl::reduction takes it); another given one is known at run time only,
    // the same for every thread.
    if (has_known_identity_v<Op, T> || r.has_identity) {
        value = block_fold<D, Last>(has ? value : r.identity, r.identity, r.op);
        has = true; // folding in the identity changes nothing
    } else {
        block_fold(has, value, r.op);
    }
    if (thread_in_block<D>() != 0) return;
    if constexpr (Direct) {
        if (has) atomic_fold<T, Op>(r.result, value);
    } else if constexpr (folds_atomically<T, Op>()) {
        if (has) atomic_fold<T, Op>(&counters->accumulator, value);
    } else {
        store_slot(slots[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)], has, value);
    }
}

// In the finishing launch (one block): the groups' values into the result; the accumulator back to zero. The
// accumulator starts at the identity (zero), so a launch where no work-item combined anything gives the
// identity, as SYCL asks (one difference: a float sum of -0.0 into a result of -0.0 gives +0.0).
template <typename T, typename Op>
__device__ void finish(const device_reduction<T, Op>& r, reduction_counters& counters, const reduction_slot<T>* slots,
                       unsigned groups) {
    if constexpr (folds_atomically<T, Op>()) {
        if (thread_in_block() != 0) return;
        T total;
        std::memcpy(&total, &counters.accumulator, sizeof(T));
        write_result(true, total, r);
        counters.accumulator = 0;
    } else {
        // Eight slots in flight per thread (one at a time was bound by the latency of each load).
        bool has = false;
        T value{};
        const unsigned threads = threads_in_block();
        for (unsigned base = thread_in_block(); base < groups; base += 8 * threads) {
            bool h[8];
            T v[8];
#pragma unroll
            for (unsigned k = 0; k < 8; ++k) {
                const unsigned i = base + k * threads;
                h[k] = i < groups && slots[i].has_value != 0;
                if (i < groups) std::memcpy(&v[k], slots[i].words, sizeof(T));
            }
#pragma unroll
            for (unsigned k = 0; k < 8; ++k)
                if (h[k]) {
                    value = has ? r.op(value, v[k]) : v[k];
                    has = true;
                }
        }
        block_fold(has, value, r.op);
        if (thread_in_block() == 0) write_result(has, value, r);
    }
}

template <typename R> using reducer_of = reducer<typename R::value_type, typename R::operation>;

template <std::size_t I, std::size_t N> constexpr std::size_t offset_of(const std::size_t (&sizes)[N]) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < I; ++i) at += sizes[i];
    return at;
}

template <std::size_t I, typename H, typename... R> __device__ const auto& at(const reduction_list<H, R...>& list) {
    if constexpr (I == 0)
        return list.head;
    else
        return at<I - 1>(list.tail);
}

// One work-item's reducers, made from the launch's reductions (reducers cannot be copied or moved).
template <typename... R> struct reducers {
    __device__ explicit reducers(const reduction_list<R...>&) {}
};
template <typename H, typename... R> struct reducers<H, R...> {
    __device__ explicit reducers(const reduction_list<H, R...>& list) : head(list.head), tail(list.tail) {}
    reducer_of<H> head;
    reducers<R...> tail;
};
template <std::size_t I, typename H, typename... R> __device__ auto& at(reducers<H, R...>& list) {
    if constexpr (I == 0)
        return list.head;
    else
        return at<I - 1>(list.tail);
}

// The scratch: the counters, then the slots of the reductions that need them, in the order of the list.
template <typename... R> __device__ reduction_counters* counters_of(unsigned char* scratch) {
    return reinterpret_cast<reduction_counters*>(scratch);
}
template <std::size_t I, typename... R> __device__ auto* slots_of(unsigned char* scratch, unsigned groups) {
    constexpr std::size_t slot_bytes[] = {
        slot_bytes_per_group<typename R::value_type, typename R::operation>()...};
    using T = typename std::tuple_element_t<I, std::tuple<R...>>::value_type;
    return reinterpret_cast<reduction_slot<T>*>(scratch + sizeof...(R) * sizeof(reduction_counters) +
                                                std::size_t{groups} * offset_of<I>(slot_bytes));
}

template <launch Launch, int D, typename K, typename... R, std::size_t... I>
__device__ void run(const reduction_call<K, R...>& call, const ::encore::gpu::geometry<(D > 0 ? D : 1)>& g, unsigned char* scratch,
                    std::index_sequence<I...>) {
    encore::work_item item;
    // Threads past a range's end take part in the folds with no value.
    const bool active = encore::cuda::detail::make_work_item<(D > 0 ? D : 1)>(g, item);
    reducers<R...> mine(call.reductions);
    if (active) call_kernel<Launch, D>(call.k, static_cast<const encore::work_item&>(item), at<I>(mine)...);
    const unsigned groups = gridDim.x * gridDim.y * gridDim.z;
    // Every reduction folds atomically: straight into the results, no scratch, no finishing launch.
    constexpr bool direct = reduction_call<K, R...>::direct;
    (leave<(D > 0 ? D : 1), I + 1 == sizeof...(R), direct>(at<I>(mine).ext_encore_has_value(), at<I>(mine).ext_encore_value(), at<I>(call.reductions),
                   direct ? nullptr : counters_of<R...>(scratch) + I,
                   direct ? nullptr : slots_of<I, R...>(scratch, groups)),
     ...);
}

template <typename K, typename... R, std::size_t... I>
__device__ void finish_all(const reduction_call<K, R...>& call, unsigned char* scratch, unsigned groups,
                           std::index_sequence<I...>) {
    (finish(at<I>(call.reductions), counters_of<R...>(scratch)[I], slots_of<I, R...>(scratch, groups), groups), ...);
}

} // namespace device

template <launch Launch, int D, typename K, typename... R>
__device__ void run_reduction_kernel(const reduction_call<K, R...>& call, const ::encore::gpu::geometry<(D > 0 ? D : 1)>& g,
                                     void* scratch) {
    device::run<Launch, D>(call, g, static_cast<unsigned char*>(scratch), std::index_sequence_for<R...>());
}

// The finishing launch: one block, `groups` the number of blocks of the kernel's launch.
template <typename K, typename... R>
__device__ void finish_reductions(const reduction_call<K, R...>& call, void* scratch, unsigned groups) {
    device::finish_all(call, static_cast<unsigned char*>(scratch), groups, std::index_sequence_for<R...>());
}

} // namespace detail
} // namespace _V1
} // namespace sycl

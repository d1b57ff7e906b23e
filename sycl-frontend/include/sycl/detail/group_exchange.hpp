// How the work-items of a work-group or sub-group see each other's values: what sycl::sub_group and the group
// algorithms (sycl/group_algorithm.hpp) are built on. Not for you: include <sycl/sycl.hpp>.
//
// - Native backend: encore::work_item::exchange. Each item gives its value and parks until every item of the scope
//   has given one, then reads them all (backends/native/work_group.hpp); a scope is the work-group or one
//   sub-group.
// - CUDA: a sub-group is a warp. Shuffles move values (any trivially copyable type, 32 bits at a time); sub-group
//   reductions of 32-bit integers under +, min, max, &, |, ^ are one redux.sync (sm_80 on), others a butterfly of
//   __shfl_xor_sync over a full warp; scans are a Kogge-Stone of __shfl_up_sync; a
//   work-group combines its warps' results through 32 slots of shared memory between two __syncthreads.
//
// Every function here takes the Group (sycl::group<D> or sycl::sub_group) it works over; the public spellings are in
// sycl/group_algorithm.hpp and sycl/sub_group.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../exception.hpp"
#include "../functional.hpp"
#include "../item.hpp"
#include "encore/graph/kernel.hpp"
#include "host_device.hpp"

namespace sycl {
inline namespace _V1 {

template <int Dimensions> class group;
class sub_group;

namespace detail {

// The engine work-item behind a group or sub-group view (their friend).
struct group_access {
    template <typename Group> ENCORE_HOST_DEVICE static const ::encore::work_item& item_of(const Group& g) {
        return *g.item_;
    }
};

template <typename Group> inline constexpr bool is_sub_group_v = std::is_same_v<std::remove_cvref_t<Group>, sub_group>;

namespace group_exchange {

#if defined(__CUDACC__)
// The work-item's dimensions are a constant where its entry built it (make_work_item<D>), so a 1-D kernel reads
// threadIdx.x and blockDim.x only.
__device__ inline unsigned cuda_linear_thread(const ::encore::work_item& w) {
    if (w.dimensions == 1) return threadIdx.x;
    if (w.dimensions == 2) return threadIdx.x + blockDim.x * threadIdx.y;
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline unsigned cuda_block_threads(const ::encore::work_item& w) {
    if (w.dimensions == 1) return blockDim.x;
    if (w.dimensions == 2) return blockDim.x * blockDim.y;
    return blockDim.x * blockDim.y * blockDim.z;
}
// The lane: a warp is 32 consecutive threads of the block's linear order.
__device__ inline unsigned cuda_lane() {
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}
#endif

constexpr std::size_t width = ::encore::sub_group_width;

// The item's place in its work-group and sub-group.
ENCORE_HOST_DEVICE inline std::size_t local_linear_of(const ::encore::work_item& w) {
#if defined(__CUDA_ARCH__)
    return cuda_linear_thread(w);
#else
    return (w.local_id[0] * w.local_range[1] + w.local_id[1]) * w.local_range[2] + w.local_id[2];
#endif
}
ENCORE_HOST_DEVICE inline std::size_t local_count_of(const ::encore::work_item& w) {
#if defined(__CUDA_ARCH__)
    return cuda_block_threads(w);
#else
    return w.local_range[0] * w.local_range[1] * w.local_range[2];
#endif
}
ENCORE_HOST_DEVICE inline std::size_t sub_group_of(const ::encore::work_item& w) { return local_linear_of(w) / width; }
ENCORE_HOST_DEVICE inline std::size_t lane_of(const ::encore::work_item& w) {
#if defined(__CUDA_ARCH__)
    static_cast<void>(w);
    return cuda_lane();
#else
    return local_linear_of(w) % width;
#endif
}
ENCORE_HOST_DEVICE inline std::size_t sub_groups_of(const ::encore::work_item& w) {
    return (local_count_of(w) + width - 1) / width;
}
ENCORE_HOST_DEVICE inline std::size_t sub_group_size_of(const ::encore::work_item& w) {
    const std::size_t rest = local_count_of(w) - sub_group_of(w) * width;
    return rest < width ? rest : width;
}

// ---- The native backend: work_item::exchange --------------------------------------------------------------------

// The scope an exchange runs in, and the item's index and the member count there.
template <typename Group> struct host_scope {
    std::size_t scope, index, members;
    explicit host_scope(const ::encore::work_item& w) {
        if constexpr (is_sub_group_v<Group>) {
            scope = sub_group_of(w);
            index = lane_of(w);
            members = sub_group_size_of(w);
        } else {
            scope = ::encore::work_item::whole_group;
            index = local_linear_of(w);
            members = local_count_of(w);
        }
    }
};

// Gives `bytes` at `value`, waits for the scope's other items, returns all their values (nullptr for a barrier).
inline const std::byte* host_exchange(const ::encore::work_item& w, std::size_t scope, const void* value,
                                      std::size_t bytes) {
    if (!w.exchange)
        throw exception(errc::invalid, "a group function or sub-group barrier was called by a work-item of a "
                                       "range launch: only nd_range launches have work-groups and sub-groups");
    return keeping_item_context([&] { return w.exchange(w.group_state, local_linear_of(w), scope, value, bytes); });
}

template <typename T> T host_value_at(const std::byte* block, std::size_t index) {
    static_assert(std::is_trivially_copyable_v<T>, "group functions take trivially copyable values");
    alignas(T) unsigned char raw[sizeof(T)];
    std::memcpy(raw, block + index * sizeof(T), sizeof(T));
    return *std::launder(reinterpret_cast<T*>(raw));
}

// Every value of the scope, in member order: calls `use(block, scope)`, block holding `members` values of T.
template <typename Group, typename T, typename Use> decltype(auto) host_all_values(const Group& g, const T& x, Use&& use) {
    static_assert(std::is_trivially_copyable_v<T>, "group functions take trivially copyable values");
    const ::encore::work_item& w = group_access::item_of(g);
    const host_scope<Group> s(w);
    return use(host_exchange(w, s.scope, &x, sizeof(T)), s);
}

// ---- CUDA: warps and shared memory ------------------------------------------------------------------------------

#if defined(__CUDACC__)
__device__ inline unsigned cuda_warp(const ::encore::work_item& w) { return cuda_linear_thread(w) / 32; }
__device__ inline unsigned cuda_warp_size(const ::encore::work_item& w) {
    const unsigned rest = cuda_block_threads(w) - (cuda_linear_thread(w) & ~31u);
    return rest < 32 ? rest : 32;
}
__device__ inline unsigned cuda_warp_mask(const ::encore::work_item& w) {
    const unsigned n = cuda_warp_size(w);
    return n == 32 ? 0xffffffffu : (1u << n) - 1;
}
__device__ inline unsigned cuda_warps(const ::encore::work_item& w) { return (cuda_block_threads(w) + 31) / 32; }

// A shuffle of any trivially copyable T, 32 bits at a time (Shfl: the word-wise shuffle, one call per word).
template <typename T, typename Shfl> __device__ T cuda_shuffle_words(const T& x, Shfl&& shfl) {
    static_assert(std::is_trivially_copyable_v<T>, "group functions take trivially copyable values");
    if constexpr (std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8) && !std::is_same_v<T, bool>) {
        return shfl(x);
    } else {
        constexpr unsigned words = (sizeof(T) + 3) / 4;
        unsigned w[words] = {};
        std::memcpy(w, &x, sizeof(T));
#pragma unroll
        for (unsigned i = 0; i < words; ++i)
            w[i] = shfl(w[i]);
        T r;
        std::memcpy(&r, w, sizeof(T));
        return r;
    }
}
template <typename T> __device__ T cuda_shuffle(unsigned mask, const T& x, unsigned lane) {
    return cuda_shuffle_words(x, [&](auto v) { return __shfl_sync(mask, v, lane); });
}
template <typename T> __device__ T cuda_shuffle_xor(unsigned mask, const T& x, unsigned lane_mask) {
    return cuda_shuffle_words(x, [&](auto v) { return __shfl_xor_sync(mask, v, lane_mask); });
}
template <typename T> __device__ T cuda_shuffle_up(unsigned mask, const T& x, unsigned delta) {
    return cuda_shuffle_words(x, [&](auto v) { return __shfl_up_sync(mask, v, delta); });
}

// The warp-reduce instruction (redux.sync, sm_80 on) for 32-bit integers under +, min, max, &, |, ^: one
// instruction over the sub-group's lanes, whole warp or not; 0 where it does not apply.
template <typename T, typename Op> constexpr int cuda_redux_kind() {
    if constexpr (!(std::is_integral_v<T> && sizeof(T) == 4 && !std::is_same_v<T, bool>)) return 0;
    else if constexpr (op_is<Op, T, plus>) return 1;
    else if constexpr (op_is<Op, T, minimum>) return 2;
    else if constexpr (op_is<Op, T, maximum>) return 3;
    else if constexpr (op_is<Op, T, bit_and>) return 4;
    else if constexpr (op_is<Op, T, bit_or>) return 5;
    else if constexpr (op_is<Op, T, bit_xor>) return 6;
    else return 0;
}

template <typename T, typename Op> __device__ T cuda_warp_reduce(const ::encore::work_item& w, T x, Op op) {
#if __CUDA_ARCH__ >= 800
    if constexpr (cuda_redux_kind<T, Op>() != 0) {
        using U = std::conditional_t<std::is_signed_v<T>, int, unsigned>;
        const unsigned mask = cuda_warp_mask(w);
        const U v = static_cast<U>(x);
        constexpr int kind = cuda_redux_kind<T, Op>();
        if constexpr (kind == 1) return static_cast<T>(__reduce_add_sync(mask, v));
        else if constexpr (kind == 2) return static_cast<T>(__reduce_min_sync(mask, v));
        else if constexpr (kind == 3) return static_cast<T>(__reduce_max_sync(mask, v));
        else if constexpr (kind == 4) return static_cast<T>(__reduce_and_sync(mask, static_cast<unsigned>(v)));
        else if constexpr (kind == 5) return static_cast<T>(__reduce_or_sync(mask, static_cast<unsigned>(v)));
        else return static_cast<T>(__reduce_xor_sync(mask, static_cast<unsigned>(v)));
    }
#endif
    const unsigned n = cuda_warp_size(w);
    if (n == 32) { // a butterfly: every lane ends with the whole result
#pragma unroll
        for (unsigned o = 16; o > 0; o >>= 1)
            x = op(x, cuda_shuffle_xor(0xffffffffu, x, o));
        return x;
    }
    const unsigned lane = cuda_lane(), mask = (1u << n) - 1;
    for (unsigned o = 16; o > 0; o >>= 1) {
        const unsigned from = lane + o < n ? lane + o : lane;
        const T y = cuda_shuffle(mask, x, from);
        if (lane + o < n) x = op(x, y);
    }
    return cuda_shuffle(mask, x, 0);
}
template <typename T, typename Op> __device__ T cuda_warp_inclusive_scan(const ::encore::work_item& w, T x, Op op) {
    const unsigned n = cuda_warp_size(w), mask = cuda_warp_mask(w), lane = cuda_lane();
    for (unsigned o = 1; o < n; o <<= 1) {
        const T y = cuda_shuffle_up(mask, x, o);
        if (lane >= o) x = op(y, x);
    }
    return x;
}

// 32 slots of T in shared memory, one per warp (one block of them per T).
template <typename T> __device__ unsigned char* cuda_warp_slots() {
    __shared__ __align__(16) unsigned char slots[32 * sizeof(T)];
    return slots;
}
template <typename T> __device__ void cuda_put(unsigned char* slots, unsigned i, const T& v) {
    std::memcpy(slots + i * sizeof(T), &v, sizeof(T));
}
template <typename T> __device__ T cuda_get(const unsigned char* slots, unsigned i) {
    T v;
    std::memcpy(&v, slots + i * sizeof(T), sizeof(T));
    return v;
}
#endif

// ---- The operations, on either ---------------------------------------------------------------------------------

// x of the member at `index` of g (a lane of a sub-group, a local linear id of a work-group).
template <typename Group, typename T> ENCORE_HOST_DEVICE T broadcast(const Group& g, const T& x, std::size_t index) {
#if defined(__CUDA_ARCH__)
    const ::encore::work_item& w = group_access::item_of(g);
    if constexpr (is_sub_group_v<Group>) {
        return cuda_shuffle(cuda_warp_mask(w), x, static_cast<unsigned>(index));
    } else {
        unsigned char* slot = cuda_warp_slots<T>();
        if (cuda_linear_thread(w) == index) cuda_put(slot, 0, x);
        __syncthreads();
        const T r = cuda_get<T>(slot, 0);
        __syncthreads();
        return r;
    }
#else
    return host_all_values(g, x, [&](const std::byte* block, const host_scope<Group>& s) {
        return index < s.members ? host_value_at<T>(block, index) : x;
    });
#endif
}

// x of lane `lane` of the item's sub-group; the item's own x where no such lane exists.
template <typename T>
ENCORE_HOST_DEVICE T select_in_sub_group(const ::encore::work_item& w, const T& x, std::size_t lane) {
#if defined(__CUDA_ARCH__)
    const unsigned from = lane < cuda_warp_size(w) ? static_cast<unsigned>(lane) : cuda_lane();
    return cuda_shuffle(cuda_warp_mask(w), x, from);
#else
    const host_scope<sub_group> s(w);
    const std::byte* block = host_exchange(w, s.scope, &x, sizeof(T));
    return lane < s.members ? host_value_at<T>(block, lane) : x;
#endif
}

ENCORE_HOST_DEVICE inline void sub_group_barrier(const ::encore::work_item& w) {
#if defined(__CUDA_ARCH__)
    __syncwarp(cuda_warp_mask(w));
#else
    host_exchange(w, sub_group_of(w), nullptr, 0);
#endif
}

// op over every member's x, in member order (every member gets it).
template <typename Group, typename T, typename Op> ENCORE_HOST_DEVICE T reduce(const Group& g, const T& x, Op op) {
#if defined(__CUDA_ARCH__)
    const ::encore::work_item& w = group_access::item_of(g);
    T r = cuda_warp_reduce(w, x, op);
    if constexpr (!is_sub_group_v<Group>) {
        const unsigned warps = cuda_warps(w);
        if (warps > 1) {
            unsigned char* slots = cuda_warp_slots<T>();
            if (cuda_lane() == 0) cuda_put(slots, cuda_warp(w), r);
            __syncthreads();
            r = cuda_get<T>(slots, 0);
            for (unsigned k = 1; k < warps; ++k)
                r = op(r, cuda_get<T>(slots, k));
            __syncthreads();
        }
    }
    return r;
#else
    return host_all_values(g, x, [&](const std::byte* block, const host_scope<Group>& s) {
        T r = host_value_at<T>(block, 0);
        for (std::size_t i = 1; i < s.members; ++i)
            r = op(r, host_value_at<T>(block, i));
        return r;
    });
#endif
}

// op over the x of members 0..this one (inclusive), or over `init` and the members before this one (exclusive).
template <typename Group, typename T, typename Op>
ENCORE_HOST_DEVICE T scan(const Group& g, const T& x, Op op, bool inclusive, const T* init) {
#if defined(__CUDA_ARCH__)
    const ::encore::work_item& w = group_access::item_of(g);
    const T in_warp = cuda_warp_inclusive_scan(w, x, op);
    // What comes before this warp: init, then the totals of the block's earlier warps.
    bool has_carry = init != nullptr;
    T carry = init ? *init : x;
    if constexpr (!is_sub_group_v<Group>) {
        const unsigned warps = cuda_warps(w);
        if (warps > 1) {
            unsigned char* slots = cuda_warp_slots<T>();
            if (cuda_lane() == cuda_warp_size(w) - 1) cuda_put(slots, cuda_warp(w), in_warp);
            __syncthreads();
            for (unsigned k = 0; k < cuda_warp(w); ++k) {
                const T total = cuda_get<T>(slots, k);
                carry = has_carry ? op(carry, total) : total;
                has_carry = true;
            }
            __syncthreads();
        }
    }
    if (inclusive) return has_carry ? op(carry, in_warp) : in_warp;
    const T before = cuda_shuffle_up(cuda_warp_mask(w), in_warp, 1);
    if (cuda_lane() == 0) return carry; // has_carry: exclusive scans always have an init
    return has_carry ? op(carry, before) : before;
#else
    return host_all_values(g, x, [&](const std::byte* block, const host_scope<Group>& s) {
        const std::size_t last = inclusive ? s.index + 1 : s.index;
        bool has = init != nullptr;
        T r = init ? *init : x;
        for (std::size_t i = 0; i < last; ++i) {
            const T v = host_value_at<T>(block, i);
            r = has ? op(r, v) : v;
            has = true;
        }
        return r;
    });
#endif
}

// Whether any / every member's flag is true.
template <typename Group> ENCORE_HOST_DEVICE bool any(const Group& g, bool flag) {
#if defined(__CUDA_ARCH__)
    static_cast<void>(g);
    if constexpr (is_sub_group_v<Group>) return __any_sync(cuda_warp_mask(group_access::item_of(g)), flag);
    else return __syncthreads_or(flag) != 0;
#else
    return host_all_values(g, flag, [&](const std::byte* block, const host_scope<Group>& s) {
        for (std::size_t i = 0; i < s.members; ++i)
            if (host_value_at<bool>(block, i)) return true;
        return false;
    });
#endif
}
template <typename Group> ENCORE_HOST_DEVICE bool all(const Group& g, bool flag) {
#if defined(__CUDA_ARCH__)
    static_cast<void>(g);
    if constexpr (is_sub_group_v<Group>) return __all_sync(cuda_warp_mask(group_access::item_of(g)), flag);
    else return __syncthreads_and(flag) != 0;
#else
    return host_all_values(g, flag, [&](const std::byte* block, const host_scope<Group>& s) {
        for (std::size_t i = 0; i < s.members; ++i)
            if (!host_value_at<bool>(block, i)) return false;
        return true;
    });
#endif
}

} // namespace group_exchange
} // namespace detail
} // namespace _V1
} // namespace sycl

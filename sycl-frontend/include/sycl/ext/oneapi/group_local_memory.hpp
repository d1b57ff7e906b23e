// sycl_ext_oneapi_local_memory: group_local_memory<T>(group) and group_local_memory_for_overwrite<T>(group), an
// object of work-group local memory declared inside an nd_range kernel, at the kernel's top level.
//
// Each call site names its own object: the call's Site template argument, a type unique to the call (a lambda's
// closure type in its default argument; in the device code encore-outliner writes for CUDA, where nvcc takes no
// lambda there, the outliner gives every call its own type). A call in a loop is the same site, so the same object.
// group_local_memory constructs the object once per work-group (by the group's first work-item) and waits at a
// group barrier, so every work-item of the group must make the call (as the extension's "kernel functor scope"
// rule has it); group_local_memory_for_overwrite waits only when T's default constructor does something.
//
//     h.parallel_for(sycl::nd_range<1>{128, 32}, [=](sycl::nd_item<1> it) {
//         auto tile = sycl::ext::oneapi::group_local_memory<int[64]>(it.get_group());
//         (*tile)[2 * it.get_local_linear_id()] = 42;
//     });
#pragma once

#define SYCL_EXT_ONEAPI_LOCAL_MEMORY 2

#include <new>
#include <type_traits>
#include <utility>

#include "sycl/detail/host_device.hpp"
#include "sycl/detail/work_group_storage.hpp"
#include "sycl/item.hpp"
#include "sycl/multi_ptr.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

template <typename T> struct is_sycl_group : std::false_type {};
template <int D> struct is_sycl_group<group<D>> : std::true_type {};

// The site encore-outliner gives the N-th call of its device source; no_call_site: none given, in code nvcc
// compiles without the outliner's rewrite (refused: every call there would be one object).
template <unsigned N> struct call_site {};
struct no_call_site;

// The object of call site `Site`: a __shared__ variable on a CUDA device, the thread's block on the host.
template <typename T, typename Site> ENCORE_HOST_DEVICE T* group_local_object() {
    static_assert(!std::is_same_v<Site, no_call_site>,
                  "group_local_memory: nvcc cannot tell its call sites apart; build this source with encore++");
#if defined(__CUDA_ARCH__)
    __shared__ alignas(T) unsigned char object[sizeof(T)];
    return reinterpret_cast<T*>(object);
#else
    static const char key = 0;
    return static_cast<T*>(work_group_storage(&key, sizeof(T), alignof(T)));
#endif
}

// A call site's own type (host compilers and Clang take a lambda in a default template argument).
#if defined(__CUDACC__)
#define ENCORE_DETAIL_CALL_SITE ::sycl::detail::no_call_site
#else
#define ENCORE_DETAIL_CALL_SITE decltype([] {})
#endif

} // namespace detail

namespace ext::oneapi {

// Constructs a T in the work-group's local memory from `args` (value-initialized with none; arrays by aggregate
// initialization), once per work-group, and returns it to every work-item of `g`.
template <typename T, typename Site = ENCORE_DETAIL_CALL_SITE, typename Group, typename... Args>
ENCORE_HOST_DEVICE multi_ptr<T, access::address_space::local_space> group_local_memory(Group g, Args&&... args) {
    static_assert(sycl::detail::is_sycl_group<Group>::value, "group_local_memory: the group must be a sycl::group");
    static_assert(std::is_trivially_destructible_v<T>, "group_local_memory: T must be trivially destructible");
    T* object = sycl::detail::group_local_object<T, Site>();
    if (g.get_local_linear_id() == 0) {
        if constexpr (std::is_array_v<T>)
            ::new (static_cast<void*>(object)) T{std::forward<Args>(args)...};
        else
            ::new (static_cast<void*>(object)) T(std::forward<Args>(args)...);
    }
    group_barrier(g);
    return multi_ptr<T, access::address_space::local_space>(object);
}

// A default-initialized T in the work-group's local memory (no constructor runs for trivial types).
template <typename T, typename Site = ENCORE_DETAIL_CALL_SITE, typename Group>
ENCORE_HOST_DEVICE multi_ptr<T, access::address_space::local_space> group_local_memory_for_overwrite(Group g) {
    static_assert(sycl::detail::is_sycl_group<Group>::value,
                  "group_local_memory_for_overwrite: the group must be a sycl::group");
    static_assert(std::is_trivially_destructible_v<T>,
                  "group_local_memory_for_overwrite: T must be trivially destructible");
    T* object = sycl::detail::group_local_object<T, Site>();
    if constexpr (!std::is_trivially_default_constructible_v<T>) {
        if (g.get_local_linear_id() == 0) ::new (static_cast<void*>(object)) T;
        group_barrier(g);
    }
    return multi_ptr<T, access::address_space::local_space>(object);
}

} // namespace ext::oneapi
} // namespace _V1
} // namespace sycl

#undef ENCORE_DETAIL_CALL_SITE

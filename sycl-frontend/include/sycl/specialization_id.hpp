// sycl::specialization_id and sycl::kernel_handler (SYCL 2020 sections 4.9.5 and 4.9.4.2.3): constants a command
// group (or an input kernel bundle) sets and its kernel reads, fixed for one launch.
//
//     constexpr sycl::specialization_id<int> width{16};          // namespace scope, or a static member
//     q.submit([&](sycl::handler& h) {
//         h.set_specialization_constant<width>(32);
//         h.parallel_for(r, [=](sycl::item<1> i, sycl::kernel_handler kh) {
//             out[i] = kh.get_specialization_constant<width>();  // 32; 16 had nothing set it
//         });
//     });
//
// Encore compiles kernels before the program runs, so specialization constants are emulated as DPC++ does on CUDA:
// the values travel with the launch. A kernel taking a kernel_handler carries a block of the values its command
// group set (specialization_values, at most `capacity` bytes); the kernel looks a constant up there by its key and
// falls back on the specialization_id's default value. The key is a hash of the specialization_id's qualified name,
// which the host compiler and nvcc spell alike, so it means the same in host and device code (built by encore++
// for CUDA, the block is part of the entry's first parameter: compiler/outliner/device_source.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "sycl/detail/host_device.hpp"

namespace sycl {
inline namespace _V1 {

template <typename T> class specialization_id {
public:
    using value_type = T;

    template <typename... Args>
        requires std::is_constructible_v<T, Args...>
    explicit constexpr specialization_id(Args&&... args) : default_(std::forward<Args>(args)...) {}
    specialization_id(const specialization_id&) = delete;
    specialization_id(specialization_id&&) = delete;
    specialization_id& operator=(const specialization_id&) = delete;
    specialization_id& operator=(specialization_id&&) = delete;

    // Encore: the value a kernel reads when nothing set one.
    ENCORE_HOST_DEVICE constexpr const T& ext_encore_default() const noexcept { return default_; }

private:
    T default_;
};

namespace detail {

// What names a specialization_id in its key: the text after `EncoreSpecName =` in the signature below, without
// spaces and without anonymous namespaces (g++ writes "{anonymous}::", nvcc's device side "<unnamed>::", its host
// side "_GLOBAL__N__<hash>::", Clang "(anonymous namespace)::").
template <auto& EncoreSpecName> ENCORE_HOST_DEVICE constexpr const char* spec_signature() {
    return __PRETTY_FUNCTION__;
}
ENCORE_HOST_DEVICE constexpr bool spec_starts_with(const char* text, const char* prefix) {
    for (; *prefix; ++text, ++prefix)
        if (*text != *prefix) return false;
    return true;
}
// FNV-1a 64 of the name in `signature` (its last character is the signature's closing ']').
ENCORE_HOST_DEVICE constexpr std::uint64_t spec_name_hash(const char* signature) {
    const char* at = signature;
    while (*at && !spec_starts_with(at, "EncoreSpecName")) ++at;
    while (*at && *at != '=') ++at;
    if (*at) ++at;
    const char* end = at;
    while (*end) ++end;
    if (end > at && end[-1] == ']') --end;
    std::uint64_t hash = 0xcbf29ce484222325ull;
    bool segment_start = true;
    while (at < end) {
        if (segment_start) {
            // An anonymous namespace's segment, up to and with its "::".
            if (spec_starts_with(at, "{anonymous}::") || spec_starts_with(at, "<unnamed>::") ||
                spec_starts_with(at, "(anonymous namespace)::") || spec_starts_with(at, "_GLOBAL__N_")) {
                while (at < end && !spec_starts_with(at, "::")) ++at;
                at += 2;
                continue;
            }
        }
        const char c = *at++;
        if (c == ' ') continue;
        segment_start = c == ':' || c == '<' || c == ',' || c == ' ';
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ull;
    }
    return hash;
}
template <auto& S> ENCORE_HOST_DEVICE constexpr std::uint64_t spec_key() {
    return spec_name_hash(spec_signature<S>());
}
template <auto& S> using spec_value_t = typename std::remove_reference_t<decltype(S)>::value_type;

// The specialization constants of one launch: records of (key as two 32-bit halves, size, value padded to 4
// bytes), one per constant set. Plain bytes, copied to the device as they are.
struct specialization_values {
    static constexpr std::size_t capacity = 504;
    std::uint32_t used = 0; // bytes of `records` in use
    std::uint32_t count = 0;
    // Only the first `used` bytes mean anything. Not cleared: every handler holds one, and clearing 504 bytes was
    // 5 % of a single_task's submission on native (perf, bench/sycl_submit).
    alignas(4) unsigned char records[capacity];

    static constexpr std::size_t header = 12;
    static constexpr std::size_t record_bytes(std::size_t value) { return header + (value + 3) / 4 * 4; }

    // One record as the walk sees it: its key, its value's size and where the record starts in `records`.
    struct record {
        std::uint64_t key;
        std::uint32_t size;
        std::uint32_t at;
        ENCORE_HOST_DEVICE std::uint32_t bytes() const { return static_cast<std::uint32_t>(record_bytes(size)); }
    };
    // Calls `visit(record)` for each record in order until it returns true; returns whether one did.
    template <typename Visit> ENCORE_HOST_DEVICE bool for_each_record(Visit visit) const {
        for (std::uint32_t at = 0; at + header <= used;) {
            std::uint32_t h[3];
            for (std::size_t i = 0; i < sizeof h; ++i)
                reinterpret_cast<unsigned char*>(h)[i] = records[at + i];
            const record r{h[0] | std::uint64_t{h[1]} << 32, h[2], at};
            if (visit(r)) return true;
            at += r.bytes();
        }
        return false;
    }

    // The value of `key`, copied to `out` (`size` bytes); false when none is set.
    ENCORE_HOST_DEVICE bool find(std::uint64_t key, void* out, std::size_t size) const {
        return for_each_record([&](const record& r) {
            if (r.key != key || r.size != size) return false;
            auto* to = static_cast<unsigned char*>(out);
            for (std::size_t i = 0; i < size; ++i)
                to[i] = records[r.at + header + i];
            return true;
        });
    }
    // Sets (or replaces) the value of `key`; false when the records would not fit in `capacity` bytes.
    bool assign(std::uint64_t key, const void* value, std::size_t size) {
        for_each_record([&](const record& r) {
            if (r.key != key) return false;
            for (std::uint32_t i = r.at; i + r.bytes() < used; ++i) // remove the old record: the sizes may differ
                records[i] = records[i + r.bytes()];
            used -= r.bytes();
            --count;
            return true;
        });
        if (used + record_bytes(size) > capacity) return false;
        const std::uint32_t h[3] = {static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32),
                                    static_cast<std::uint32_t>(size)};
        std::memcpy(records + used, h, sizeof h);
        std::memcpy(records + used + header, value, size);
        used += static_cast<std::uint32_t>(record_bytes(size));
        ++count;
        return true;
    }
};

// A copy of the kernel object with the values of its launch, for kernels that take a kernel_handler. Called with
// the launch's arguments, it calls the kernel with them and the handler (the outlined CUDA entry's first
// parameter: compiler/outliner/device_source.cpp).
template <typename K> struct specialized;

} // namespace detail

class kernel_handler {
public:
    kernel_handler() = delete;

    // The value set for S by the command group (or its kernel bundle), else S's default.
    template <auto& S> ENCORE_HOST_DEVICE detail::spec_value_t<S> get_specialization_constant() const {
        using T = detail::spec_value_t<S>;
        static_assert(std::is_trivially_copyable_v<T>, "a specialization constant's type must be trivially copyable");
        constexpr std::uint64_t key = detail::spec_key<S>();
        constexpr T fallback = S.ext_encore_default(); // a constant: device code cannot read the host's S
        if constexpr (std::is_default_constructible_v<T>) {
            T value{};
            if (values_ && values_->find(key, &value, sizeof(T))) return value;
        } else {
            alignas(T) unsigned char bytes[sizeof(T)];
            if (values_ && values_->find(key, bytes, sizeof(T))) return *reinterpret_cast<T*>(bytes);
        }
        return fallback;
    }

private:
    ENCORE_HOST_DEVICE explicit kernel_handler(const detail::specialization_values* values) : values_(values) {}
    template <typename K> friend struct detail::specialized;

    const detail::specialization_values* values_;
};

namespace detail {
template <typename K> struct specialized {
    K k;
    specialization_values values;

    ENCORE_HOST_DEVICE kernel_handler handler() const { return kernel_handler(&values); }
    template <typename... A>
        requires std::is_invocable_v<const K&, A&..., kernel_handler>
    ENCORE_HOST_DEVICE void operator()(A&&... a) const {
        k(a..., handler());
    }
};
} // namespace detail

} // namespace _V1
} // namespace sycl

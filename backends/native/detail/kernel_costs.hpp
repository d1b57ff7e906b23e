// encore::native::detail::kernel_costs — what a kernel took to run, remembered per kernel type, so that an eager
// submission can tell a tiny kernel (cheaper to run right away on the submitting thread than to hand to a worker)
// from one that carries work. Not for you.
//
// The key is the kernel object's dynamic type: one per C++ lambda or functor (encore::make_kernel's
// function_kernel<F>, the SYCL front end's kernel wrappers), so every submission of the same source kernel shares
// an estimate although each creates its own kernel object. A direct-mapped table of 64 slots holds a running
// mean (3/4 old, 1/4 new) per type; two types that share a slot replace each other. Workers and submitters
// update it without a lock: a slot's key and mean are separate atomics, so a reader may pair one type's key with
// another's mean while both are being written. That only misjudges one submission's cost, which is all the table
// decides: where a kernel runs, never whether it runs correctly.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <typeinfo>

namespace encore::native::detail {

class kernel_costs {
public:
    // The mean in nanoseconds of kernels of type `t`, or -1 when none has been measured.
    std::int64_t mean_ns(const std::type_info& t) const noexcept {
        const slot& s = slot_of(t);
        if (s.type.load(std::memory_order_acquire) != &t) return -1;
        return s.mean_ns.load(std::memory_order_relaxed);
    }

    void record(const std::type_info& t, std::int64_t ns) noexcept {
        slot& s = slot_of(t);
        const std::uint32_t sample = ns < 0 ? 0 : ns > max_ns ? max_ns : static_cast<std::uint32_t>(ns);
        if (s.type.load(std::memory_order_acquire) == &t) {
            const std::uint32_t old = s.mean_ns.load(std::memory_order_relaxed);
            s.mean_ns.store(static_cast<std::uint32_t>((3ull * old + sample) / 4), std::memory_order_relaxed);
            return;
        }
        s.mean_ns.store(sample, std::memory_order_relaxed);
        s.type.store(&t, std::memory_order_release);
    }

private:
    static constexpr std::uint32_t max_ns = 1'000'000'000;
    struct slot {
        std::atomic<const std::type_info*> type{nullptr};
        std::atomic<std::uint32_t> mean_ns{0};
    };
    // The top 6 bits of a multiplicative hash of the type_info's address (its low bits are alignment zeros).
    static std::size_t index_of(const std::type_info& t) noexcept {
        return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(&t) * 0x9E3779B97F4A7C15ull) >> 58);
    }
    slot& slot_of(const std::type_info& t) noexcept { return slots_[index_of(t)]; }
    const slot& slot_of(const std::type_info& t) const noexcept { return slots_[index_of(t)]; }
    std::array<slot, 64> slots_{};
};

} // namespace encore::native::detail

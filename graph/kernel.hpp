// encore::kernel — a named piece of device code and how the native backend runs it.
//
// A kernel command refers to a kernel and carries its decomposed arguments and its range. Backends that compile
// device code (CUDA, OpenCL, ...) find their own entry by name; the native backend calls run() once per work-item.
// The front end wraps a SYCL lambda into a kernel whose run() forwards to the lambda.
//
//     struct add_one final : encore::kernel {
//         add_one() : kernel("add_one") {}
//         void run(const encore::work_item& it, std::span<const encore::kernel_argument> args) const override {
//             static_cast<int*>(args[0].pointer())[it.global_id[0]] += 1;
//         }
//     };
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/container/small_vector.hpp>

namespace encore {

// The iteration space of a kernel launch. local all-zero means "backend chooses" (a basic range launch).
struct nd_range {
    int dimensions = 1;
    std::array<std::size_t, 3> global{1, 1, 1};
    std::array<std::size_t, 3> local{0, 0, 0};
    std::array<std::size_t, 3> offset{0, 0, 0};

    bool has_local_size() const noexcept { return local[0] != 0; }
    std::size_t global_count() const noexcept { return global[0] * global[1] * global[2]; }
    friend bool operator==(const nd_range&, const nd_range&) = default;
};

// Throws encore::error(invalid_argument) unless dimensions is 1..3, every extent is non-zero, and, when a local
// size is given, it divides the global size in every dimension.
void validate(const nd_range& range);

// One decomposed kernel argument, by value: the bytes the kernel receives.
struct kernel_argument {
    enum class kind : std::uint8_t { scalar, pointer, memory_object, local_memory };

    // The value; for local_memory, empty and `local_bytes` says how much. Pointers and the common scalars fit
    // inline: copying a kernel command (the eager path does, once per submission) allocates nothing for them.
    using value_bytes = boost::container::small_vector<std::byte, 16>;

    kind type = kind::scalar;
    value_bytes bytes;
    std::size_t local_bytes = 0;

    static kernel_argument from_pointer(const void* p);
    template <typename T> static kernel_argument from_scalar(const T& value) {
        kernel_argument a;
        a.type = kind::scalar;
        a.bytes.resize(sizeof(T));
        std::memcpy(a.bytes.data(), &value, sizeof(T));
        return a;
    }
    static kernel_argument local(std::size_t bytes);
    // A scalar given as raw bytes (sycl_ext_oneapi_raw_kernel_arg); `count` bytes are copied from `data`.
    static kernel_argument from_bytes(const void* data, std::size_t count) {
        kernel_argument a;
        a.type = kind::scalar;
        a.bytes.resize(count);
        if (count) std::memcpy(a.bytes.data(), data, count);
        return a;
    }

    std::span<const std::byte> value() const noexcept { return {bytes.data(), bytes.size()}; } // `bytes` as a span
    void* pointer() const; // the value of a pointer argument
    template <typename T> T scalar() const {
        T value;
        std::memcpy(&value, bytes.data(), sizeof(T));
        return value;
    }
    friend bool operator==(const kernel_argument&, const kernel_argument&) = default;
};

// How many work-items a sub-group holds on every backend (a CUDA warp): a work-group's items in local linear order
// are cut into sub-groups of this many, the last one holding the rest.
inline constexpr std::size_t sub_group_width = 32;

// What a work-item sees while the native backend runs it.
struct work_item {
    int dimensions = 1;
    std::array<std::size_t, 3> global_id{0, 0, 0};
    std::array<std::size_t, 3> local_id{0, 0, 0};
    std::array<std::size_t, 3> group_id{0, 0, 0};
    std::array<std::size_t, 3> global_range{1, 1, 1};
    std::array<std::size_t, 3> local_range{1, 1, 1};
    std::array<std::size_t, 3> group_range{1, 1, 1};
    std::array<std::size_t, 3> offset{0, 0, 0};
    // Set by the native backend for nd_range launches: waits until every work-item of the group has reached it.
    void (*barrier)(void* group_state) = nullptr;
    void* group_state = nullptr;
    // Set by the native backend for nd_range launches: a collective exchange. The item at `local_linear_id` gives
    // `bytes` bytes at `value`, waits until every item of its work-group (`sub_group` == whole_group) or of its
    // sub-group (`sub_group` == its sub-group's index) has given theirs, and gets back all of them, item after
    // item in local order (sub-group: lane order). With `bytes` 0 it is that scope's barrier (returns nullptr).
    // The block stays valid until the item's next exchange in the same scope.
    static constexpr std::size_t whole_group = static_cast<std::size_t>(-1);
    const std::byte* (*exchange)(void* group_state, std::size_t local_linear_id, std::size_t sub_group,
                                 const void* value, std::size_t bytes) = nullptr;
    // Work-group local memory of each local_memory argument, in argument order.
    std::span<std::byte* const> local_memory{};
};

class kernel {
public:
    explicit kernel(std::string name) : owned_name_(std::move(name)), name_(&owned_name_) {}
    // A name that outlives every kernel made with it (a static string: the SYCL front end makes each kernel type's
    // name once). The kernel refers to it rather than copying it: making a kernel per submission allocates nothing
    // for its name.
    struct lasting_name {
        const std::string& name;
    };
    explicit kernel(lasting_name n) noexcept : name_(&n.name) {}
    virtual ~kernel() = default;
    kernel(const kernel&) = delete;
    kernel& operator=(const kernel&) = delete;

    const std::string& name() const noexcept { return *name_; }
    // How many arguments the kernel takes where it knows (PTX kernels, function kernels made with a count), else
    // nothing: SYCL's set_arg indices are checked against it. Local memory counts for kernels that take it as an
    // argument (native, OpenCL); a CUDA kernel's dynamic shared memory is no parameter (the backend refuses it).
    virtual std::optional<std::size_t> argument_count() const noexcept { return std::nullopt; }
    // Runs one work-item on the host. Kernels that have no host form throw errc::feature_not_supported.
    virtual void run(const work_item& item, std::span<const kernel_argument> arguments) const = 0;
    // Runs items [first, last) of a range launch whose items differ only in their first index, in order: `item`
    // holds the launch's fields, and for item i its global_id[0] becomes item.offset[0] + i. This calls run() for
    // each; kernels override it to run the loop without a virtual call per item (the native backend's range
    // launches call it).
    virtual void run_linear(work_item& item, std::size_t first, std::size_t last,
                            std::span<const kernel_argument> arguments) const {
        for_linear_items(item, first, last, [&](const work_item& w) { run(w, arguments); });
    }
    // The kernel's code for the backend named `backend` ("cuda", ...), as a record whose layout that backend
    // defines (CUDA: encore::cuda::device_code in backends/cuda/device_code.hpp), or nullptr when the kernel
    // has none there. Kernels compiled by nvcc or NVRTC override it; the native backend never asks.
    virtual const void* device_code(std::string_view backend) const noexcept {
        static_cast<void>(backend);
        return nullptr;
    }

protected:
    // run_linear's loop, for overrides to call with their own per-item call (inlined into the loop).
    template <typename Call>
    static void for_linear_items(work_item& item, std::size_t first, std::size_t last, Call&& call) {
        for (std::size_t i = first; i < last; ++i) {
            item.global_id[0] = item.offset[0] + i;
            call(static_cast<const work_item&>(item));
        }
    }

private:
    std::string owned_name_;   // empty for a lasting name
    const std::string* name_; // owned_name_, or the lasting name (never copied or moved: it points into *this)
};

} // namespace encore

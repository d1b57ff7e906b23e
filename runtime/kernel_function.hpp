// encore::make_kernel — a kernel from a C++ callable, for the native backend.
//
// The callable receives each work-item, and optionally the launch's arguments:
//     void(const encore::work_item&)   or   void(const encore::work_item&, std::span<const
//     encore::kernel_argument>)
// It must be safe to call concurrently from several threads (work-items run in parallel) and is shared by
// every command that uses the kernel. Backends that compile device code find their kernels by name instead,
// so a function kernel runs on the native backend only.
//
//     auto twice = encore::make_kernel("twice", [data](const encore::work_item& it) { data[it.global_id[0]]
//     *= 2; }); g.add(encore::kernel_command{twice, {}, encore::range(n)});
#pragma once

#include <concepts>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "encore/graph/kernel.hpp"

namespace encore {

template <typename F>
concept work_item_function = std::invocable<const F&, const work_item&> ||
    std::invocable<const F&, const work_item&, std::span<const kernel_argument>>;

template <work_item_function F> class function_kernel final : public kernel {
public:
    function_kernel(std::string name, F function, std::optional<std::size_t> argument_count = std::nullopt)
        : kernel(std::move(name)), function_(std::move(function)), argument_count_(argument_count) {}
    std::optional<std::size_t> argument_count() const noexcept override { return argument_count_; }
    void run(const work_item& item, std::span<const kernel_argument> arguments) const override {
        call(item, arguments);
    }
    void run_linear(work_item& item, std::size_t first, std::size_t last,
                    std::span<const kernel_argument> arguments) const override {
        for_linear_items(item, first, last, [&](const work_item& w) { call(w, arguments); });
    }

private:
    void call(const work_item& item, std::span<const kernel_argument> arguments) const {
        if constexpr (std::invocable<const F&, const work_item&, std::span<const kernel_argument>>)
            function_(item, arguments);
        else
            function_(item);
    }

    F function_;
    std::optional<std::size_t> argument_count_;
};

template <work_item_function F> std::shared_ptr<const kernel> make_kernel(std::string name, F function) {
    return std::make_shared<function_kernel<F>>(std::move(name), std::move(function));
}
// A kernel that reads `argument_count` arguments: SYCL's set_arg past them is refused.
template <work_item_function F>
std::shared_ptr<const kernel> make_kernel(std::string name, std::size_t argument_count, F function) {
    return std::make_shared<function_kernel<F>>(std::move(name), std::move(function), argument_count);
}

// Ranges: global sizes only (the backend chooses groups), or with a work-group size (an nd_range launch,
// whose items can use local memory and the group barrier).
inline nd_range range(std::size_t x) {
    return nd_range{1, {x, 1, 1}, {0, 0, 0}, {0, 0, 0}};
}
inline nd_range range(std::size_t x, std::size_t y) {
    return nd_range{2, {x, y, 1}, {0, 0, 0}, {0, 0, 0}};
}
inline nd_range range(std::size_t x, std::size_t y, std::size_t z) {
    return nd_range{3, {x, y, z}, {0, 0, 0}, {0, 0, 0}};
}
// `global` and `local` have `dimensions` meaningful entries; the rest must be 1.
inline nd_range make_nd_range(int dimensions, std::array<std::size_t, 3> global,
                              std::array<std::size_t, 3> local) {
    return nd_range{dimensions, global, local, {0, 0, 0}};
}

} // namespace encore

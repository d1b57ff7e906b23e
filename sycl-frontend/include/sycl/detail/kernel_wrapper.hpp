// How a SYCL kernel (a lambda or function object) becomes an engine kernel: the wrapper's run() turns the engine's
// work-item into the item the kernel asks for and calls it. Not for you: handler::parallel_for uses it.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>

#include "graph/kernel.hpp"
#include "sycl/accessor.hpp"
#include "sycl/item.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

// The kernel name of parallel_for<Name>; auto_name when none is given (the kernel's type names it then).
struct auto_name {};

inline std::string demangle(const char* mangled) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> readable(abi::__cxa_demangle(mangled, nullptr, nullptr, &status),
                                                    std::free);
    return status == 0 && readable ? std::string(readable.get()) : std::string(mangled);
}

template <typename Name, typename Kernel> std::string kernel_name() {
    if constexpr (std::is_same_v<Name, auto_name>)
        return demangle(typeid(Kernel).name());
    else {
        std::string name = demangle(typeid(Name*).name()); // a pointer: Name may be an incomplete class
        if (!name.empty() && name.back() == '*') name.pop_back();
        return name;
    }
}

enum class launch { single_task, range, nd_range };

// Calls `k` for one work-item with the item type its launch gives it, and `extra` after it (reducers).
template <launch Launch, int D, typename K, typename... Extra>
void call_kernel(const K& k, const encore::work_item& w, Extra&... extra) {
    if constexpr (Launch == launch::single_task) {
        static_assert(std::is_invocable_v<const K&>, "single_task: the kernel must be callable with no arguments "
                                                     "(and its operator() must be const)");
        k();
    } else if constexpr (Launch == launch::nd_range) {
        static_assert(std::is_invocable_v<const K&, nd_item<D>, Extra&...>,
                      "parallel_for(nd_range): the kernel must take a sycl::nd_item of the range's dimensions "
                      "(and its operator() must be const)");
        k(item_factory::make_nd_item<D>(w), extra...);
    } else {
        static_assert(std::is_invocable_v<const K&, item<D>, Extra&...>,
                      "parallel_for(range): the kernel must take a sycl::item or sycl::id of the range's dimensions "
                      "(and its operator() must be const)");
        k(item_factory::make_item<D, true>(w), extra...);
    }
}

template <launch Launch, int D, typename K> class lambda_kernel final : public encore::kernel {
public:
    lambda_kernel(std::string name, K k) : encore::kernel(std::move(name)), k_(std::move(k)) {}
    void run(const encore::work_item& w, std::span<const encore::kernel_argument>) const override {
        current_local_memory = w.local_memory;
        call_kernel<Launch, D>(k_, w);
    }

private:
    K k_;
};

} // namespace detail
} // namespace _V1
} // namespace sycl

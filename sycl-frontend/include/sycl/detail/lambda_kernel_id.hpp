// The kernel_id of a lambda or function-object kernel (sycl/kernel_bundle.hpp): registered before main by the
// launch that names it (handler::parallel_for<Name>, single_task, ...), so get_kernel_ids() and
// get_kernel_id<Name>() know every kernel the program launches. Not for you: the handler uses it.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>

#include "encore/graph/error.hpp"
#include "sycl/detail/kernel_wrapper.hpp"
#include "sycl/kernel_bundle.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

// What kernel_bundle::get_kernel gives for a lambda kernel: a kernel that names it. It cannot be launched by itself
// (its arguments are its captures): handler::set_kernel_object refuses it.
class lambda_kernel_reference : public encore::kernel {
public:
    using encore::kernel::kernel;
    void run(const encore::work_item&, std::span<const encore::kernel_argument>) const override {
        throw encore::error(encore::errc::invalid_argument,
                            "kernel '" + name() + "' is a lambda or function-object kernel: launch it as one");
    }
};
template <typename K> class lambda_kernel_reference_of final : public lambda_kernel_reference {
public:
    using lambda_kernel_reference::lambda_kernel_reference;
    // Not null where K has code for `backend` (bundles list the kernel for such devices); never launched. OpenCL
    // and Level Zero devices run the "opencl" image's entry (encore++ -fsycl-targets=spir64).
    const void* device_code(std::string_view backend) const noexcept override {
        if (backend == "opencl" || backend == "level_zero")
            return find_outlined_entry<K, outlined_target::opencl>().entry ? this : nullptr;
        if (backend != "cuda") return nullptr;
#if defined(__CUDACC__)
        if (has_cuda_entry<K>) return this;
#endif
        return find_outlined_entry<K, outlined_target::cuda>().entry ? this : nullptr;
    }
};

template <typename KernelName, typename K, bool Handler> struct lambda_registration {
    using name_type = std::conditional_t<std::is_same_v<KernelName, auto_name>, K, KernelName>;
    static std::shared_ptr<const encore::kernel> engine() {
        static const std::shared_ptr<const encore::kernel> k =
            std::make_shared<lambda_kernel_reference_of<K>>(kernel_name<KernelName, K>());
        return k;
    }
    static const registered_kernel& entry() {
        static const registered_kernel e{kernel_name<KernelName, K>().c_str(), &engine, typeid(name_type*).name(),
                                         Handler};
        return e;
    }
    static kernel_id id() {
        static const registered_kernel& known = register_kernel(entry());
        return kernel_id(known);
    }
    static inline const bool registered = (id(), true);
};

} // namespace detail
} // namespace _V1
} // namespace sycl

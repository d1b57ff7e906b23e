// sycl::kernel (SYCL 2020 section 4.11.13): a kernel object whose arguments are set with handler::set_arg(s).
//
// Encore makes kernel objects from engine kernels: ones compiled at run time for a backend (see the CUDA
// backend's NVRTC programs) or an engine kernel written in C++ for the native backend, whose run() reads the
// arguments set with set_arg.
//
//     sycl::kernel k = sycl::ext::encore::make_kernel(engine_kernel);
//     q.submit([&](sycl::handler& h) { h.set_args(data, 42); h.parallel_for(sycl::range<1>{n}, k); });
#pragma once

#include <memory>
#include <span>
#include <string>

#include "encore/runtime/kernel_function.hpp"
#include "exception.hpp"

namespace sycl {
inline namespace _V1 {

namespace info::kernel {
// clang-format off
struct function_name { using return_type = std::string; };
struct num_args { using return_type = std::uint32_t; };
// clang-format on
} // namespace info::kernel

namespace detail {
// An engine kernel that knows its parameters' types (free-function kernels): the handler asks it to check the
// arguments set with set_arg(s) before the launch, so a wrong one is refused there with errc::invalid.
class typed_kernel : public encore::kernel {
public:
    using encore::kernel::kernel;
    // Throws sycl::exception(errc::invalid) naming the argument that does not fit its parameter.
    virtual void check_arguments(std::span<const encore::kernel_argument> arguments) const = 0;
};
} // namespace detail

class kernel {
public:
    kernel() = delete;
    template <typename Descriptor> typename Descriptor::return_type get_info() const {
        if constexpr (std::is_same_v<Descriptor, info::kernel::function_name>)
            return engine_->name();
        else
            static_assert(std::is_same_v<Descriptor, info::kernel::function_name>,
                          "Encore answers info::kernel::function_name");
    }
    friend bool operator==(const kernel& a, const kernel& b) noexcept { return a.engine_ == b.engine_; }

    // Encore: the engine kernel behind this object.
    explicit kernel(std::shared_ptr<const encore::kernel> engine) : engine_(std::move(engine)) {
        if (!engine_) throw exception(errc::invalid, "sycl::kernel: the engine kernel is null");
    }
    const std::shared_ptr<const encore::kernel>& engine() const noexcept { return engine_; }

private:
    std::shared_ptr<const encore::kernel> engine_;
};

namespace ext::encore {
inline sycl::kernel make_kernel(std::shared_ptr<const ::encore::kernel> engine) { return sycl::kernel(std::move(engine)); }
} // namespace ext::encore

} // namespace _V1
} // namespace sycl

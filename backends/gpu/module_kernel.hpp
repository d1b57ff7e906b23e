// encore::gpu::module_kernel — a kernel taken by name from a module image (a PTX or cubin image for CUDA, a code
// object for HIP): device code for one GPU API, no host form. Written once for backends/cuda/cuda_module.cpp and
// backends/hip/hip_module.cpp, which make them (get_kernel).
//
//     auto k = std::make_shared<module_kernel>(m, m->id(), m->image(), "saxpy", "cuda", "NVRTC/PTX");
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "encore/backends/gpu/device_code.hpp"
#include "encore/graph/error.hpp"
#include "encore/graph/kernel.hpp"

namespace encore::gpu {

// A new module id: unique for the life of the process (what backends key their loaded modules on).
inline std::uint64_t next_image_id() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

class module_kernel final : public kernel {
public:
    // `module` keeps `image` alive; `api` is the device_code key ("cuda", "hip"); `built_by` names the image's
    // origin in the error of a host launch ("CUDA (NVRTC/PTX)"); `argument_count`, where the image says (PTX).
    module_kernel(std::shared_ptr<const void> module, std::uint64_t image_id, const void* image, std::string name,
                  std::string_view api, std::string built_by, std::optional<std::size_t> argument_count = std::nullopt)
        : kernel(std::move(name)), module_(std::move(module)), api_(api), built_by_(std::move(built_by)),
          argument_count_(argument_count) {
        code_.convention = calling_convention::argument_list;
        code_.image_id = image_id;
        code_.image = image;
        code_.entry = this->name().c_str();
    }

    void run(const work_item&, std::span<const kernel_argument>) const override {
        throw error(errc::feature_not_supported,
                    "kernel '" + name() + "' was built for " + built_by_ + " and has no host form");
    }
    const void* device_code(std::string_view backend) const noexcept override {
        return backend == api_ ? &code_ : nullptr;
    }
    std::optional<std::size_t> argument_count() const noexcept override { return argument_count_; }

private:
    std::shared_ptr<const void> module_;
    std::string_view api_; // static storage
    std::string built_by_;
    std::optional<std::size_t> argument_count_;
    gpu::device_code code_;
};

} // namespace encore::gpu

// encore::level_zero::build_module, module and get_kernel — Level Zero modules built at run time for one
// device, and kernels taken from them by name, as encore::kernels whose arguments are the command's
// kernel_arguments (libencore-level_zero).
//
// build_module takes SPIR-V (ZE_MODULE_FORMAT_IL_SPIRV: compiled by the driver, through the kernel/program
// cache, keeping what zeModuleGetNativeBinary returns) or a native binary (ZE_MODULE_FORMAT_NATIVE: loaded as
// it is, to check it and list its kernels). The backend creates its ze_module from the native binary on first
// use. Kernel parameters, in order: scalars (their bytes), pointers (USM), local memory
// (kernel_argument::local(bytes): a size with no value). A range launch takes the group size
// zeKernelSuggestGroupSize proposes; an nd_range launch its work-group. SYCL dimension d-1 (the fastest) is
// Level Zero's x, as in DPC++. A module kernel has no host form: on the native backend it throws
// errc::feature_not_supported.
//
//     auto m = encore::level_zero::module::load(encore::level_zero::build_module(d,
//         encore::level_zero::module_source::native(read_file("kernels.so"))));
//     auto scale = encore::level_zero::get_kernel(m, "scale");
//     q.submit(encore::kernel_command{scale, {from_scalar(2.f), from_pointer(x)}, encore::range(n)});
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "encore/runtime/device.hpp"
#include "encore/graph/kernel.hpp"

namespace encore::level_zero {

struct module_source {
    enum class format : unsigned char { spirv, native };
    format kind = format::spirv;
    std::vector<unsigned char> bytes;

    static module_source spirv(std::vector<unsigned char> il);
    static module_source native(std::vector<unsigned char> binary);
};

struct module_binary {
    std::string device_name;               // the device it was built for
    std::vector<unsigned char> bytes;      // native binary
    std::vector<std::string> kernel_names; // zeModuleGetKernelNames
    std::string log;                       // the build log, possibly empty
};

// Builds `source` for `d` (a device of the level_zero backend) with `options` (pBuildFlags, joined by
// spaces). SPIR-V goes through the kernel/program cache (docs/cache.md): a repeated build of the same key
// (device name, driver version, options, IL) costs no compiler run. Throws encore::error: build_failure with
// the driver's build log when the module does not build; invalid_argument when `d` is not a Level Zero device
// or the input is empty; backend_failure when Level Zero is missing or fails otherwise.
module_binary build_module(const device& d, const module_source& source,
                           std::span<const std::string> options = {});

class module {
public:
    // Throws errc::invalid_argument for an empty binary.
    static std::shared_ptr<const module> load(module_binary binary);

    std::uint64_t id() const noexcept { return id_; }
    const module_binary& binary() const noexcept { return binary_; }
    bool has_kernel(const std::string& name) const;

    explicit module(module_binary binary);

private:
    module_binary binary_;
    std::uint64_t id_;
};

// The kernel `name` of `m`. Throws errc::invalid_argument when the module has no such kernel.
std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const module> m, std::string name);

} // namespace encore::level_zero

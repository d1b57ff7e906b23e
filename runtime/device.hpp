// encore::device — one device of one loaded backend: what queues, allocations and executable graphs are for.
//
// A device is a cheap handle (the backend and the device's index there); the backend stays loaded for the
// life of the registry that loaded it (the global one: the whole process). Devices compare equal when they
// name the same device of the same backend.
//
//     for (const auto& d : encore::device::all())
//         std::printf("%s: %s\n", std::string(d.backend_name()).c_str(), d.properties().name.c_str());
//     encore::queue q(encore::device::default_device());
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "encore/backends/backend.hpp"

namespace encore {

class device {
public:
    device(backend& owner, std::uint32_t index) : backend_(&owner), index_(index) {}

    // Every visible device (ONEAPI_DEVICE_SELECTOR) of the global registry's backends, in ENCORE_BACKENDS order.
    static std::vector<device> all();
    // The first of all() that runs the program's kernels (backend_registry::default_device has the rule);
    // throws encore::error(backend_failure) when no device is visible (see ENCORE_TRACE).
    static device default_device();

    // Whether kernels this program compiled can run here: the backend runs host code, or the program carries
    // device code for it (program_device_code.hpp). Kernels built at run time are not counted.
    bool runs_program_kernels() const;

    const device_properties& properties() const { return backend_->properties(index_); }
    std::string_view backend_name() const noexcept { return backend_->name(); }
    backend& owner() const noexcept { return *backend_; }
    std::uint32_t index() const noexcept { return index_; }

    friend bool operator==(const device&, const device&) = default;

private:
    backend* backend_;
    std::uint32_t index_;
};

} // namespace encore

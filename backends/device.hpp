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

#include "backends/backend.hpp"

namespace encore {

class device {
public:
    device(backend& owner, std::uint32_t index) : backend_(&owner), index_(index) {}

    // Every device of the global registry's backends, in ENCORE_BACKENDS order.
    static std::vector<device> all();
    // The first of all(); throws encore::error(backend_failure) when no backend is loaded (see ENCORE_TRACE).
    static device default_device();

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

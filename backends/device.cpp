#include "device.hpp"

#include "backends/backend_registry.hpp"
#include "graph/error.hpp"

namespace encore {

std::vector<device> device::all() {
    return backend_registry::global().devices();
}

device device::default_device() {
    auto& registry = backend_registry::global();
    for (auto* b : registry.backends())
        if (b->device_count() > 0) return device(*b, 0);
    throw error(errc::backend_failure, "no device: no backend could be loaded (ENCORE_BACKENDS lists the "
                                       "backends to try; set ENCORE_TRACE=1 "
                                       "to see why each was not loaded)");
}

} // namespace encore

#include "device.hpp"

#include "encore/runtime/backend_registry.hpp"
#include "encore/runtime/program_device_code.hpp"
#include "encore/graph/error.hpp"

namespace encore {

std::vector<device> device::all() {
    return backend_registry::global().devices();
}

device device::default_device() {
    return backend_registry::global().default_device();
}

bool device::runs_program_kernels() const {
    return properties().host_kernels || program_has_device_code(backend_name());
}

} // namespace encore

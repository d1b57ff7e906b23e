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
    const device_properties& p = properties();
    if (p.host_kernels) return true;
    if (!program_has_device_code(backend_name())) return false;
    // The program's OpenCL code is encore++'s spir64 image: SPIR-V and SPIR 1.2 bitcode.
    if (backend_name() == "opencl") return p.spirv || p.spir;
    return true;
}

} // namespace encore

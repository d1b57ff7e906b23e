// handler's copies to and from a device_global (sycl/ext/oneapi/device_global/device_global.hpp): where the
// instance of the handler's device is, found once per copy.
#include <cstddef>
#include <string>

#include "encore/backends/gpu/device_code.hpp"
#include "encore/compiler/kernel_descriptor.hpp"
#include "sycl/detail/engine_error.hpp"
#include "sycl/detail/image_code.hpp"
#include "sycl/handler.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

namespace {

// The address of `object`'s instance on `d`: the host object on a device that runs host code, else the variable
// of the device image of the unit that registered it.
void* instance_on(const void* object, const device& d, const char* call) {
    const ::encore::device& engine = d.engine();
    if (engine.properties().host_kernels) return const_cast<void*>(object);
    const std::string backend(engine.backend_name());
    for (const auto& g : ::encore::compiler::find_device_globals(object)) {
        const auto* image = ::encore::compiler::find_image(backend, g.translation_unit);
        if (!image) continue;
        const ::encore::gpu::device_code code = image_code(*image);
        void* address =
            translate_errors([&] { return engine.owner().global_address(engine.index(), &code, g.symbol); });
        if (address) return address;
    }
    const std::string remedy = backend == "opencl" || backend == "level_zero"
                                   ? "encore++'s spir64 target does not give device_globals an instance yet"
                                   : "build the source that declares it with encore++ -fsycl-targets=" +
                                         (backend == "cuda" ? std::string("cuda:sm_NN") : backend);
    throw exception(errc::invalid, std::string("handler::") + call +
                                       ": this device_global has no instance on device '" +
                                       engine.properties().name + "' (" + backend +
                                       "): the program carries no device code for it there (" + remedy + ")");
}

} // namespace

} // namespace detail

void handler::device_global_copy(const void* object, std::size_t object_bytes, void* to_host, const void* from_host,
                                 std::size_t bytes, std::size_t offset, const char* call) {
    if (offset > object_bytes || bytes > object_bytes - offset)
        throw exception(errc::invalid, std::string("handler::") + call + ": " + std::to_string(bytes) +
                                           " bytes at offset " + std::to_string(offset) +
                                           " do not fit the device_global's " + std::to_string(object_bytes));
    if (bytes == 0) return set_command(encore::empty_command{}, call);
    if (!to_host && !from_host)
        throw exception(errc::invalid, std::string("handler::") + call + ": the host pointer is null");
    auto* instance = static_cast<unsigned char*>(detail::instance_on(object, device_, call)) + offset;
    if (from_host)
        copy_bytes(instance, from_host, bytes);
    else
        copy_bytes(to_host, instance, bytes);
}

} // namespace _V1
} // namespace sycl

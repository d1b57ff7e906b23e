// A test plugin: libencore-backend-old_interface.so, behaving as a plugin built for another interface version
// does (backend.hpp's example): its entry point sees a version it does not speak and returns with neither a
// backend nor a reason. The registry must say so (backend_report::outcome::other_version), never crash.
#include "encore/backends/backend.hpp"

extern "C" ENCORE_BACKEND_EXPORT void encore_backend_entry(encore::backend_plugin_request* request) {
    constexpr std::uint32_t spoken =
        encore::backend_interface_version - 1; // as if built against older headers
    if (request->interface_version != spoken) return;
}

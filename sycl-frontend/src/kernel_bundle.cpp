// Kernel bundles (sycl/kernel_bundle.hpp): the registry of kernel ids, application bundles, and bundles built
// from source through the backends' build_program (sycl/ext/oneapi/experimental/kernel_compiler.hpp).
#include "sycl/kernel_bundle.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <cstring>
#include <mutex>
#include <optional>

#include "encore/backends/backend.hpp"
#include "encore/graph/error.hpp"
#include "sycl/ext/oneapi/experimental/free_function_kernels.hpp"
#include "sycl/ext/oneapi/experimental/kernel_compiler.hpp"

namespace sycl {
inline namespace _V1 {
namespace detail {

struct kernel_bundle_impl {
    context ctx;
    std::vector<device> devices;
    std::vector<kernel_id> ids; // the application's kernels it holds
    // A bundle of source, and what building it gave.
    std::optional<::encore::source_language> language;
    std::vector<std::byte> source;
    std::shared_ptr<const ::encore::source_program> program;
    std::string log;
};

namespace {

struct kernel_registry {
    std::mutex lock;
    std::vector<const registered_kernel*> kernels;
};
kernel_registry& registry() {
    static kernel_registry r; // used before main: made on first use
    return r;
}

void check_devices(const context& c, const std::vector<device>& devices, const char* call) {
    if (devices.empty()) throw exception(errc::invalid, std::string(call) + ": no device given");
    for (const auto& d : devices)
        if (!c.contains(d))
            throw exception(errc::invalid, std::string(call) + ": device '" + d.engine().properties().name +
                                               "' is not in the context");
}

bool holds(const kernel_bundle_impl& b, const kernel_id& id) {
    return std::find(b.ids.begin(), b.ids.end(), id) != b.ids.end();
}

bool runs_on_any(const kernel_id& id, const std::vector<device>& devices) {
    const auto k = id.ext_encore_entry().engine();
    return std::any_of(devices.begin(), devices.end(), [&](const device& d) { return runs_on(*k, d); });
}

} // namespace

const registered_kernel& register_kernel(const registered_kernel& k) {
    auto& r = registry();
    std::lock_guard guard(r.lock);
    // The same kernel's registration in two shared objects of one program: one id. Lambda kernels are known by
    // their name's type (two local classes of one name in different functions are two kernels), free functions by
    // their name.
    for (const auto* known : r.kernels) {
        const bool same = k.name_type ? known->name_type && std::strcmp(known->name_type, k.name_type) == 0
                                      : !known->name_type && std::strcmp(known->name, k.name) == 0;
        if (same) return *known;
    }
    r.kernels.push_back(&k);
    return k;
}

kernel_id lambda_kernel_id(const char* name_type, const std::string& readable) {
    {
        auto& r = registry();
        std::lock_guard guard(r.lock);
        for (const auto* known : r.kernels)
            if (known->name_type && std::strcmp(known->name_type, name_type) == 0) return kernel_id(*known);
    }
    std::string name = readable;
    int status = 0;
    if (char* text = abi::__cxa_demangle(readable.c_str(), nullptr, nullptr, &status)) {
        if (status == 0) name = text;
        std::free(text);
        if (!name.empty() && name.back() == '*') name.pop_back();
    }
    throw exception(errc::invalid, "get_kernel_id<" + name +
                                       ">: the program launches no kernel of that name (a lambda kernel is named by "
                                       "parallel_for<Name>, a function object by its type)");
}

bool bundle_takes_handler(const kernel_bundle_impl& b) noexcept {
    return std::any_of(b.ids.begin(), b.ids.end(),
                       [](const kernel_id& id) { return id.ext_encore_entry().takes_handler; });
}

void check_spec_key(std::uint64_t key, const void* address, const char* signature) {
    // The specialization_id's name, from the signature of spec_signature<S>() (sycl/specialization_id.hpp).
    std::string name = signature;
    if (const auto at = name.find("EncoreSpecName"); at != std::string::npos) {
        name.erase(0, name.find('=', at) + 1);
        while (!name.empty() && name.front() == ' ')
            name.erase(0, 1);
        if (!name.empty() && name.back() == ']') name.pop_back();
    }
    static std::mutex lock;
    static std::map<std::uint64_t, const void*> known; // key -> the specialization_id that has it
    std::lock_guard guard(lock);
    const auto [at, added] = known.emplace(key, address);
    if (!added && at->second != address)
        throw exception(errc::invalid,
                        "set_specialization_constant: two specialization_ids of the program are named '" + name +
                            "': kernels know a specialization_id by its qualified name. A `constexpr` one in a "
                            "header gives each file a copy of its own: declare it `inline constexpr` there; two in "
                            "anonymous namespaces need different names");
}

void set_spec_value(specialization_values& values, std::uint64_t key, const void* value, std::size_t size,
                    const char* call) {
    if (!values.assign(key, value, size))
        throw exception(errc::invalid, std::string(call) + ": the specialization constants set take more than " +
                                           std::to_string(specialization_values::capacity) +
                                           " bytes (each takes its size rounded up to 4, and 12 more), the most one "
                                           "launch carries");
}

void merge_spec_values(specialization_values& into, const specialization_values& from, const char* call) {
    from.for_each_record([&](const specialization_values::record& r) {
        std::vector<unsigned char> probe(r.size);
        if (!into.find(r.key, probe.data(), probe.size()))
            set_spec_value(into, r.key, from.records + r.at + specialization_values::header, r.size, call);
        return false;
    });
}

bool runs_on(const ::encore::kernel& k, const device& d) {
    return d.engine().properties().host_kernels || k.device_code(d.engine().backend_name()) != nullptr;
}

std::string describe_argument(const ::encore::kernel_argument& a) {
    switch (a.type) {
    case ::encore::kernel_argument::kind::pointer:
        return "a pointer";
    case ::encore::kernel_argument::kind::scalar:
        return "a " + std::to_string(a.bytes.size()) + "-byte value";
    case ::encore::kernel_argument::kind::memory_object:
        return "a memory object";
    case ::encore::kernel_argument::kind::local_memory:
        return "local memory (a local_accessor)";
    }
    return "an argument of unknown kind";
}

std::shared_ptr<const kernel_bundle_impl> make_bundle(const context& c, const std::vector<device>& devices,
                                                      const std::vector<kernel_id>* only) {
    check_devices(c, devices, "get_kernel_bundle");
    auto b = std::make_shared<kernel_bundle_impl>(kernel_bundle_impl{c, {}});
    for (const auto& d : devices) // duplicates removed
        if (std::find(b->devices.begin(), b->devices.end(), d) == b->devices.end()) b->devices.push_back(d);
    if (only) {
        for (const auto& id : *only) {
            if (!runs_on_any(id, b->devices))
                throw exception(errc::invalid, std::string("get_kernel_bundle: kernel '") + id.get_name() +
                                                   "' runs on none of the devices (no device code for them)");
            if (!holds(*b, id)) b->ids.push_back(id);
        }
    } else {
        for (const auto& id : get_kernel_ids())
            if (runs_on_any(id, b->devices)) b->ids.push_back(id);
    }
    return b;
}

const context& bundle_context(const kernel_bundle_impl& b) noexcept {
    return b.ctx;
}
const std::vector<device>& bundle_devices(const kernel_bundle_impl& b) noexcept {
    return b.devices;
}
std::vector<kernel_id> bundle_kernel_ids(const kernel_bundle_impl& b) {
    return b.ids;
}
bool bundle_empty(const kernel_bundle_impl& b) noexcept {
    return b.ids.empty() && !b.program;
}

bool bundle_has_kernel(const kernel_bundle_impl& b, const kernel_id& id, const device* on) {
    if (!holds(b, id)) return false;
    if (!on) return true;
    if (std::find(b.devices.begin(), b.devices.end(), *on) == b.devices.end()) return false;
    return runs_on(*id.ext_encore_entry().engine(), *on);
}

kernel bundle_get_kernel(const kernel_bundle_impl& b, const kernel_id& id) {
    if (!holds(b, id))
        throw exception(errc::invalid,
                        std::string("kernel_bundle::get_kernel: the bundle does not hold kernel '") +
                            id.get_name() + "'");
    return kernel(id.ext_encore_entry().engine());
}

bool bundle_has_named_kernel(const kernel_bundle_impl& b, const std::string& name) {
    return b.program && b.program->has_kernel(name);
}

kernel bundle_get_named_kernel(const kernel_bundle_impl& b, const std::string& name) {
    if (!b.program)
        throw exception(errc::invalid,
                        "ext_oneapi_get_kernel(\"" + name +
                            "\"): the bundle was not built from source (take the application's "
                            "kernels by kernel_id)");
    try {
        return kernel(b.program->get_kernel(name));
    } catch (const ::encore::error& e) {
        throw exception(errc::invalid, std::string("ext_oneapi_get_kernel: ") + e.what());
    }
}

const std::string& bundle_build_log(const kernel_bundle_impl& b) noexcept {
    return b.log;
}

std::shared_ptr<const kernel_bundle_impl>
join_bundles(const std::vector<std::shared_ptr<const kernel_bundle_impl>>& bundles) {
    auto joined = std::make_shared<kernel_bundle_impl>(*bundles.front());
    for (const auto& b : bundles) {
        if (b->program || b->language)
            throw exception(errc::invalid, "join: a bundle built from source cannot be joined with others");
        if (!(b->ctx == joined->ctx))
            throw exception(errc::invalid, "join: the bundles have different contexts");
        for (const auto& d : b->devices)
            if (std::find(joined->devices.begin(), joined->devices.end(), d) == joined->devices.end())
                joined->devices.push_back(d);
        for (const auto& id : b->ids)
            if (!holds(*joined, id)) joined->ids.push_back(id);
    }
    return joined;
}

} // namespace detail

std::vector<kernel_id> get_kernel_ids() {
    auto& r = detail::registry();
    std::lock_guard guard(r.lock);
    std::vector<kernel_id> ids;
    for (const auto* k : r.kernels)
        ids.emplace_back(*k);
    return ids;
}

bool is_compatible(const std::vector<kernel_id>& ids, const device& d) {
    return std::all_of(ids.begin(), ids.end(), [&](const kernel_id& id) {
        return detail::runs_on(*id.ext_encore_entry().engine(), d);
    });
}

namespace detail {

std::optional<::encore::source_language>
engine_language(ext::oneapi::experimental::source_language l) noexcept {
    switch (l) {
    case ext::oneapi::experimental::source_language::opencl:
        return ::encore::source_language::opencl_c;
    case ext::oneapi::experimental::source_language::spirv:
        return ::encore::source_language::spirv;
    case ext::oneapi::experimental::source_language::ext_encore_cuda:
        return ::encore::source_language::cuda;
    case ext::oneapi::experimental::source_language::sycl:
        break;
    }
    return std::nullopt;
}

std::shared_ptr<const kernel_bundle_impl>
make_source_bundle(const context& c, std::optional<::encore::source_language> language,
                   std::vector<std::byte> source, const char* language_name) {
    const auto devices = c.get_devices();
    if (!language)
        throw exception(errc::invalid,
                        std::string("create_kernel_bundle_from_source: no device builds ") + language_name +
                            " source at run time (Encore compiles SYCL ahead of time: encore++)");
    if (std::none_of(devices.begin(), devices.end(),
                     [&](const device& d) { return d.engine().owner().builds(*language); }))
        throw exception(errc::invalid,
                        std::string("create_kernel_bundle_from_source: no device of the context builds ") +
                            language_name + " (the context's backend is " +
                            std::string(devices.front().engine().backend_name()) +
                            "; OpenCL C and SPIR-V build for OpenCL devices, CUDA C++ for CUDA devices)");
    auto b = std::make_shared<kernel_bundle_impl>(kernel_bundle_impl{c, devices});
    b->language = language;
    b->source = std::move(source);
    return b;
}

std::shared_ptr<const kernel_bundle_impl> build_source_bundle(const kernel_bundle_impl& source,
                                                              const std::vector<device>& devices,
                                                              const std::vector<std::string>& options,
                                                              std::string* log) {
    if (devices.empty()) throw exception(errc::invalid, "build: no device given");
    for (const auto& d : devices) {
        if (!source.ctx.contains(d))
            throw exception(errc::invalid, "build: device '" + d.engine().properties().name +
                                               "' is not in the "
                                               "bundle's context");
        if (!d.engine().owner().builds(*source.language))
            throw exception(errc::invalid, "build: device '" + d.engine().properties().name + "' (" +
                                               std::string(d.engine().backend_name()) + ") does not build " +
                                               std::string(::encore::to_string(*source.language)));
    }
    auto b = std::make_shared<kernel_bundle_impl>(kernel_bundle_impl{source.ctx, devices});
    const device& d = devices.front();
    try {
        b->program =
            d.engine().owner().build_program(d.engine().index(), *source.language, source.source, options);
    } catch (const ::encore::error& e) {
        switch (e.code()) {
        case ::encore::errc::build_failure:
            throw exception(errc::build, e.what());
        case ::encore::errc::invalid_argument:
        case ::encore::errc::feature_not_supported:
            throw exception(errc::invalid, std::string("build: ") + e.what());
        default:
            throw exception(errc::runtime, std::string("build: ") + e.what());
        }
    }
    b->log = b->program->build_log();
    if (log) *log = b->log;
    return b;
}

} // namespace detail

namespace ext::oneapi::experimental {

bool is_source_kernel_bundle_supported(backend b, source_language language) {
    switch (language) {
    case source_language::opencl:
    case source_language::spirv:
        return b == backend::opencl;
    case source_language::ext_encore_cuda:
        return b == backend::ext_oneapi_cuda;
    case source_language::sycl:
        break;
    }
    return false;
}

} // namespace ext::oneapi::experimental

bool device::ext_oneapi_can_compile(ext::oneapi::experimental::source_language language) const {
    const auto l = detail::engine_language(language);
    return l && engine_.owner().builds(*l);
}

} // namespace _V1
} // namespace sycl

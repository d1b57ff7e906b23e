#include "level_zero_module.hpp"

#include <atomic>
#include <cstring>

#include "encore/backends/detail/named_binary.hpp"
#include "encore/backends/level_zero/detail/api.hpp"
#include "encore/backends/level_zero/detail/build_module.hpp"
#include "encore/backends/level_zero/device_code.hpp"
#include "encore/cache/program_cache.hpp"
#include "encore/graph/error.hpp"

namespace encore::level_zero {

using detail::check;

namespace {

std::uint64_t next_module_id() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

// The Level Zero device behind an Encore device: the plugin numbers every device of every driver in the
// loader's order (detail::enumerate_devices), and so does this library.
detail::driver_device ze_device_of(const device& d, const char* call) {
    if (d.backend_name() != "level_zero")
        throw error(errc::invalid_argument, std::string(call) + ": device '" + d.properties().name +
                                                "' is a " + std::string(d.backend_name()) +
                                                " device, not a Level Zero one");
    const auto& ze = detail::api::get();
    std::string why;
    static const std::vector<detail::driver_device> devices = detail::enumerate_devices(ze, why);
    if (d.index() >= devices.size())
        throw error(errc::backend_failure, std::string(call) + ": Level Zero device " +
                                               std::to_string(d.index()) + " is not there (" +
                                               std::to_string(devices.size()) + " found)");
    return devices[d.index()];
}

// A context for building: a native binary belongs to no context, so the backend's own context loads it.
ze_context_handle_t build_context(ze_driver_handle_t driver) {
    static std::mutex mutex;
    static std::vector<std::pair<ze_driver_handle_t, detail::context_handle>> contexts;
    std::lock_guard lock(mutex);
    for (auto& [d, c] : contexts)
        if (d == driver) return c.get();
    ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    detail::context_handle made;
    check(detail::api::get().zeContextCreate(driver, &desc, made.out()), "zeContextCreate", "build_module");
    contexts.emplace_back(driver, std::move(made));
    return contexts.back().second.get();
}

// The module's kernel names and native binary, from a module the driver built.
module_binary describe_module(ze_module_handle_t m) {
    const auto& ze = detail::api::get();
    module_binary b;
    std::uint32_t count = 0;
    check(ze.zeModuleGetKernelNames(m, &count, nullptr), "zeModuleGetKernelNames");
    std::vector<const char*> names(count);
    if (count) check(ze.zeModuleGetKernelNames(m, &count, names.data()), "zeModuleGetKernelNames");
    for (std::uint32_t i = 0; i < count; ++i)
        b.kernel_names.emplace_back(names[i]);
    std::size_t size = 0;
    check(ze.zeModuleGetNativeBinary(m, &size, nullptr), "zeModuleGetNativeBinary");
    b.bytes.resize(size);
    if (size) check(ze.zeModuleGetNativeBinary(m, &size, b.bytes.data()), "zeModuleGetNativeBinary");
    return b;
}

module_binary create(const detail::driver_device& dd, ze_module_format_t format,
                     const std::vector<unsigned char>& in, const std::string& flags) {
    const auto& ze = detail::api::get();
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = format;
    desc.inputSize = in.size();
    desc.pInputModule = in.data();
    desc.pBuildFlags = flags.c_str();
    detail::module_handle m;
    detail::build_log_handle log;
    const ze_result_t r = ze.zeModuleCreate(build_context(dd.driver), dd.device, &desc, m.out(), log.out());
    std::string text = detail::build_log_text(ze, log.get());
    if (r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE || r == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY ||
        r == ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
        throw error(errc::build_failure,
                    std::string("build_module: the ") +
                        (format == ZE_MODULE_FORMAT_NATIVE ? "native binary" : "SPIR-V module") +
                        " does not build: " + detail::describe(r) +
                        (text.empty() ? "" : "\nbuild log:\n" + text));
    check(r, "zeModuleCreate", "build_module");
    module_binary b = describe_module(m.get());
    b.log = std::move(text);
    return b;
}

// Payload of a cache entry: the kernel names, one a line, a NUL, then the native binary.
class module_kernel final : public kernel {
public:
    module_kernel(std::shared_ptr<const module> m, std::string name)
        : kernel(std::move(name)), module_(std::move(m)) {
        code_.module_id = module_->id();
        code_.binary = module_->binary().bytes.data();
        code_.binary_bytes = module_->binary().bytes.size();
        code_.device_name = module_->binary().device_name.c_str();
        code_.entry = this->name().c_str();
    }
    void run(const work_item&, std::span<const kernel_argument>) const override {
        throw error(errc::feature_not_supported,
                    "kernel '" + name() +
                        "' is a Level Zero module kernel: it runs on Level Zero devices only");
    }
    const void* device_code(std::string_view backend) const noexcept override {
        return backend == "level_zero" ? &code_ : nullptr;
    }

private:
    std::shared_ptr<const module> module_;
    level_zero::device_code code_;
};

} // namespace

module_source module_source::spirv(std::vector<unsigned char> il) {
    return {format::spirv, std::move(il)};
}

module_source module_source::native(std::vector<unsigned char> binary) {
    return {format::native, std::move(binary)};
}

module_binary build_module(const device& d, const module_source& source,
                           std::span<const std::string> options) {
    return detail::build_module(ze_device_of(d, "build_module"), source, options);
}

module_binary detail::build_module(const driver_device& dd, const module_source& source,
                                   std::span<const std::string> options) {
    if (source.bytes.empty())
        throw error(errc::invalid_argument,
                    std::string("build_module: the ") +
                        (source.kind == module_source::format::spirv ? "SPIR-V module" : "native binary") +
                        " is empty");
    std::string flags;
    for (const auto& o : options) {
        if (o.find('\0') != std::string::npos)
            throw error(errc::invalid_argument, "build_module: a build option contains a NUL character");
        flags += (flags.empty() ? "" : " ") + o;
    }
    const auto& ze = detail::api::get();
    ze_device_properties_t p{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    check(ze.zeDeviceGetProperties(dd.device, &p), "zeDeviceGetProperties");
    const std::string device_name = p.name;
    if (source.kind == module_source::format::native) {
        // Nothing to compile: loading it checks it and names its kernels; the cache has nothing to save.
        module_binary b = create(dd, ZE_MODULE_FORMAT_NATIVE, source.bytes, flags);
        b.device_name = device_name;
        return b;
    }
    ze_driver_properties_t dp{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    check(ze.zeDriverGetProperties(dd.driver, &dp), "zeDriverGetProperties");
    cache::program_key key{.backend = "level_zero",
                           .device = device_name,
                           .toolchain = "level zero driver " + std::to_string(dp.driverVersion),
                           .source_kind = "spirv",
                           .name = "level_zero_module",
                           .options = std::vector<std::string>(options.begin(), options.end())};
    key.source.assign(reinterpret_cast<const char*>(source.bytes.data()), source.bytes.size());
    auto built = cache::program_cache::process().get_or_build<module_binary>(
        key,
        [&] {
            module_binary b = create(dd, ZE_MODULE_FORMAT_IL_SPIRV, source.bytes, flags);
            return cache::built_program{encore::detail::named_binary_payload(b.kernel_names, b.bytes), b.log};
        },
        [](const cache::built_program& payload) {
            auto b = std::make_shared<module_binary>();
            encore::detail::split_named_binary_payload(payload.payload, b->kernel_names, b->bytes, "build_module");
            b->log = payload.log;
            return std::shared_ptr<const module_binary>(std::move(b));
        });
    module_binary result = *built;
    result.device_name = device_name;
    return result;
}

module::module(module_binary binary) : binary_(std::move(binary)), id_(next_module_id()) {}

std::shared_ptr<const module> module::load(module_binary binary) {
    if (binary.bytes.empty()) throw error(errc::invalid_argument, "level_zero module: the binary is empty");
    return std::make_shared<const module>(std::move(binary));
}

bool module::has_kernel(const std::string& name) const {
    return encore::detail::has_kernel_named(binary_.kernel_names, name);
}

std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const module> m, std::string name) {
    if (!m) throw error(errc::invalid_argument, "get_kernel: no module");
    encore::detail::require_kernel_named(m->binary().kernel_names, name, "module");
    return std::make_shared<module_kernel>(std::move(m), std::move(name));
}

} // namespace encore::level_zero

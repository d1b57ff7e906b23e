#include "opencl_program.hpp"

#include <atomic>
#include <map>
#include <mutex>

#include "encore/backends/detail/named_binary.hpp"
#include "encore/backends/opencl/detail/api.hpp"
#include "encore/backends/opencl/detail/build_program.hpp"
#include "encore/backends/opencl/detail/device_info.hpp"
#include "encore/backends/opencl/device_code.hpp"
#include "encore/cache/program_cache.hpp"
#include "encore/graph/error.hpp"

namespace encore::opencl {

using detail::check;

namespace {

std::uint64_t next_program_id() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

// The OpenCL device behind an Encore device: the plugin numbers every device of every platform in the
// loader's order (detail::enumerate_devices), and so does this library.
detail::platform_device opencl_device_of(const device& d, const char* call) {
    if (d.backend_name() != "opencl")
        throw error(errc::invalid_argument, std::string(call) + ": device '" + d.properties().name +
                                                "' is a " + std::string(d.backend_name()) +
                                                " device, not an OpenCL one");
    std::string why;
    static const std::vector<detail::platform_device> devices = detail::enumerate_devices(why);
    if (d.index() >= devices.size())
        throw error(errc::backend_failure, std::string(call) + ": OpenCL device " +
                                               std::to_string(d.index()) + " is not there (" +
                                               std::to_string(devices.size()) + " found)");
    return devices[d.index()];
}

// A context per device for building: a binary does not belong to a context, so the backend's own context
// loads what was built here.
cl_context build_context(const detail::platform_device& pd) {
    static std::mutex mutex;
    static std::map<cl_device_id, detail::context_handle> contexts;
    std::lock_guard lock(mutex);
    auto& c = contexts[pd.device];
    if (!c) {
        const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                                    reinterpret_cast<cl_context_properties>(pd.platform), 0};
        cl_int r = CL_SUCCESS;
        cl_context made = detail::api::get().clCreateContext(properties, 1, &pd.device, nullptr, nullptr, &r);
        check(r, "clCreateContext", "build_program");
        c = detail::context_handle(made);
    }
    return c.get();
}

std::string build_log(cl_program p, cl_device_id d) {
    const auto& cl = detail::api::get();
    std::size_t size = 0;
    if (cl.clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return {};
    std::string log(size, '\0');
    if (cl.clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS)
        return {};
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log;
}

class program_kernel final : public kernel {
public:
    program_kernel(std::shared_ptr<const program> p, std::string name)
        : kernel(std::move(name)), program_(std::move(p)) {
        code_.program_id = program_->id();
        code_.binary = program_->binary().bytes.data();
        code_.binary_bytes = program_->binary().bytes.size();
        code_.device_name = program_->binary().device_name.c_str();
        code_.entry = this->name().c_str();
    }
    void run(const work_item&, std::span<const kernel_argument>) const override {
        throw error(errc::feature_not_supported,
                    "kernel '" + name() + "' was built for OpenCL and has no host form");
    }
    const void* device_code(std::string_view backend) const noexcept override {
        return backend == "opencl" ? &code_ : nullptr;
    }

private:
    std::shared_ptr<const program> program_;
    opencl::device_code code_;
};

} // namespace

program_source program_source::opencl_c(std::string text) {
    program_source s;
    s.kind = language::opencl_c;
    s.text = std::move(text);
    return s;
}

program_source program_source::spirv(std::vector<unsigned char> il) {
    program_source s;
    s.kind = language::spirv;
    s.il = std::move(il);
    return s;
}

program_source program_source::spir(std::vector<unsigned char> bitcode) {
    program_source s;
    s.kind = language::spir;
    s.il = std::move(bitcode);
    return s;
}

namespace {

const char* describe(program_source::language kind) {
    switch (kind) {
    case program_source::language::spirv:
        return "SPIR-V module";
    case program_source::language::spir:
        return "SPIR bitcode";
    case program_source::language::opencl_c:
        break;
    }
    return "OpenCL C source";
}

// Source, IL or SPIR bitcode -> the device's program binary and kernel names; the compiler's work, uncached.
program_binary compile(const detail::platform_device& pd, const std::string& device_name,
                       const program_source& source, const std::string& joined) {
    const auto& cl = detail::api::get();
    cl_context context = build_context(pd);
    cl_int r = CL_SUCCESS;
    detail::program_handle p;
    std::string options = joined;
    if (source.kind == program_source::language::spirv) {
        p = detail::program_handle(cl.clCreateProgramWithIL(context, source.il.data(), source.il.size(), &r));
        check(r, "clCreateProgramWithIL", device_name);
    } else if (source.kind == program_source::language::spir) {
        const unsigned char* bitcode = source.il.data();
        const std::size_t size = source.il.size();
        cl_int status = CL_SUCCESS;
        p = detail::program_handle(cl.clCreateProgramWithBinary(context, 1, &pd.device, &size, &bitcode, &status, &r));
        if (r == CL_INVALID_BINARY || status == CL_INVALID_BINARY)
            throw error(errc::build_failure, "build_program: '" + device_name +
                                                 "' does not take the SPIR bitcode (clCreateProgramWithBinary: " +
                                                 detail::describe(r == CL_SUCCESS ? status : r) + ")");
        check(r, "clCreateProgramWithBinary", device_name);
        options = "-x spir -spir-std=1.2" + (joined.empty() ? std::string() : " " + joined);
    } else {
        const char* text = source.text.c_str();
        const std::size_t length = source.text.size();
        p = detail::program_handle(cl.clCreateProgramWithSource(context, 1, &text, &length, &r));
        check(r, "clCreateProgramWithSource", device_name);
    }
    r = cl.clBuildProgram(p.get(), 1, &pd.device, options.c_str(), nullptr, nullptr);
    program_binary result;
    result.log = build_log(p.get(), pd.device);
    if (r == CL_COMPILER_NOT_AVAILABLE)
        throw error(errc::feature_not_supported,
                    "build_program: '" + device_name + "' has no compiler (" + detail::describe(r) + ")");
    if (r == CL_BUILD_PROGRAM_FAILURE || r == CL_INVALID_BUILD_OPTIONS || r == CL_INVALID_BINARY)
        throw error(errc::build_failure,
                    "build_program: the " + std::string(describe(source.kind)) + " does not build for '" +
                        device_name + "' (" + detail::describe(r) +
                        (options.empty() ? "" : ", options '" + options + "'") + "):\n" + result.log);
    check(r, "clBuildProgram", device_name);

    std::size_t bytes = 0;
    check(cl.clGetProgramInfo(p.get(), CL_PROGRAM_BINARY_SIZES, sizeof bytes, &bytes, nullptr),
          "clGetProgramInfo");
    result.bytes.resize(bytes);
    unsigned char* target = result.bytes.data();
    check(cl.clGetProgramInfo(p.get(), CL_PROGRAM_BINARIES, sizeof target, &target, nullptr),
          "clGetProgramInfo");
    std::size_t names_size = 0;
    check(cl.clGetProgramInfo(p.get(), CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &names_size), "clGetProgramInfo");
    std::string names(names_size, '\0');
    check(cl.clGetProgramInfo(p.get(), CL_PROGRAM_KERNEL_NAMES, names_size, names.data(), nullptr),
          "clGetProgramInfo");
    for (std::size_t begin = 0; begin < names.size();) {
        std::size_t end = names.find_first_of(";", begin);
        if (end == std::string::npos) end = names.size();
        std::string name = names.substr(begin, end - begin);
        while (!name.empty() && name.back() == '\0')
            name.pop_back();
        if (!name.empty()) result.kernel_names.push_back(std::move(name));
        begin = end + 1;
    }
    return result;
}

} // namespace

// The one build step: source or IL -> the device's program binary, through the kernel/program cache (keyed by
// device name, platform and driver versions, language, options and source), so a repeated build does not pay
// the driver's compiler again.
program_binary build_program(const device& d, const program_source& source,
                             std::span<const std::string> options) {
    return detail::build_program(opencl_device_of(d, "build_program"), source, options);
}

program_binary detail::build_program(const platform_device& pd, const program_source& source,
                                     std::span<const std::string> options) {
    const auto& cl = detail::api::get();
    const std::string device_name = detail::device_string(pd.device, CL_DEVICE_NAME);
    const bool il = source.kind == program_source::language::spirv;
    const bool spir = source.kind == program_source::language::spir;
    if (il || spir ? source.il.empty() : source.text.empty())
        throw error(errc::invalid_argument, std::string("build_program: the ") +
                                                (il || spir ? opencl::describe(source.kind) : "source") + " is empty");
    std::string joined;
    for (const auto& o : options) {
        if (o.find('\0') != std::string::npos)
            throw error(errc::invalid_argument, "build_program: a build option contains a NUL character");
        if (!joined.empty()) joined += ' ';
        joined += o;
    }
    if (il) {
        const std::string il_version = detail::device_string(pd.device, CL_DEVICE_IL_VERSION);
        if (il_version.find("SPIR-V") == std::string::npos)
            throw error(errc::feature_not_supported, "build_program: device '" + device_name +
                                                         "' takes no SPIR-V (CL_DEVICE_IL_VERSION is '" +
                                                         il_version + "'); give it OpenCL C source");
        if (!cl.clCreateProgramWithIL)
            throw error(errc::feature_not_supported,
                        "build_program: the OpenCL loader has no clCreateProgramWithIL");
    }
    if (spir) {
        const std::string extensions = detail::device_string(pd.device, CL_DEVICE_EXTENSIONS);
        if (extensions.find("cl_khr_spir") == std::string::npos)
            throw error(errc::feature_not_supported, "build_program: device '" + device_name +
                                                         "' takes no SPIR bitcode (no cl_khr_spir among its "
                                                         "extensions); give it SPIR-V or OpenCL C source");
    }
    const std::string driver_version = detail::device_string(pd.device, CL_DRIVER_VERSION);
    cache::program_key key{.backend = "opencl",
                           .device = device_name,
                           .toolchain = detail::platform_string(pd.platform, CL_PLATFORM_NAME) + " " +
                                        detail::platform_string(pd.platform, CL_PLATFORM_VERSION) +
                                        "; driver " + driver_version,
                           .source_kind = il ? "spirv" : spir ? "spir" : "opencl-c",
                           .name = "opencl_program",
                           .options = std::vector<std::string>(options.begin(), options.end())};
    key.source = il || spir ? std::string(reinterpret_cast<const char*>(source.il.data()), source.il.size())
                            : source.text;
    auto built = cache::program_cache::process().get_or_build<program_binary>(
        key,
        [&] {
            program_binary b = opencl::compile(pd, device_name, source, joined);
            return cache::built_program{encore::detail::named_binary_payload(b.kernel_names, b.bytes), b.log};
        },
        [](const cache::built_program& p) {
            auto b = std::make_shared<program_binary>();
            encore::detail::split_named_binary_payload(p.payload, b->kernel_names, b->bytes, "build_program");
            b->log = p.log;
            return std::shared_ptr<const program_binary>(std::move(b));
        });
    program_binary result = *built;
    result.device_name = device_name;
    result.driver_version = driver_version;
    return result;
}

program::program(program_binary binary) : binary_(std::move(binary)), id_(next_program_id()) {}

std::shared_ptr<const program> program::load(program_binary binary) {
    if (binary.bytes.empty()) throw error(errc::invalid_argument, "opencl program: the binary is empty");
    return std::make_shared<const program>(std::move(binary));
}

bool program::has_kernel(const std::string& name) const {
    return encore::detail::has_kernel_named(binary_.kernel_names, name);
}

std::shared_ptr<const kernel> get_kernel(std::shared_ptr<const program> p, std::string name) {
    if (!p) throw error(errc::invalid_argument, "get_kernel: no program");
    encore::detail::require_kernel_named(p->binary().kernel_names, name, "program");
    return std::make_shared<program_kernel>(std::move(p), std::move(name));
}

capabilities capabilities_of(const device& d) {
    const detail::platform_device pd = opencl_device_of(d, "capabilities_of");
    const detail::device_capabilities c = detail::query_capabilities(pd.device);
    capabilities result;
    result.usm = std::string(detail::to_string(c.usm));
    result.command_buffers = c.command_buffer != 0;
    if (c.command_buffer) result.command_buffer_version = detail::version_string(c.command_buffer);
    result.mutable_dispatch = c.mutable_dispatch != 0;
    result.updates_in_place = detail::updates_kernels_in_place(c);
    result.il_version = c.il_version;
    result.spir = detail::device_string(pd.device, CL_DEVICE_EXTENSIONS).find("cl_khr_spir") != std::string::npos;
    return result;
}

} // namespace encore::opencl

#include "backend_registry.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "encore/backends/native/native_backend.hpp"
#include "encore/runtime/program_device_code.hpp"
#include "encore/graph/error.hpp"
#include "runtime/build_tree.hpp" // generated in the build root (runtime/meson.build)

namespace encore {

namespace {

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> out;
    while (!text.empty()) {
        auto end = text.find(separator);
        auto piece = text.substr(0, end);
        while (!piece.empty() && piece.front() == ' ')
            piece.remove_prefix(1);
        while (!piece.empty() && piece.back() == ' ')
            piece.remove_suffix(1);
        if (!piece.empty()) out.emplace_back(piece);
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return out;
}

bool valid_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
               c == '-';
    });
}

bool is_file(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

// Whether two paths name one directory (a build tree may be reached through links).
bool same_directory(const std::string& a, const std::string& b) {
    struct stat first {}, second {};
    return ::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0 && first.st_dev == second.st_dev &&
           first.st_ino == second.st_ino;
}

// The directory libencore was loaded from: plugins installed beside it are found without configuration.
std::string library_directory() {
    Dl_info info{};
    if (::dladdr(reinterpret_cast<const void*>(&library_directory), &info) == 0 || !info.dli_fname) return {};
    std::string path = info.dli_fname;
    auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string describe_devices(const backend& b) {
    std::string text = std::to_string(b.device_count()) + (b.device_count() == 1 ? " device" : " devices");
    for (std::uint32_t d = 0; d < b.device_count(); ++d)
        text += (d ? ", " : ": ") + b.properties(d).name;
    return text;
}

// RAII for a dlopen handle.
struct library_handle {
    void* handle = nullptr;
    explicit library_handle(void* h) : handle(h) {}
    ~library_handle() {
        if (handle) ::dlclose(handle);
    }
    library_handle(const library_handle&) = delete;
    library_handle& operator=(const library_handle&) = delete;
};

} // namespace

// Members in this order so that the backend, whose code lives in the library, is destroyed before dlclose.
struct backend_registry::plugin {
    std::string name;
    std::unique_ptr<library_handle> library; // null for the built-in native backend
    std::unique_ptr<encore::backend> instance;
    ~plugin() { instance.reset(); }
};

registry_options registry_options::from_environment() {
    registry_options options;
    if (const char* backends = std::getenv("ENCORE_BACKENDS"); backends && *backends)
        options.backends = backends;
    if (const char* path = std::getenv("ENCORE_BACKEND_PATH")) options.search_path = path;
    // Set but empty is a value too: device_filter::parse says why it selects nothing.
    if (const char* selector = std::getenv("ONEAPI_DEVICE_SELECTOR")) options.device_selector = selector;
    if (const char* trace = std::getenv("ENCORE_TRACE"))
        options.trace = *trace && std::string_view(trace) != "0";
    return options;
}

backend_registry::backend_registry(registry_options options) : options_(std::move(options)) {
    if (options_.device_selector) filter_ = device_filter::parse(*options_.device_selector);
    // Beside libencore, then its encore/ folder (an installed prefix: <libdir>/encore), then ENCORE_BACKEND_PATH,
    // and last, for a libencore loaded from the build tree it was built in (a program of that tree: bench, samples,
    // tests), that build's plugin folders: a path the user names wins over them.
    const auto own = library_directory();
    if (!own.empty()) {
        directories_.push_back(own);
        directories_.push_back(own + "/encore");
    }
    for (auto& d : split(options_.search_path, ':'))
        directories_.push_back(d);
    if (!own.empty() && same_directory(own, detail::build_root))
        for (auto& d : split(detail::build_plugin_directories, ':')) directories_.push_back(d);

    std::string searched;
    for (const auto& d : directories_)
        searched += (searched.empty() ? "" : ", ") + d;
    note("backends in order of preference: " + options_.backends +
         "; plugins searched in: " + (searched.empty() ? "(no directory)" : searched));

    std::vector<std::string> seen;
    for (auto& name : split(options_.backends, ',')) {
        if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
            note("backend '" + name + "': listed twice; the first place counts");
            continue;
        }
        seen.push_back(name);
        if (!filter_.may_accept(name)) {
            report(name, backend_report::outcome::not_selected, {},
                   "not loaded: ONEAPI_DEVICE_SELECTOR=" + *options_.device_selector +
                       " selects none of its devices");
            continue;
        }
        load(name);
    }
    for (auto* b : order_)
        for (std::uint32_t d = 0; d < b->device_count(); ++d) {
            if (filter_.accepts(b->name(), d, b->properties(d).type))
                devices_.emplace_back(*b, d);
            else {
                hidden_.emplace_back(*b, d);
                note("backend '" + std::string(b->name()) + "': device " + std::to_string(d) + " (" +
                     b->properties(d).name + ") hidden by ONEAPI_DEVICE_SELECTOR=" + *options_.device_selector);
            }
        }
    if (order_.empty()) note("no backend loaded: no device is available to this process");
    else if (devices_.empty()) note("no device visible: ONEAPI_DEVICE_SELECTOR=" + *options_.device_selector +
                                    " hides every device of the loaded backends");
}

backend_registry::~backend_registry() = default;

std::string_view to_string(backend_report::outcome outcome) noexcept {
    switch (outcome) {
    case backend_report::outcome::loaded:
        return "loaded";
    case backend_report::outcome::not_selected:
        return "not selected";
    case backend_report::outcome::absent:
        return "absent";
    case backend_report::outcome::load_failed:
        return "failed to load";
    case backend_report::outcome::other_version:
        return "other interface version";
    case backend_report::outcome::unavailable:
        return "unavailable";
    case backend_report::outcome::no_device:
        return "no device";
    case backend_report::outcome::bad_name:
        return "bad name";
    }
    return "unknown";
}

backend_registry& backend_registry::global() {
    static backend_registry registry(registry_options::from_environment());
    return registry;
}

void backend_registry::note(std::string line) {
    std::lock_guard lock(trace_mutex_);
    if (options_.trace) std::fprintf(stderr, "encore: %s\n", line.c_str());
    trace_.push_back(std::move(line));
}

std::vector<std::string> backend_registry::trace() const {
    std::lock_guard lock(trace_mutex_);
    return trace_;
}

device backend_registry::default_device() {
    if (devices_.empty())
        throw error(errc::backend_failure, "no device: no backend could be loaded or ONEAPI_DEVICE_SELECTOR hides "
                                           "every device (ENCORE_BACKENDS lists the backends to try; set "
                                           "ENCORE_TRACE=1 to see why each was not loaded)");
    // The choice changes only when the program notes device code for another backend; queues and buffers ask
    // for the default device often, so the answer is kept.
    const std::size_t noted = program_device_code_count();
    {
        std::lock_guard lock(trace_mutex_);
        if (default_ && default_for_count_ == noted) return *default_;
    }
    const device chosen = choose_default();
    std::lock_guard lock(trace_mutex_);
    default_ = chosen;
    default_for_count_ = noted;
    return chosen;
}

device backend_registry::choose_default() {
    // Devices are in order of preference; the first that can run what this program compiled wins.
    std::string skipped;
    for (const auto& d : devices_) {
        const auto& p = d.properties();
        const std::string label = std::string(d.backend_name()) + ":" + std::to_string(d.index()) + " (" + p.name + ")";
        if (!d.runs_program_kernels()) {
            skipped += "; skipped " + label +
                       (program_has_device_code(d.backend_name())
                            ? ": it takes neither form of the program's " + std::string(d.backend_name()) +
                                  " code (encore++'s SPIR-V and SPIR 1.2 bitcode)"
                            : ": the program carries no device code for " + std::string(d.backend_name()) +
                                  " (its kernels were compiled for the host only; select it explicitly for kernels "
                                  "built at run time)");
            continue;
        }
        const std::string why = p.host_kernels
                                    ? "it runs the program's host-compiled kernels"
                                    : "the program carries device code for " + std::string(d.backend_name());
        explain_default("default device: " + label + ", because " + why + skipped);
        return d;
    }
    const auto& first = devices_.front();
    explain_default("default device: " + std::string(first.backend_name()) + ":" + std::to_string(first.index()) +
                    " (" + first.properties().name + "), the first visible device: none of the visible devices "
                    "can run host-compiled kernels or the device code the program carries");
    return first;
}

std::string backend_registry::default_device_explanation() {
    default_device();
    std::lock_guard lock(trace_mutex_);
    constexpr std::string_view prefix = "default device: ";
    return last_choice_.rfind(prefix, 0) == 0 ? last_choice_.substr(prefix.size()) : last_choice_;
}

void backend_registry::explain_default(std::string line) {
    {
        std::lock_guard lock(trace_mutex_);
        if (line == last_choice_) return;
        last_choice_ = line;
    }
    note(std::move(line));
}

void backend_registry::report(const std::string& name, backend_report::outcome result, std::string path,
                              std::string reason) {
    note("backend '" + name + "': " + reason);
    reports_.push_back({name, result, std::move(path), std::move(reason)});
}

void backend_registry::load(const std::string& name) {
    using outcome = backend_report::outcome;
    if (!valid_name(name)) {
        report(name, outcome::bad_name, {},
               "not a backend name (letters, digits, '_' and '-' only); skipped");
        return;
    }
    auto entry = std::make_unique<plugin>();
    entry->name = name;
    std::string path;
    std::string loaded;
    if (name == "native") {
        try {
            entry->instance = native::make_backend();
        } catch (const std::exception& e) {
            report(name, outcome::load_failed, {}, std::string("built in, but failed to start: ") + e.what());
            return;
        }
        loaded = "built in, " + describe_devices(*entry->instance);
    } else {
        const std::string file = "libencore-backend-" + name + ".so";
        for (const auto& d : directories_)
            if (is_file(d + "/" + file)) {
                path = d + "/" + file;
                break;
            }
        if (path.empty()) {
            report(name, outcome::absent, {},
                   "not loaded: " + file + " is in none of the searched directories");
            return;
        }
        void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = ::dlerror();
            // dlerror names the library that is missing, which may be the driver rather than the plugin itself.
            report(name, outcome::load_failed, path,
                   "not loaded: " + path + ": " + (why ? why : "dlopen failed"));
            return;
        }
        entry->library = std::make_unique<library_handle>(handle);
        auto entry_point =
            reinterpret_cast<encore_backend_entry_function>(::dlsym(handle, ENCORE_BACKEND_ENTRY_NAME));
        if (!entry_point) {
            report(name, outcome::load_failed, path,
                   "not loaded: " + path + " exports no " ENCORE_BACKEND_ENTRY_NAME);
            return;
        }
        backend_plugin_request request;
        try {
            entry_point(&request);
        } catch (const std::exception& e) {
            report(name, outcome::load_failed, path, "not loaded: " + path + " failed to start: " + e.what());
            return;
        } catch (...) {
            report(name, outcome::load_failed, path, "not loaded: " + path + " failed to start");
            return;
        }
        if (!request.instance) {
            // Plugins return without a word when the runtime speaks another interface version (backend.hpp).
            if (request.unavailable_reason.empty())
                report(name, outcome::other_version, path,
                       "unavailable: the plugin made no backend (interface version " +
                           std::to_string(backend_interface_version) + "?) (" + path + ")");
            else
                report(name, outcome::unavailable, path,
                       "unavailable: " + request.unavailable_reason + " (" + path + ")");
            return;
        }
        entry->instance = std::move(request.instance);
        loaded = "loaded " + path + ", " + describe_devices(*entry->instance);
    }
    if (entry->instance->device_count() == 0) {
        note("backend '" + name + "': " + loaded);
        report(name, outcome::no_device, path, "has no device; not used");
        return;
    }
    report(name, outcome::loaded, path, loaded);
    order_.push_back(entry->instance.get());
    plugins_.push_back(std::move(entry));
}

backend* backend_registry::find(std::string_view name) const noexcept {
    for (auto* b : order_)
        if (b->name() == name) return b;
    return nullptr;
}

} // namespace encore

// The process-wide table of kernels registered by integration headers (kernel_descriptor.hpp). Registration
// runs during static initialization of each translation unit; lookups may come from any thread later, so one
// mutex guards both (registration is rare and lookups are cheap: a hash map of string views into the static
// tables).
#include "encore/compiler/kernel_descriptor.hpp"

#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "encore/backends/gpu/module_kernel.hpp"
#include "encore/runtime/program_device_code.hpp"

namespace encore::compiler {
namespace {

struct registry {
    std::mutex mutex;
    std::unordered_map<std::string_view, const kernel_descriptor*> by_type;
    std::unordered_map<const kernel_descriptor*, std::string_view> unit_of;
    std::vector<const kernel_descriptor*> in_order;
    std::deque<device_image> images; // a deque: found images stay where they are
    std::vector<device_global_symbol> globals;
};

// A function-local static: integration headers register from other translation units' static initializers,
// whose order relative to this file's is unspecified.
registry& the_registry() {
    static registry r;
    return r;
}

} // namespace

void register_kernels(std::span<const kernel_descriptor> kernels, const char* translation_unit) {
    registry& r = the_registry();
    std::lock_guard lock(r.mutex);
    for (const kernel_descriptor& k : kernels)
        if (r.by_type.emplace(k.type_name, &k).second) {
            r.in_order.push_back(&k);
            r.unit_of.emplace(&k, translation_unit);
        }
}

void register_image(const char* backend, const void* data, std::size_t size, const char* translation_unit,
                    const char* entry, const char* architectures, const void* portable, std::size_t portable_size) {
    {
        registry& r = the_registry();
        std::lock_guard lock(r.mutex);
        // One image registered for several translation units (encore++'s -fsycl-device-code-split=off: the
        // program's device code linked into one) keeps one id: backends load it once.
        std::uint64_t id = 0;
        for (const device_image& known : r.images)
            if (known.data == data && std::string_view(known.backend) == backend) id = known.id;
        r.images.push_back({backend, data, size, id ? id : gpu::next_image_id(), translation_unit, entry,
                            architectures ? architectures : "", portable, portable_size});
    }
    note_program_device_code(backend, std::string("encore++ image of ") + translation_unit);
}

const device_image* find_image(std::string_view backend, const kernel_descriptor& kernel) noexcept {
    registry& r = the_registry();
    std::lock_guard lock(r.mutex);
    auto unit = r.unit_of.find(&kernel);
    if (unit == r.unit_of.end()) return nullptr;
    const device_image* whole_unit = nullptr;
    for (const device_image& image : r.images)
        if (image.backend == backend && image.translation_unit == unit->second) {
            if (!image.entry) whole_unit = &image;
            else if (kernel.entry && std::string_view(image.entry) == kernel.entry) return &image;
        }
    return whole_unit;
}

const device_image* find_image(std::string_view backend, std::string_view translation_unit) noexcept {
    registry& r = the_registry();
    std::lock_guard lock(r.mutex);
    for (const device_image& image : r.images)
        if (image.backend == backend && image.translation_unit == translation_unit && !image.entry) return &image;
    return nullptr;
}

void register_device_global(const void* host_object, const char* translation_unit, const char* symbol) {
    registry& r = the_registry();
    std::lock_guard lock(r.mutex);
    r.globals.push_back({host_object, translation_unit, symbol});
}

std::vector<device_global_symbol> find_device_globals(const void* host_object) {
    registry& r = the_registry();
    std::lock_guard lock(r.mutex);
    std::vector<device_global_symbol> found;
    for (const device_global_symbol& g : r.globals)
        if (g.host_object == host_object) found.push_back(g);
    return found;
}

const kernel_descriptor* find_kernel(std::string_view type_name) noexcept {
    registry& r = the_registry();
    std::lock_guard lock(r.mutex);
    auto found = r.by_type.find(type_name);
    return found == r.by_type.end() ? nullptr : found->second;
}

std::vector<const kernel_descriptor*> registered_kernels() {
    registry& r = the_registry();
    std::lock_guard lock(r.mutex);
    return r.in_order;
}

} // namespace encore::compiler

// The process-wide table of kernels registered by integration headers (kernel_descriptor.hpp). Registration
// runs during static initialization of each translation unit; lookups may come from any thread later, so one
// mutex guards both (registration is rare and lookups are cheap: a hash map of string views into the static
// tables).
#include "encore/compiler/kernel_descriptor.hpp"

#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace encore::compiler {
namespace {

struct registry {
    std::mutex mutex;
    std::unordered_map<std::string_view, const kernel_descriptor*> by_type;
    std::vector<const kernel_descriptor*> in_order;
};

// A function-local static: integration headers register from other translation units' static initializers,
// whose order relative to this file's is unspecified.
registry& the_registry() {
    static registry r;
    return r;
}

} // namespace

void register_kernels(std::span<const kernel_descriptor> kernels, const char* translation_unit) {
    static_cast<void>(translation_unit); // kept for messages once images are registered per translation unit
    registry& r = the_registry();
    std::lock_guard lock(r.mutex);
    for (const kernel_descriptor& k : kernels)
        if (r.by_type.emplace(k.type_name, &k).second) r.in_order.push_back(&k);
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

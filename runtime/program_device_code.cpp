#include "program_device_code.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>

namespace encore {

namespace {
struct registry {
    std::mutex mutex;
    std::vector<std::pair<std::string, std::string>> backends; // name, origin
    std::atomic<std::size_t> count{0};
};
// A function-local static: static initializers of other libraries may call in before this one's have run.
registry& noted() {
    static registry r;
    return r;
}
} // namespace

void note_program_device_code(std::string_view backend, std::string_view origin) {
    auto& r = noted();
    std::lock_guard lock(r.mutex);
    if (std::none_of(r.backends.begin(), r.backends.end(), [&](const auto& b) { return b.first == backend; })) {
        r.backends.emplace_back(std::string(backend), std::string(origin));
        r.count.store(r.backends.size(), std::memory_order_release);
    }
}

std::size_t program_device_code_count() noexcept {
    return noted().count.load(std::memory_order_acquire);
}

bool program_has_device_code(std::string_view backend) {
    auto& r = noted();
    std::lock_guard lock(r.mutex);
    return std::any_of(r.backends.begin(), r.backends.end(), [&](const auto& b) { return b.first == backend; });
}

std::vector<std::string> program_device_code() {
    auto& r = noted();
    std::lock_guard lock(r.mutex);
    std::vector<std::string> out;
    for (const auto& [name, origin] : r.backends)
        out.push_back(name + " (" + origin + ")");
    return out;
}

} // namespace encore

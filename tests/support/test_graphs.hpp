// Small helpers shared by the unit tests.
#pragma once

#include <memory>
#include <string>

#include "encore/graph/graph.hpp"

namespace encore::testing {

// A kernel that only has a name: enough for graph-structure tests.
class named_kernel final : public kernel {
public:
    using kernel::kernel;
    void run(const work_item&, std::span<const kernel_argument>) const override {}
};

inline kernel_command make_kernel(const std::string& name, std::size_t global = 64) {
    kernel_command k;
    k.kernel = std::make_shared<named_kernel>(name);
    k.range.global = {global, 1, 1};
    return k;
}

inline host_task_command make_host_task() { return host_task_command{[] {}}; }

// A pointer value for tests that never dereference it (golden files need fixed addresses).
inline void* fake_pointer(std::uintptr_t value) { return reinterpret_cast<void*>(value); }

} // namespace encore::testing

#define DOCTEST_CONFIG_INCLUDE_TYPE_TRAITS
#include <doctest/doctest.h>
#include <sstream>

// Lets doctest print vectors (of vectors) of node indices when a CHECK fails.
namespace doctest {
template <typename T> struct StringMaker<std::vector<T>> {
    static String convert(const std::vector<T>& values) {
        std::ostringstream out;
        out << "{";
        for (std::size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << doctest::toString(values[i]);
        out << "}";
        return String(out.str().c_str());
    }
};
} // namespace doctest

// Helpers of the Level Zero backend tests: the Level Zero device, the test kernels (a native binary of the
// test driver, built from kernels/test_kernels.cpp and found through ENCORE_ZE_TEST_KERNELS), USM arrays that
// free themselves, and the test driver's call counters.
#pragma once

#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "encore/backends/level_zero/level_zero_module.hpp"
#include "encore/runtime/runtime.hpp"
#include "level_zero/driver/driver_counters.h"
#include "support/usm_array.hpp"

namespace encore::level_zero_testing {

inline device level_zero_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == "level_zero") return d;
    throw error(errc::backend_failure, "no level_zero device (the test main checks this first)");
}

inline device native_device() {
    for (const auto& d : device::all())
        if (d.backend_name() == "native") return d;
    throw error(errc::backend_failure, "no native device (ENCORE_BACKENDS names it)");
}

inline std::vector<unsigned char> read_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw error(errc::invalid_argument, std::string("cannot read ") + path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::vector<unsigned char> test_kernels_binary() {
    const char* path = std::getenv("ENCORE_ZE_TEST_KERNELS");
    if (!path) throw error(errc::invalid_argument, "ENCORE_ZE_TEST_KERNELS is not set (meson test sets it)");
    return read_file(path);
}

// The test kernels, loaded once for the Level Zero device.
inline const std::shared_ptr<const level_zero::module>& test_module() {
    static const auto m = level_zero::module::load(level_zero::build_module(
        level_zero_device(), level_zero::module_source::native(test_kernels_binary())));
    return m;
}

inline std::shared_ptr<const kernel> test_kernel(const char* name) {
    return level_zero::get_kernel(test_module(), name);
}

template <typename T> class usm : public testing::usm_array<T> {
public:
    explicit usm(std::size_t count, memory_kind kind = memory_kind::shared)
        : testing::usm_array<T>(count, level_zero_device(), kind) {}
};

// The test driver's counters (driver/driver_counters.h), from the copy the loader loaded.
inline encore_ze_driver_counters driver_counters() {
    const char* path = std::getenv("ZE_ENABLE_ALT_DRIVERS");
    void* driver = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (!driver) throw error(errc::backend_failure, "the Level Zero test driver is not loaded");
    auto counters = reinterpret_cast<encore_ze_test_driver_counters_function>(
        dlsym(driver, ENCORE_ZE_TEST_DRIVER_COUNTERS_SYMBOL));
    dlclose(driver); // the loader's reference stays
    if (!counters) throw error(errc::backend_failure, "the Level Zero test driver exports no counters");
    encore_ze_driver_counters c{};
    counters(&c);
    return c;
}

// a - b, field by field.
inline encore_ze_driver_counters operator-(const encore_ze_driver_counters& a,
                                           const encore_ze_driver_counters& b) {
    encore_ze_driver_counters d{};
    d.api_calls = a.api_calls - b.api_calls;
    d.command_lists = a.command_lists - b.command_lists;
    d.immediate_lists = a.immediate_lists - b.immediate_lists;
    d.list_resets = a.list_resets - b.list_resets;
    d.list_closes = a.list_closes - b.list_closes;
    d.appends = a.appends - b.appends;
    d.executes = a.executes - b.executes;
    d.lists_executed = a.lists_executed - b.lists_executed;
    d.event_pools = a.event_pools - b.event_pools;
    d.events = a.events - b.events;
    d.host_signals = a.host_signals - b.host_signals;
    d.kernel_launches_run = a.kernel_launches_run - b.kernel_launches_run;
    return d;
}

} // namespace encore::level_zero_testing

// Helpers shared by the runtime tests: the devices every behaviour test runs on, USM arrays that free
// themselves, and a rendezvous that proves two pieces of work run at the same time.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "encore/runtime/runtime.hpp"
#include "support/test_kernels.hpp"
#include "support/usm_array.hpp"

namespace encore::testing {

// One test body, many backends: every device of the global registry. The test environment (tests/runtime/
// meson.build) loads the native backend and the counting plugin, which forwards to a native backend of its
// own, so every behaviour test also runs through the plugin interface.
inline std::vector<device> devices_under_test() {
    return device::all();
}

inline std::string name_of(const device& d) {
    return std::string(d.backend_name()) + ": " + d.properties().name;
}

// Two parties that each wait for the other. Run serially, the first would wait forever; here it gives up
// after `patience` and the rendezvous reports that it did not happen (a failed test, not a hung one).
class rendezvous {
public:
    explicit rendezvous(std::chrono::seconds patience = std::chrono::seconds(30)) : patience_(patience) {}
    // Returns true when the other party arrived too.
    bool arrive_and_wait() {
        arrived_.fetch_add(1);
        auto give_up = std::chrono::steady_clock::now() + patience_;
        while (arrived_.load() < 2)
            if (std::chrono::steady_clock::now() > give_up)
                return false;
            else
                std::this_thread::yield();
        return true;
    }

private:
    std::atomic<int> arrived_{0};
    std::chrono::seconds patience_;
};

// A latch a host task can wait on until the test opens it (with the same give-up rule).
class gate {
public:
    void open() { open_.store(true); }
    bool wait(std::chrono::seconds patience = std::chrono::seconds(30)) const {
        auto give_up = std::chrono::steady_clock::now() + patience;
        while (!open_.load())
            if (std::chrono::steady_clock::now() > give_up)
                return false;
            else
                std::this_thread::sleep_for(std::chrono::microseconds(50));
        return true;
    }

private:
    std::atomic<bool> open_{false};
};

// add(p, value) of tests/support/test_kernels.hpp for d's backend: p[i] += value for `items` work-items.
inline kernel_command add_command(const device& d, int* data, int value, std::size_t items) {
    return kernel_command{kernels_for(d).add,
                          {kernel_argument::from_pointer(data), kernel_argument::from_scalar(value)},
                          range(items)};
}

} // namespace encore::testing

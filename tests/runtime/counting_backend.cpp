// A test plugin: libencore-backend-counting.so. It forwards every call to a native backend of its own and
// counts the calls, so tests can see that work really went through the plugin interface. Built a second time
// with ENCORE_COUNTING_GPU as libencore-backend-counting_gpu.so: the same, but its device presents itself as a
// GPU that runs no host-compiled kernels (as the CUDA backend's do), for the default-device rule's tests. The counts are read
// with dlsym from the loaded library (encore_counting_calls). One refusal, so tests can see what the runtime
// does with a backend's: updating a kernel node to a range of 7 items throws errc::feature_not_supported.
// ENCORE_COUNTING_DEVICES=N (1 to 8; 1 when unset) gives it N devices, all running on its one native device, each
// with queues and lowerings of its own: the multi-device graph tests' devices of one backend.
#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

#include "encore/backends/backend.hpp"
#include "encore/backends/native/native_backend.hpp"
#include "encore/graph/error.hpp"

namespace {

std::atomic<unsigned> submits{0}, lowerings{0}, launches{0}, updates{0}, allocations{0};

class counting_queue final : public encore::backend_queue {
public:
    explicit counting_queue(std::unique_ptr<encore::backend_queue> inner) : inner_(std::move(inner)) {}
    encore::event_ptr submit(encore::command c, std::span<const encore::event_ptr> wait_list) override {
        ++submits;
        return inner_->submit(std::move(c), wait_list);
    }
    encore::backend_queue& inner() { return *inner_; }

private:
    std::unique_ptr<encore::backend_queue> inner_;
};

class counting_executable final : public encore::backend_executable {
public:
    explicit counting_executable(std::unique_ptr<encore::backend_executable> inner)
        : inner_(std::move(inner)) {}
    encore::event_ptr launch(encore::backend_queue& q,
                             std::span<const encore::event_ptr> wait_list) override {
        ++launches;
        return inner_->launch(dynamic_cast<counting_queue&>(q).inner(), wait_list);
    }
    void update(std::uint32_t node, const encore::command& c) override {
        ++updates;
        const auto* k = std::get_if<encore::kernel_command>(&c);
        if (k && k->range.dimensions == 1 && k->range.global[0] == 7)
            throw encore::error(encore::errc::feature_not_supported, "counting: a range of 7 items is refused");
        inner_->update(node, c);
    }

private:
    std::unique_ptr<encore::backend_executable> inner_;
};

class counting_backend final : public encore::backend {
public:
    counting_backend() : inner_(encore::native::make_backend()) {
        encore::device_properties p = inner_->properties(0);
#if defined(ENCORE_COUNTING_GPU)
        p.name = "counting GPU";
        p.type = encore::device_type::gpu;
        p.host_kernels = false;
        p.native_graphs = true;
#else
        p.name = "counting " + p.name;
        p.native_graphs = false;
#endif
        int count = 1;
        if (const char* n = std::getenv("ENCORE_COUNTING_DEVICES")) count = std::atoi(n);
        if (count < 1 || count > 8) count = 1;
        properties_.assign(static_cast<std::size_t>(count), p);
        for (int i = 1; i < count; ++i) properties_[static_cast<std::size_t>(i)].name += " #" + std::to_string(i);
    }
#if defined(ENCORE_COUNTING_GPU)
    std::string_view name() const noexcept override { return "counting_gpu"; }
#else
    std::string_view name() const noexcept override { return "counting"; }
#endif
    std::uint32_t device_count() const noexcept override { return static_cast<std::uint32_t>(properties_.size()); }
    const encore::device_properties& properties(std::uint32_t device) const override {
        return properties_.at(check(device));
    }
    void* allocate(std::uint32_t device, encore::memory_kind kind, std::size_t bytes,
                   std::size_t alignment) override {
        ++allocations;
        return inner_->allocate(inner_device(device), kind, bytes, alignment);
    }
    void deallocate(std::uint32_t device, void* pointer) override {
        inner_->deallocate(inner_device(device), pointer);
    }
    std::unique_ptr<encore::backend_queue> create_queue(std::uint32_t device,
                                                        const encore::queue_properties& p,
                                                        std::shared_ptr<encore::error_sink> errors) override {
        return std::make_unique<counting_queue>(inner_->create_queue(inner_device(device), p, std::move(errors)));
    }
    std::unique_ptr<encore::backend_executable> lower(std::uint32_t device, const encore::graph& g,
                                                      const encore::partition& p) override {
        ++lowerings;
        return std::make_unique<counting_executable>(inner_->lower(inner_device(device), g, p));
    }

private:
    std::uint32_t check(std::uint32_t device) const {
        if (device >= properties_.size())
            throw encore::error(encore::errc::invalid_argument,
                                "counting: no device " + std::to_string(device) + "; it has " +
                                    std::to_string(properties_.size()));
        return device;
    }
    // Every device runs on the native backend's one device.
    std::uint32_t inner_device(std::uint32_t device) const {
        check(device);
        return 0;
    }

    std::unique_ptr<encore::backend> inner_;
    std::vector<encore::device_properties> properties_;
};

} // namespace

extern "C" ENCORE_BACKEND_EXPORT void encore_backend_entry(encore::backend_plugin_request* request) {
    if (request->interface_version != encore::backend_interface_version) {
        request->unavailable_reason =
            "built for interface version " + std::to_string(encore::backend_interface_version);
        return;
    }
    request->instance = std::make_unique<counting_backend>();
}

struct encore_counting_calls {
    unsigned submits, lowerings, launches, updates, allocations;
};

extern "C" ENCORE_BACKEND_EXPORT encore_counting_calls encore_counting_calls_so_far() {
    return {submits.load(), lowerings.load(), launches.load(), updates.load(), allocations.load()};
}

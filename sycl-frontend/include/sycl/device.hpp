// sycl::platform, sycl::device, sycl::context and the device selectors (SYCL 2020 sections 4.6.1-4.6.4).
//
// A SYCL platform is one loaded Encore backend; its devices are that backend's devices. A context groups devices
// of one platform. Selectors are callables scoring a device (negative: never choose it).
//
//     sycl::device d{sycl::cpu_selector_v};
//     std::cout << d.get_info<sycl::info::device::name>() << d.has(sycl::aspect::ext_oneapi_graph);
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "encore/runtime/device.hpp"
#include "exception.hpp"
#include "info.hpp"
#include "property_list.hpp"

namespace sycl {
inline namespace _V1 {

class device;
class platform;

int default_selector_v(const device& d);
int cpu_selector_v(const device& d);
int gpu_selector_v(const device& d);
int accelerator_selector_v(const device& d);
// SYCL 2020 helper: a selector accepting only devices that have every listed aspect.
std::function<int(const device&)> aspect_selector(std::vector<aspect> required);

namespace ext::oneapi::experimental {
enum class source_language : int;
}

class device {
public:
    device(); // the default selector's choice
    template <typename Selector>
        requires std::is_invocable_r_v<int, const Selector&, const device&>
    explicit device(const Selector& selector) : device(select(std::function<int(const device&)>(selector))) {}

    static std::vector<device> get_devices(info::device_type type = info::device_type::all);

    bool is_cpu() const;
    bool is_gpu() const;
    bool is_accelerator() const;
    platform get_platform() const;
    backend get_backend() const noexcept;
    bool has(aspect a) const;
    template <typename Descriptor> typename Descriptor::return_type get_info() const;
    // Deprecated by SYCL 2020 (aspects replace extension strings): whether get_info<info::device::extensions>()
    // lists `extension`; Encore's devices list none.
    [[deprecated("use device::has(aspect)")]] bool has_extension(const std::string& extension) const;

    // Sub-devices: no Encore device can be partitioned (info::device::partition_properties is empty), so each
    // form throws errc::feature_not_supported, as SYCL 2020 specifies for an unsupported partition property.
    template <info::partition_property Prop>
        requires(Prop == info::partition_property::partition_equally)
    std::vector<device> create_sub_devices(std::size_t count) const {
        return refuse_partition("partition_equally", count == 0);
    }
    template <info::partition_property Prop>
        requires(Prop == info::partition_property::partition_by_counts)
    std::vector<device> create_sub_devices(const std::vector<std::size_t>& counts) const {
        return refuse_partition("partition_by_counts", counts.empty());
    }
    template <info::partition_property Prop>
        requires(Prop == info::partition_property::partition_by_affinity_domain)
    std::vector<device> create_sub_devices(info::partition_affinity_domain) const {
        return refuse_partition("partition_by_affinity_domain", false);
    }

    friend bool operator==(const device&, const device&) = default;

    // sycl_ext_oneapi_kernel_compiler: whether kernel bundles in `language` build for this device
    // (sycl/ext/oneapi/experimental/kernel_compiler.hpp).
    bool ext_oneapi_can_compile(ext::oneapi::experimental::source_language language) const;

    // Encore: the engine's device behind this one.
    const encore::device& engine() const noexcept { return engine_; }
    explicit device(const encore::device& d) : engine_(d) {}

private:
    static device select(const std::function<int(const device&)>& selector);
    // errc::invalid for a malformed request (`empty`), otherwise errc::feature_not_supported.
    [[noreturn]] std::vector<device> refuse_partition(const char* property, bool empty) const;
    encore::device engine_;
};

class platform {
public:
    platform(); // the default device's platform
    template <typename Selector>
        requires std::is_invocable_r_v<int, const Selector&, const device&>
    explicit platform(const Selector& selector) : platform(device(selector).get_platform()) {}

    static std::vector<platform> get_platforms();
    std::vector<device> get_devices(info::device_type type = info::device_type::all) const;
    backend get_backend() const noexcept;
    bool has(aspect a) const;
    template <typename Descriptor> typename Descriptor::return_type get_info() const;
    // The context of all this platform's devices that queues made without a context share (DPC++'s extension).
    class context ext_oneapi_get_default_context() const;
    class context khr_get_default_context() const; // the same, under sycl_khr_default_context's name
    friend bool operator==(const platform& a, const platform& b) noexcept { return a.backend_ == b.backend_; }
    friend struct std::hash<platform>;

    explicit platform(encore::backend& b) : backend_(&b) {}

private:
    encore::backend* backend_;
};

namespace detail {
// What the copies of one context share (SYCL's common reference semantics; copying a context, which every
// command group's handler does, allocates nothing).
struct context_state {
    std::vector<device> devices;
    async_handler handler;
    std::uint64_t id;
    property_list properties;
};
} // namespace detail

class context {
public:
    explicit context(const property_list& p = {}) : context(async_handler{}, p) {}
    explicit context(async_handler handler, const property_list& p = {});
    explicit context(const device& d, const property_list& p = {}) : context(d, async_handler{}, p) {}
    explicit context(const device& d, async_handler handler, const property_list& p = {});
    explicit context(const std::vector<device>& devices, const property_list& p = {})
        : context(devices, async_handler{}, p) {}
    explicit context(const std::vector<device>& devices, async_handler handler, const property_list& p = {});

    template <typename P> bool has_property() const noexcept { return state_->properties.template has_property<P>(); }
    template <typename P> P get_property() const { return state_->properties.template get_property<P>(); }

    platform get_platform() const { return state_->devices.front().get_platform(); }
    std::vector<device> get_devices() const { return state_->devices; }
    backend get_backend() const noexcept { return state_->devices.front().get_backend(); }
    const async_handler& handler() const noexcept { return state_->handler; }
    bool contains(const device& d) const;
    friend bool operator==(const context& a, const context& b) noexcept { return a.state_->id == b.state_->id; }

    // Encore: a number naming this context (copies share it), for USM bookkeeping.
    std::uint64_t engine_id() const noexcept { return state_->id; }

private:
    std::shared_ptr<const detail::context_state> state_; // never null
};

} // namespace _V1
} // namespace sycl

// Common reference semantics (SYCL 2020 4.5.2): equal objects hash equally.
template <> struct std::hash<sycl::device> {
    std::size_t operator()(const sycl::device& d) const noexcept {
        return std::hash<const void*>()(&d.engine().owner()) ^ (std::size_t{d.engine().index()} << 1);
    }
};
template <> struct std::hash<sycl::platform> {
    std::size_t operator()(const sycl::platform& p) const noexcept { return std::hash<const void*>()(p.backend_); }
};
template <> struct std::hash<sycl::context> {
    std::size_t operator()(const sycl::context& c) const noexcept {
        return std::hash<std::uint64_t>()(c.engine_id());
    }
};

// platforms, devices, contexts, selectors, info queries and aspects, written as ordinary SYCL code.
#include <doctest/doctest.h>

#include <sycl/sycl.hpp>

// What the native device is (the default device): native.
TEST_CASE("the default device is the native CPU and it supports graphs" * doctest::test_suite("native")) {
    sycl::device d;
    CHECK(d.is_cpu());
    CHECK_FALSE(d.is_gpu());
    CHECK(d.get_backend() == sycl::backend::ext_oneapi_native_cpu);
    CHECK(d.has(sycl::aspect::ext_oneapi_graph));
    CHECK(d.has(sycl::aspect::ext_oneapi_limited_graph));
    CHECK(d.has(sycl::aspect::usm_shared_allocations));
    CHECK_FALSE(d.has(sycl::aspect::fp16));
    CHECK_FALSE(d.get_info<sycl::info::device::name>().empty());
    CHECK(d.get_info<sycl::info::device::max_work_group_size>() >= 1);
    CHECK(d.get_info<sycl::info::device::max_compute_units>() >= 1);
    CHECK(d.get_info<sycl::info::device::device_type>() == sycl::info::device_type::cpu);
}

TEST_CASE("selectors") {
    // Each type's selector finds a device of its type where one is visible and throws errc::runtime otherwise (CI
    // has CPUs only: native, PoCL; NVIDIA's OpenCL alone has a GPU only).
    const bool has_cpu = !sycl::device::get_devices(sycl::info::device_type::cpu).empty();
    const bool has_gpu = !sycl::device::get_devices(sycl::info::device_type::gpu).empty();
    REQUIRE((has_cpu || has_gpu));
    auto check_selects = [](auto&& selector, bool present, bool (sycl::device::*is)() const) {
        if (present) {
            CHECK((sycl::device(selector).*is)());
            return;
        }
        try {
            sycl::device found(selector);
            FAIL("a device was selected where none of the kind is visible");
        } catch (const sycl::exception& e) {
            CHECK(e.code() == sycl::errc::runtime);
        }
    };
    check_selects(sycl::cpu_selector_v, has_cpu, &sycl::device::is_cpu);
    check_selects(sycl::gpu_selector_v, has_gpu, &sycl::device::is_gpu);
    CHECK(sycl::device(sycl::default_selector_v) == sycl::device());
    check_selects([](const sycl::device& d) { return d.is_cpu() ? 5 : -1; }, has_cpu, &sycl::device::is_cpu);
    check_selects(sycl::aspect_selector({sycl::aspect::cpu, sycl::aspect::ext_oneapi_graph}), has_cpu,
                  &sycl::device::is_cpu);
    check_selects(sycl::aspect_selector({sycl::aspect::gpu}), has_gpu, &sycl::device::is_gpu);
}

// What the native device is: native.
TEST_CASE("platforms list their devices" * doctest::test_suite("native")) {
    auto platforms = sycl::platform::get_platforms();
    REQUIRE(platforms.size() == 1);
    auto devices = platforms[0].get_devices();
    REQUIRE_FALSE(devices.empty());
    CHECK(devices[0].get_platform() == platforms[0]);
    CHECK(platforms[0].get_devices(sycl::info::device_type::gpu).empty());
    CHECK(platforms[0].get_info<sycl::info::platform::name>() == "Encore native");
    CHECK(sycl::device::get_devices(sycl::info::device_type::cpu).size() == devices.size());
}

TEST_CASE("contexts") {
    sycl::device d;
    sycl::context c(d);
    CHECK(c.get_devices() == std::vector<sycl::device>{d});
    CHECK(c.contains(d));
    sycl::context copy = c;
    CHECK(copy == c);
    CHECK_FALSE(sycl::context(d) == c);
    try {
        sycl::context empty(std::vector<sycl::device>{});
        FAIL("an empty context was made");
    } catch (const sycl::exception& e) {
        CHECK(e.code() == sycl::errc::invalid);
    }
}

TEST_CASE("the deprecated usm_*_allocations descriptors answer the aspects of the same name") {
    sycl::device d;
    CHECK(d.get_info<sycl::info::device::usm_device_allocations>() == d.has(sycl::aspect::usm_device_allocations));
    CHECK(d.get_info<sycl::info::device::usm_host_allocations>() == d.has(sycl::aspect::usm_host_allocations));
    CHECK(d.get_info<sycl::info::device::usm_shared_allocations>() == d.has(sycl::aspect::usm_shared_allocations));
    CHECK(d.get_info<sycl::info::device::usm_system_allocations>() == d.has(sycl::aspect::usm_system_allocations));
    CHECK(d.get_info<sycl::info::device::usm_device_allocations>()); // every Encore device has device USM
}

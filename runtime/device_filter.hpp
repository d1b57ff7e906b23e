// encore::device_filter — which devices a process may use, in ONEAPI_DEVICE_SELECTOR syntax.
//
// SYCL programs are steered to devices with DPC++'s ONEAPI_DEVICE_SELECTOR; Encore reads the same syntax, with
// Encore's backend names (cuda, hip, level_zero, opencl, native; DPC++'s native_cpu is an alias of native, and
// any plugin's name works) as the backend part:
//
//     selector := term (';' term)*          term := ['!'] backend ':' device (',' device)*
//     backend  := '*' | name                device := '*' | 'cpu' | 'gpu' | 'fpga' | index
//
// A device is visible when some positive term matches it and no negative ('!') term does; a selector of only
// negative terms starts from every device. Indices count the devices of that backend from 0. Names are case
// insensitive. A malformed value throws encore::error(invalid_argument) naming the variable, the value and the
// rule broken: a typo must never quietly select another device. Sub-devices ('0.1') are refused the same way,
// since no Encore backend partitions its devices.
//
//     auto filter = encore::device_filter::parse("cuda:0;native:*");
//     filter.accepts("cuda", 1, encore::device_type::gpu);   // false
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "encore/backends/backend.hpp"

namespace encore {

class device_filter {
public:
    device_filter() = default; // accepts every device

    // `variable` names the setting in error messages.
    static device_filter parse(std::string_view text, std::string_view variable = "ONEAPI_DEVICE_SELECTOR");

    bool accepts(std::string_view backend, std::uint32_t index, device_type type) const;
    // Whether any device of `backend` could be accepted (a backend no term can match need not be loaded).
    bool may_accept(std::string_view backend) const;
    bool accepts_everything() const noexcept { return terms_.empty(); }

private:
    struct device_pattern {
        enum class kind : std::uint8_t { any, type, index } what = kind::any;
        device_type type = device_type::cpu;
        std::uint32_t index = 0;
    };
    struct term {
        bool negative = false;
        std::string backend; // "*" for every backend
        std::vector<device_pattern> devices;
    };
    static bool matches(const term& t, std::string_view backend, std::uint32_t index, device_type type);

    std::vector<term> terms_;
};

} // namespace encore

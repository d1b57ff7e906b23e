#include "device_filter.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "encore/graph/error.hpp"

namespace encore {

namespace {

std::string lowercase(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> out;
    for (;;) {
        auto end = text.find(separator);
        out.push_back(trimmed(text.substr(0, end)));
        if (end == std::string_view::npos) return out;
        text.remove_prefix(end + 1);
    }
}

bool valid_backend_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

} // namespace

device_filter device_filter::parse(std::string_view text, std::string_view variable) {
    const std::string whole(text);
    auto fail = [&](const std::string& why) -> void {
        throw error(errc::invalid_argument, std::string(variable) + "='" + whole + "' is malformed: " + why +
                                                " (expected terms such as 'cuda:0', 'opencl:*', 'native:cpu' or "
                                                "'!cuda:*', separated by ';')");
    };
    device_filter filter;
    if (trimmed(text).empty()) fail("it is empty (unset it to use every device)");
    for (auto piece : split(text, ';')) {
        if (piece.empty()) fail("it has an empty term");
        term t;
        if (piece.front() == '!') {
            t.negative = true;
            piece = trimmed(piece.substr(1));
        }
        const auto colon = piece.find(':');
        if (colon == std::string_view::npos) fail("term '" + std::string(piece) + "' has no ':' between backend and devices");
        t.backend = lowercase(trimmed(piece.substr(0, colon)));
        if (t.backend == "native_cpu") t.backend = "native";
        if (t.backend != "*" && !valid_backend_name(t.backend))
            fail("'" + t.backend + "' is not a backend name (cuda, hip, level_zero, opencl, native or '*')");
        const auto list = piece.substr(colon + 1);
        if (trimmed(list).empty()) fail("term '" + std::string(piece) + "' names no device");
        for (auto token : split(list, ',')) {
            const std::string device = lowercase(token);
            device_pattern p;
            if (device == "*") p.what = device_pattern::kind::any;
            else if (device == "cpu" || device == "gpu" || device == "fpga") {
                p.what = device_pattern::kind::type;
                p.type = device == "cpu" ? device_type::cpu : device == "gpu" ? device_type::gpu : device_type::accelerator;
            } else if (device.find('.') != std::string::npos)
                fail("'" + device + "' names a sub-device; Encore's devices have no sub-devices");
            else {
                auto [end, ec] = std::from_chars(device.data(), device.data() + device.size(), p.index);
                if (device.empty() || ec != std::errc{} || end != device.data() + device.size())
                    fail("'" + device + "' is not a device ('*', 'cpu', 'gpu', 'fpga' or an index)");
                p.what = device_pattern::kind::index;
            }
            t.devices.push_back(p);
        }
        filter.terms_.push_back(std::move(t));
    }
    return filter;
}

bool device_filter::matches(const term& t, std::string_view backend, std::uint32_t index, device_type type) {
    if (t.backend != "*" && t.backend != backend) return false;
    return std::any_of(t.devices.begin(), t.devices.end(), [&](const device_pattern& p) {
        switch (p.what) {
        case device_pattern::kind::any: return true;
        case device_pattern::kind::type: return p.type == type;
        case device_pattern::kind::index: return p.index == index;
        }
        return false;
    });
}

bool device_filter::accepts(std::string_view backend, std::uint32_t index, device_type type) const {
    if (terms_.empty()) return true;
    bool any_positive = false, accepted = false;
    for (const auto& t : terms_) {
        if (t.negative) {
            if (matches(t, backend, index, type)) return false;
        } else {
            any_positive = true;
            accepted = accepted || matches(t, backend, index, type);
        }
    }
    return accepted || !any_positive;
}

bool device_filter::may_accept(std::string_view backend) const {
    bool any_positive = false;
    for (const auto& t : terms_) {
        if (t.negative) {
            // '!cuda:*' hides every device of cuda, whatever the positive terms say.
            const bool hides_all = std::any_of(t.devices.begin(), t.devices.end(), [](const device_pattern& p) {
                return p.what == device_pattern::kind::any;
            });
            if (hides_all && (t.backend == "*" || t.backend == backend)) return false;
        } else {
            any_positive = true;
            if (t.backend == "*" || t.backend == backend) return true;
        }
    }
    return !any_positive;
}

} // namespace encore

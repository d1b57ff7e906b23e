// sycl::property_list and the properties of queues, buffers and accessors (SYCL 2020 section 4.5.4).
//
// A property list holds properties of any type; an object asks it has_property<P>() and get_property<P>().
// Graph properties (sycl::ext::oneapi::experimental::property::graph::...) use the same list.
//
//     sycl::queue q{sycl::property_list{sycl::property::queue::in_order{}, sycl::property::queue::enable_profiling{}}};
//     q.has_property<sycl::property::queue::in_order>() == true
#pragma once

#include <any>
#include <typeindex>
#include <utility>
#include <vector>

#include "exception.hpp"

namespace sycl {
inline namespace _V1 {

// A type is a property when this trait says so; each property below specializes it.
template <typename T> struct is_property : std::false_type {};
template <typename T> inline constexpr bool is_property_v = is_property<T>::value;

class property_list {
public:
    property_list() = default;
    template <typename... Properties>
        requires(is_property_v<std::remove_cvref_t<Properties>> && ...)
    property_list(Properties&&... properties) {
        (add(std::forward<Properties>(properties)), ...);
    }

    template <typename P> bool has_property() const noexcept { return find<P>() != nullptr; }
    // Throws errc::invalid when the list does not hold P.
    template <typename P> P get_property() const {
        if (const auto* p = find<P>()) return *p;
        throw exception(errc::invalid, "the property list does not hold the requested property");
    }

private:
    template <typename P> void add(P&& property) {
        using T = std::remove_cvref_t<P>;
        for (auto& entry : entries_)
            if (entry.type() == typeid(T)) {
                entry = std::forward<P>(property); // the later one wins
                return;
            }
        entries_.emplace_back(std::forward<P>(property));
    }
    template <typename P> const P* find() const noexcept {
        for (const auto& entry : entries_)
            if (const auto* p = std::any_cast<P>(&entry)) return p;
        return nullptr;
    }
    std::vector<std::any> entries_;
};

namespace property {
namespace queue {
struct in_order {};
struct enable_profiling {};
} // namespace queue
namespace buffer {
// The buffer works on the host memory it was given (Encore copies it into USM shared storage and writes it back;
// the property is accepted and has no further effect).
struct use_host_ptr {};
} // namespace buffer
// An accessor's property: the previous contents need not be kept (a write-only use).
struct no_init {};
} // namespace property

inline constexpr property::no_init no_init{};

template <> struct is_property<property::queue::in_order> : std::true_type {};
template <> struct is_property<property::queue::enable_profiling> : std::true_type {};
template <> struct is_property<property::buffer::use_host_ptr> : std::true_type {};
template <> struct is_property<property::no_init> : std::true_type {};

} // namespace _V1
} // namespace sycl

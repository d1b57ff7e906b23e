// sycl::exception and sycl::errc (SYCL 2020 section 4.13.2).
//
// Every error the front end reports is a sycl::exception whose code() is in sycl_category(). Errors from the
// engine (encore::error) are translated with the matching errc by detail::rethrow_as_sycl().
//
//     try { q.memcpy(nullptr, src, 16); }
//     catch (const sycl::exception& e) { if (e.code() == sycl::errc::invalid) ... }
#pragma once

#include <exception>
#include <functional>
#include <string>
#include <system_error>
#include <vector>

namespace sycl {
inline namespace _V1 {

enum class errc : int {
    success = 0,
    runtime = 1,
    kernel = 2,
    accessor = 3,
    nd_range = 4,
    event = 5,
    kernel_argument = 6,
    build = 7,
    invalid = 8,
    memory_allocation = 9,
    platform = 10,
    profiling = 11,
    feature_not_supported = 12,
    kernel_not_supported = 13,
    backend_mismatch = 14,
};

const std::error_category& sycl_category() noexcept;
std::error_code make_error_code(errc e) noexcept;

class context;

class exception : public virtual std::exception {
public:
    exception(std::error_code code, const std::string& what_arg);
    exception(std::error_code code, const char* what_arg) : exception(code, std::string(what_arg)) {}
    explicit exception(std::error_code code) : exception(code, std::string()) {}
    exception(int value, const std::error_category& category, const std::string& what_arg)
        : exception(std::error_code(value, category), what_arg) {}

    const std::error_code& code() const noexcept { return code_; }
    const std::error_category& category() const noexcept { return code_.category(); }
    const char* what() const noexcept override { return what_.c_str(); }
    bool has_context() const noexcept { return false; }

private:
    std::error_code code_;
    std::string what_;
};

class exception_list {
public:
    using value_type = std::exception_ptr;
    using reference = value_type&;
    using const_reference = const value_type&;
    using size_type = std::size_t;
    using iterator = std::vector<std::exception_ptr>::const_iterator;
    using const_iterator = iterator;

    exception_list() = default;
    explicit exception_list(std::vector<std::exception_ptr> list) : list_(std::move(list)) {}
    size_type size() const noexcept { return list_.size(); }
    iterator begin() const noexcept { return list_.begin(); }
    iterator end() const noexcept { return list_.end(); }

private:
    std::vector<std::exception_ptr> list_;
};

using async_handler = std::function<void(sycl::exception_list)>;

} // namespace _V1
} // namespace sycl

template <> struct std::is_error_code_enum<sycl::errc> : std::true_type {};

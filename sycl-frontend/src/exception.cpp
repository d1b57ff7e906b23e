#include "sycl/exception.hpp"

namespace sycl {
inline namespace _V1 {

namespace {
class category final : public std::error_category {
public:
    const char* name() const noexcept override { return "sycl"; }
    std::string message(int value) const override {
        switch (static_cast<errc>(value)) {
        case errc::success: return "success";
        case errc::runtime: return "runtime error";
        case errc::kernel: return "kernel error";
        case errc::accessor: return "accessor error";
        case errc::nd_range: return "invalid nd_range";
        case errc::event: return "event error";
        case errc::kernel_argument: return "invalid kernel argument";
        case errc::build: return "build error";
        case errc::invalid: return "invalid use";
        case errc::memory_allocation: return "memory allocation failed";
        case errc::platform: return "platform error";
        case errc::profiling: return "profiling information unavailable";
        case errc::feature_not_supported: return "feature not supported";
        case errc::kernel_not_supported: return "kernel not supported";
        case errc::backend_mismatch: return "backend mismatch";
        }
        return "unknown sycl error";
    }
};
} // namespace

const std::error_category& sycl_category() noexcept {
    static const category instance;
    return instance;
}

std::error_code make_error_code(errc e) noexcept { return {static_cast<int>(e), sycl_category()}; }

exception::exception(std::error_code code, const std::string& what_arg)
    : code_(code), what_(what_arg.empty() ? code.message() : what_arg) {}

} // namespace _V1
} // namespace sycl

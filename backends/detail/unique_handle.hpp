// encore::detail::unique_handle — owns one driver handle (a CUstream, a cl_kernel, ...) so that no path leaks it.
// Not for you: each backend names its handles with it (backends/opencl/detail/
// api.hpp).
//
//     using stream_handle = encore::detail::unique_handle<CUstream, &cuStreamDestroy>;
//     stream_handle s;
//     check(cuStreamCreate(s.out(), CU_STREAM_NON_BLOCKING), "cuStreamCreate");
#pragma once

#include <utility>

namespace encore::detail {

// `Destroy(handle)` releases a handle; what it returns is ignored (nothing can be done about a failure there).
template <typename Handle, auto Destroy> class unique_handle {
public:
    unique_handle() = default;
    explicit unique_handle(Handle h) noexcept : handle_(h) {}
    ~unique_handle() { reset(); }
    unique_handle(unique_handle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    unique_handle& operator=(unique_handle&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    unique_handle(const unique_handle&) = delete;
    unique_handle& operator=(const unique_handle&) = delete;

    Handle get() const noexcept { return handle_; }
    Handle* out() noexcept { // for the driver's create calls; drops what was held
        reset();
        return &handle_;
    }
    Handle release() noexcept { return std::exchange(handle_, nullptr); }
    void reset() noexcept {
        if (handle_) static_cast<void>(Destroy(std::exchange(handle_, nullptr)));
    }
    explicit operator bool() const noexcept { return handle_ != nullptr; }

private:
    Handle handle_ = nullptr;
};

} // namespace encore::detail

// Checked driver calls and RAII owners of driver handles, for the CUDA plugin. Not for you.
//
// check(result, "cuMemAlloc") throws encore::error(errc::backend_failure, "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY
// (out of memory)") on failure; unique_handle<H, destroy> owns one handle so that no path leaks it; a
// context_scope makes a context current for a scope (and only switches when another one is current).
//
//     encore::cuda::detail::stream_handle s;
//     check(cuStreamCreate(s.out(), CU_STREAM_NON_BLOCKING), "cuStreamCreate");
#pragma once

#include <cuda.h>

#include <string>
#include <string_view>
#include <utility>

namespace encore::cuda::detail {

// "CUDA_ERROR_INVALID_VALUE (invalid argument)".
std::string describe(CUresult result);
[[noreturn]] void fail(CUresult result, std::string_view call, std::string_view context = {});
inline void check(CUresult result, std::string_view call, std::string_view context = {}) {
    if (result != CUDA_SUCCESS) fail(result, call, context);
}

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
        if (handle_) static_cast<void>(Destroy(std::exchange(handle_, nullptr))); // nothing to do on failure
    }
    explicit operator bool() const noexcept { return handle_ != nullptr; }

private:
    Handle handle_ = nullptr;
};

using stream_handle = unique_handle<CUstream, &cuStreamDestroy>;
using event_handle = unique_handle<CUevent, &cuEventDestroy>;
using graph_handle = unique_handle<CUgraph, &cuGraphDestroy>;
using graph_exec_handle = unique_handle<CUgraphExec, &cuGraphExecDestroy>;
using module_handle = unique_handle<CUmodule, &cuModuleUnload>;

// Makes `context` current on this thread for the scope, restoring the previous one after. Costs one
// cuCtxGetCurrent when it is current already.
class context_scope {
public:
    explicit context_scope(CUcontext context);
    ~context_scope();
    context_scope(const context_scope&) = delete;
    context_scope& operator=(const context_scope&) = delete;

private:
    CUcontext previous_ = nullptr;
    bool switched_ = false;
};

} // namespace encore::cuda::detail

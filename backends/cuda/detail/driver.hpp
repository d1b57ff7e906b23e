// Checked driver calls and RAII owners of driver handles, for the CUDA plugin. Not for you.
//
// check(result, "cuMemAlloc") throws encore::error(errc::backend_failure, "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY
// (out of memory)") on failure; unique_handle<H, destroy> (backends/detail/unique_handle.hpp) owns one handle; a
// context_scope makes a context current for a scope (and only switches when another one is current).
//
//     encore::cuda::detail::stream_handle s;
//     check(cuStreamCreate(s.out(), CU_STREAM_NON_BLOCKING), "cuStreamCreate");
#pragma once

#include <cuda.h>

#include <string>
#include <string_view>
#include <utility>

#include "encore/backends/detail/unique_handle.hpp"

namespace encore::cuda::detail {

// "CUDA_ERROR_INVALID_VALUE (invalid argument)".
std::string describe(CUresult result);
[[noreturn]] void fail(CUresult result, std::string_view call, std::string_view context = {});
inline void check(CUresult result, std::string_view call, std::string_view context = {}) {
    if (result != CUDA_SUCCESS) fail(result, call, context);
}

template <typename Handle, auto Destroy> using unique_handle = encore::detail::unique_handle<Handle, Destroy>;

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

#include "driver.hpp"

#include "encore/graph/error.hpp"

namespace encore::cuda::detail {

std::string describe(CUresult result) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = "unknown CUresult";
    if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text) text = "no description";
    return std::string(name) + " (" + text + ")";
}

void fail(CUresult result, std::string_view call, std::string_view context) {
    std::string message(call);
    message += ": " + describe(result);
    if (!context.empty()) message += std::string(" [") + std::string(context) + "]";
    throw error(errc::backend_failure, message);
}

context_scope::context_scope(CUcontext context) {
    check(cuCtxGetCurrent(&previous_), "cuCtxGetCurrent");
    if (previous_ != context) {
        check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
        switched_ = true;
    }
}

context_scope::~context_scope() {
    if (switched_) static_cast<void>(cuCtxSetCurrent(previous_));
}

} // namespace encore::cuda::detail

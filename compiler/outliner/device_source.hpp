// The device source for CUDA: the user's source, with ENCORE_HOST_DEVICE on every function of it that a
// kernel reaches, followed by one outlined struct per lambda kernel (its captures as fields, its body as a
// __device__ call operator) and one `extern "C" __global__` entry per kernel (docs/compiler.md, "Device
// source").
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <string>
#include <vector>

#include "device_rules.hpp"
#include "kernel_model.hpp"

namespace encore::outliner {

// Reports what an outlined struct cannot reach as errors through `rules`; the text is meaningful only when no
// error was reported.
std::string device_source(clang::ASTContext& context, clang::Rewriter& rewriter,
                          const std::vector<kernel_info>& kernels, device_rules& rules);

} // namespace encore::outliner

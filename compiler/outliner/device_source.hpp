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

// How the device source spells the program's names: fully qualified, anonymous namespaces left out (the device
// source is the same translation unit, so they need no spelling).
clang::PrintingPolicy printing(const clang::ASTContext& context);

// Reports what an outlined struct cannot reach as errors through `rules`; the text is meaningful only when no
// error was reported.
std::string device_source(clang::ASTContext& context, clang::Rewriter& rewriter,
                          const std::vector<kernel_info>& kernels, device_rules& rules);

// The program's other files the source includes (its headers, sources it includes), as the device compile must see
// them: with device_source's edits (ENCORE_HOST_DEVICE, __shared__, ...), each starting with a #line naming the
// original. encore++ writes them to a mirror of their paths that comes first on the device compile's include path,
// so the program's own files are never edited (docs/compiler.md, "The program's headers").
struct user_file {
    std::string path; // absolute, as the file system names it
    std::string text;
};
std::vector<user_file> user_files(const clang::ASTContext& context, const clang::Rewriter& rewriter,
                                  const device_rules& rules);

} // namespace encore::outliner

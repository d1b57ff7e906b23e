// The integration header: what the host compile includes (`-include`) to learn each kernel's identity, entry
// and parameters (compiler/kernel_descriptor.hpp describes the tables; docs/compiler.md shows one).
#pragma once

#include <clang/Basic/SourceManager.h>

#include <string>
#include <vector>

#include "kernel_model.hpp"

namespace encore::outliner {

// A C++ string literal of `text`.
std::string quoted(const std::string& text);

std::string integration_header(const std::vector<kernel_info>& kernels, const clang::SourceManager& sources,
                               const std::string& source_name);

} // namespace encore::outliner

// Kernel parameter decomposition (docs/compiler.md, "Decomposition"): the kernel object's fields, flattened
// into the parameters the runtime passes to the device — std-layout bytes, pointers, accessors and local
// accessors, with arrays of accessors and structs holding accessors taken apart member by member.
#pragma once

#include <clang/AST/ASTContext.h>

#include "kernel_model.hpp"

namespace encore::outliner {

// Fills kernel.fields (names of the captures or members, in layout order) and kernel.params.
void decompose(clang::ASTContext& context, kernel_info& kernel);

} // namespace encore::outliner
